// One piece of work per rank on several threads: see parallel_ranks.h.
#include "analyzer/pipeline/parallel_ranks.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace damscope {

size_t threadsFor(int jobs, size_t pieces) {
  size_t threads = jobs > 0 ? static_cast<size_t>(jobs) : std::thread::hardware_concurrency();
  return std::clamp<size_t>(threads, 1, std::max<size_t>(pieces, 1));
}

Status forEachPiece(size_t pieces, int jobs, const std::function<Status(size_t)>& work) {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::optional<std::pair<size_t, Status>> first_error;
  auto run = [&] {
    for (size_t i = next++; i < pieces && !failed.load(); i = next++) {
      Status status = work(i);
      if (status.ok()) continue;
      std::lock_guard<std::mutex> lock(mutex);
      if (!first_error || i < first_error->first) first_error.emplace(i, std::move(status));
      failed.store(true);
    }
  };
  const size_t threads = threadsFor(jobs, pieces);
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(run);
  run();
  for (std::thread& t : pool) t.join();
  if (first_error) return std::move(first_error->second);
  return okStatus();
}

}  // namespace damscope
