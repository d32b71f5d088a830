// The data loader: see loader.h.
#include "reference_workloads/gpt2/data/loader.h"

#include <algorithm>

namespace damscope::gpt2 {

Loader::Loader(const TokenSource& source, BatchSpec spec, LoaderOptions options,
               int64_t first_batch, LoaderObserver* observer)
    : source_(source),
      spec_(spec),
      options_(options),
      observer_(observer),
      next_to_start_(first_batch),
      taken_(first_batch) {
  for (int w = 0; w < options_.workers; ++w) threads_.emplace_back([this, w] { workerLoop(w); });
}

Loader::~Loader() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  work_.notify_all();
  for (std::thread& t : threads_) t.join();
}

int64_t Loader::startLimit() const {
  // `prefetch` ahead of the trainer, and the batch the trainer waits for.
  return std::max(taken_ + options_.prefetch, waiting_ ? taken_ + 1 : taken_);
}

void Loader::workerLoop(int worker) {
  if (observer_) observer_->workerStarted(worker);
  std::unique_lock lock(mutex_);
  while (!stop_) {
    if (next_to_start_ >= startLimit()) {
      work_.wait(lock);
      continue;
    }
    const int64_t index = next_to_start_++;
    lock.unlock();
    Batch batch;
    if (observer_) observer_->beginLoad();
    makeBatch(source_, spec_, index * options_.stride + options_.offset, batch);
    if (observer_) observer_->endLoad();
    lock.lock();
    done_.emplace(index, std::move(batch));
    ready_.notify_all();
  }
}

void Loader::next(Batch& out) {
  if (options_.workers == 0) {
    makeBatch(source_, spec_, taken_++ * options_.stride + options_.offset, out);
    return;
  }
  std::unique_lock lock(mutex_);
  waiting_ = true;
  work_.notify_all();  // with prefetch 0, this is what lets a worker start
  ready_.wait(lock, [&] { return done_.count(taken_) > 0; });
  auto it = done_.find(taken_);
  std::swap(out, it->second);
  done_.erase(it);
  ++taken_;
  waiting_ = false;
  lock.unlock();
  work_.notify_all();  // a prefetch slot is free
}

}  // namespace damscope::gpt2
