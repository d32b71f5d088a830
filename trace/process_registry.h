// Finds or adds the `processes` and `threads` rows of OS process and thread
// ids while events are added, so every importer (and the collector) maps a
// (pid, tid) to the same row the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>

#include "trace/tables.h"

namespace damscope {

class ProcessRegistry {
 public:
  explicit ProcessRegistry(TraceTables& tables) : tables_(tables) {}

  // The row id of process `pid`, adding a row on first sight.
  int64_t process(int64_t pid);
  // The row id of thread `tid` of process `pid`, adding rows on first sight.
  int64_t thread(int64_t pid, int64_t tid);

  std::optional<int64_t> findProcess(int64_t pid) const;
  std::optional<int64_t> findThread(int64_t pid, int64_t tid) const;

 private:
  struct PairHash {
    size_t operator()(const std::pair<int64_t, int64_t>& p) const {
      return std::hash<int64_t>()(p.first) * 31 + std::hash<int64_t>()(p.second);
    }
  };

  TraceTables& tables_;
  std::unordered_map<int64_t, int64_t> processes_;                              // pid -> row
  std::unordered_map<std::pair<int64_t, int64_t>, int64_t, PairHash> threads_;  // (pid, tid) -> row
};

}  // namespace damscope
