// The collector inside a recorded process: one per process, created by the
// first injection entry point (inject_entry.cc) and alive until exit.
//
// It owns the writer thread, which does all the work that must not happen on
// application threads: draining NVTX rings and CUPTI buffers, building rows,
// committing them to the capture's file about once a second, and opening and
// closing capture windows. Application threads only touch lock-free rings
// and the buffer pool.
//
// Capture windows (each its own file, output_naming.h):
// - `damscope record` without --on-demand: one window, from the start (or
//   after --delay) until --duration ends or the process exits;
// - with --on-demand: none until `damscope attach` asks, over the control
//   socket (control_channel.h), for a window of a duration or a number of
//   steps; any number of windows, one at a time.
//
// Never hurts the target: every failure (no CUPTI, no GPU, unwritable
// output, full disk, an exception in the writer) is said once on stderr and
// leaves the collector inert or the window closed, and the program runs on
// with its own exit code. SIGINT/SIGTERM (when the program has not taken
// them) and exit() finish the open window before the process ends.
#pragma once

namespace damscope::collector {

class CollectorImpl;

class Collector {
 public:
  // The process's collector, created (configured from DAMSCOPE_* variables)
  // on the first call. Thread-safe; never throws; nullptr in a forked child
  // or if even the setup failed (then damscope is inert in this process).
  static Collector* instance() noexcept;

  // CUDA is initializing in this process (InitializeInjection, called by the
  // driver inside cuInit): start tracing GPU activity if a window is open.
  void onCudaInitialized() noexcept;

 private:
  explicit Collector(CollectorImpl* impl) : impl_(impl) {}
  CollectorImpl* impl_;
};

}  // namespace damscope::collector
