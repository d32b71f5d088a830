// Process and thread rows by OS id: see process_registry.h.
#include "trace/process_registry.h"

namespace damscope {

int64_t ProcessRegistry::process(int64_t pid) {
  auto [it, inserted] = processes_.try_emplace(pid, 0);
  if (inserted) {
    ProcessTable::Row row;
    row.pid = pid;
    it->second = tables_.processes.append(row);
  }
  return it->second;
}

int64_t ProcessRegistry::thread(int64_t pid, int64_t tid) {
  auto [it, inserted] = threads_.try_emplace({pid, tid}, 0);
  if (inserted) {
    ThreadTable::Row row;
    row.process_id = process(pid);
    row.tid = tid;
    it->second = tables_.threads.append(row);
  }
  return it->second;
}

std::optional<int64_t> ProcessRegistry::findProcess(int64_t pid) const {
  auto it = processes_.find(pid);
  return it == processes_.end() ? std::nullopt : std::optional<int64_t>(it->second);
}

std::optional<int64_t> ProcessRegistry::findThread(int64_t pid, int64_t tid) const {
  auto it = threads_.find({pid, tid});
  return it == threads_.end() ? std::nullopt : std::optional<int64_t>(it->second);
}

}  // namespace damscope
