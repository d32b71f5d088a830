// The CUPTI activity session of the injected library: loading libcupti,
// claiming CUPTI for this process, handing it buffers from the pool, enabling
// the activity kinds, flushing, and walking completed buffers.
//
// libcupti is loaded with dlopen, never linked: the injection library must
// load (and record NVTX ranges and CPU samples) on machines without CUPTI or
// without a GPU, where a link-time dependency would make the loader refuse
// the whole library. Search order: $DAMSCOPE_CUPTI_PATH; a libcupti the
// process has already loaded (PyTorch wheels ship their own; two copies in one
// process would fight); the libcupti found when damscope was built;
// libcupti.so.<major> through the loader's search path.
//
// Every failure is an Error whose message says, in one sentence for the user,
// why GPU activity cannot be recorded (CUPTI missing, wrong version, no
// driver, another tool holding CUPTI and which one).
//
// This class is the collector's CUPTI seam: every call into libcupti goes
// through it (tests load a stand-in libcupti the same way, fake_cupti.cc).
//
// Thread safety: load/start/stop/flush/takeDroppedRecords/decodeBuffer may be
// called from any thread, one thread at a time: the collector hands the
// session from thread to thread instead of locking it (collector_impl.h).
// Callers must hold no lock of their own across these calls: each enters
// CUPTI, which takes its internal locks and may wait for its worker thread
// to run the buffer-completed callback (cuptiActivityFlushAll "is a blocking
// call" that delivers buffers through that callback, cupti_activity.h), so a
// caller's lock that any CUPTI-called path also takes would deadlock. The
// callbacks CUPTI calls from here take no lock (buffer_pool.h; the timestamp
// callback only reads CLOCK_REALTIME).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "collector/activity_types.h"
#include "collector/buffer_pool.h"
#include "base/result.h"

namespace damscope::collector {

class CounterSession;

class CuptiSession {
 public:
  // Loads libcupti and checks that its major version is the one this build
  // decodes (CUPTI 13).
  static Result<std::unique_ptr<CuptiSession>> load(const std::string& explicit_path);
  ~CuptiSession();

  // Subscribes (claims CUPTI), registers the buffer callbacks serving
  // buffers from `pool`, selects CLOCK_REALTIME timestamps and OS thread ids,
  // and enables the activity kinds. Kinds other than kernels that the device
  // refuses are listed in unavailableKinds() and do not fail the start.
  // With `counters`, CUPTI also calls it back at the entry and exit of every
  // kernel launch call (CounterSession::launchCallbacks); when those
  // callbacks cannot be enabled, countersError() says why and tracing goes
  // on without them. `counters` must outlive the subscription.
  Status start(BufferPool* pool, CounterSession* counters = nullptr);
  // Disables the kinds, forces out every buffer, reads the dropped-record
  // count one last time (kept for takeDroppedRecords) and unsubscribes.
  Status stop();
  bool started() const { return subscriber_ != nullptr; }

  // Asks CUPTI to complete buffers whose records are all complete (forced:
  // every buffer). Completed buffers arrive in the pool.
  void flush(bool forced);
  // Records CUPTI dropped since the last call (cuptiActivityGetNumDroppedRecords),
  // including those stop() read last; 0 when nothing is left to read.
  int64_t takeDroppedRecords();
  // Decodes every record of a completed buffer with cuptiActivityGetNextRecord.
  // Returns the number of records; `unreadable` counts stops on records
  // CUPTI reports as invalid or incomplete.
  size_t decodeBuffer(uint8_t* buffer, size_t valid_bytes, ActivitySink& sink, int64_t* unreadable);

  // Added to CUPTI timestamps to reach CLOCK_REALTIME: 0 when CUPTI uses our
  // timestamp callback (the normal case), else measured at start.
  int64_t clockOffsetNs() const { return clock_offset_ns_; }
  const char* clockSource() const { return clock_source_; }
  uint32_t version() const { return version_; }
  const std::string& libraryPath() const { return library_path_; }
  const std::vector<std::string>& unavailableKinds() const { return unavailable_kinds_; }
  // Why the launch callbacks for counters could not be enabled ("" if they were).
  const std::string& countersError() const { return counters_error_; }
  // The dlopen handle of libcupti (the counter session resolves its own
  // functions in the same library: one CUPTI per process).
  void* library() const { return library_; }

  struct Api;  // libcupti's functions, resolved with dlsym (cupti_session.cc)

 private:
  CuptiSession() = default;
  int64_t readDroppedRecords();

  void* library_ = nullptr;
  std::unique_ptr<Api> api_;
  std::string library_path_;
  uint32_t version_ = 0;
  void* subscriber_ = nullptr;  // CUpti_SubscriberHandle
  int64_t clock_offset_ns_ = 0;
  const char* clock_source_ = "timestamp_callback";
  std::vector<std::string> unavailable_kinds_;
  std::string counters_error_;
  std::vector<int> enabled_kinds_;
  int64_t dropped_at_stop_ = 0;
};

}  // namespace damscope::collector
