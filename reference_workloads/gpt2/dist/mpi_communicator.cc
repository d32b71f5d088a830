// MPI data parallel on the CPU: see mpi_communicator.h.
#include "reference_workloads/gpt2/dist/mpi_communicator.h"

#ifdef DAMSCOPE_GPT2_MPI
#include <mpi.h>

#include <cstdlib>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#endif

namespace damscope::gpt2 {

#ifdef DAMSCOPE_GPT2_MPI
namespace {

class MpiCommunicator final : public Communicator {
 public:
  MpiCommunicator() : thread_([this] { run(); }) {}
  ~MpiCommunicator() override {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    work_.notify_all();
    thread_.join();
  }

  // Waits until the thread has initialised MPI; the error when it could not.
  Status started() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return initialised_; });
    if (!init_error_.empty()) return Error(init_error_);
    return okStatus();
  }

  const char* name() const override { return "mpi"; }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void setTracer(CollectiveTracer* tracer) override { tracer_ = tracer; }

  void startAllReduce(float* data, size_t n, int bucket) override {
    {
      std::lock_guard lock(mutex_);
      queue_.push_back({data, n, bucket});
    }
    work_.notify_one();
  }

  void wait() override {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
  }

 private:
  struct Job {
    float* data;
    size_t n;
    int bucket;
  };

  void run() {
    int provided = 0;
    std::string error;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
      error = "MPI_Init_thread failed";
    } else {
      MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
      MPI_Comm_size(MPI_COMM_WORLD, &size_);
    }
    {
      std::lock_guard lock(mutex_);
      initialised_ = true;
      init_error_ = error;
    }
    idle_.notify_all();
    if (!error.empty()) return;
    bool named = false;
    for (;;) {
      Job job;
      {
        std::unique_lock lock(mutex_);
        work_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) break;  // stopping, nothing left
        job = queue_.front();
        busy_ = true;
        queue_.pop_front();
      }
      if (tracer_ && !named) tracer_->nameThread("comm"), named = true;
      reduce(job);
      {
        std::lock_guard lock(mutex_);
        busy_ = false;
      }
      idle_.notify_all();
    }
    MPI_Finalize();
  }

  void reduce(const Job& job) {
    if (tracer_) tracer_->beginCollective("all_reduce", job.n * sizeof(float), job.bucket);
    // MPI counts are int: a bucket beyond 2^31 floats goes in pieces.
    constexpr size_t kMaxCount = size_t{1} << 30;
    for (size_t done = 0; done < job.n; done += kMaxCount) {
      const int count = static_cast<int>(std::min(kMaxCount, job.n - done));
      MPI_Allreduce(MPI_IN_PLACE, job.data + done, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    }
    const float inverse = 1.0f / static_cast<float>(size_);
    for (size_t i = 0; i < job.n; ++i) job.data[i] *= inverse;
    if (tracer_) tracer_->endCollective();
  }

  std::mutex mutex_;
  std::condition_variable work_;  // the thread waits for a job
  std::condition_variable idle_;  // callers wait for initialisation or an empty queue
  std::deque<Job> queue_;
  bool busy_ = false;
  bool stop_ = false;
  bool initialised_ = false;
  std::string init_error_;
  int rank_ = 0;
  int size_ = 1;
  CollectiveTracer* tracer_ = nullptr;
  std::thread thread_;  // last: starts after every member above exists
};

}  // namespace

bool mpiBuiltIn() { return true; }

Result<std::unique_ptr<Communicator>> createMpiCommunicator() {
  // The communication thread shares the cores with the compute threads, and
  // Open MPI's default busy-polling while an all-reduce waits would take a
  // core from them; yielding while idle gave 368 ms steps instead of 391 ms
  // without overlap and 372 ms instead of 439 ms with it (wide, 1 x 64, 4 MB
  // buckets, 2 ranks on 2 cores). An explicit setting of the user's wins.
  setenv("OMPI_MCA_mpi_yield_when_idle", "1", /*overwrite=*/0);
  auto comm = std::make_unique<MpiCommunicator>();
  DAMSCOPE_RETURN_IF_ERROR(comm->started());
  return std::unique_ptr<Communicator>(std::move(comm));
}

#else

bool mpiBuiltIn() { return false; }

Result<std::unique_ptr<Communicator>> createMpiCommunicator() {
  return Error(
      "data parallel on the CPU needs MPI, and this build has none (install libopenmpi-dev: "
      "scripts/install-deps.sh)");
}

#endif

}  // namespace damscope::gpt2
