// The Chrome trace export (`damscope export --chrome`): one rank's events and
// its analysis as a Chrome trace-event JSON document, the format Perfetto UI
// (ui.perfetto.dev) and chrome://tracing open. Reference: "Trace Event
// Format", Nick Duca, David Griffin, Google, 2016-, the public Google document
// docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU
// (its "JSON Object Format").
//
// What goes where (docs/export-and-diff.md shows it with an example):
//   host processes   one per processes row; a track per host thread, named
//                    as the trace names it; CUDA runtime/driver calls, NVTX
//                    ranges, framework ops and other host ranges as complete
//                    ("X") events, nested by time (their depth is in args)
//   GPU processes    one per device ("GPU 0 (NVIDIA A100...)"), sorted below
//                    the host; a track per stream ("GPU 0 stream 7") with the
//                    kernels, memcpys, memsets, stream syncs and GPU-side
//                    ranges; above the streams the analysis's tracks: "steps"
//                    (on the primary device: the analysed steps, aligned to
//                    their GPU work, with each step's verdict and D·A·M
//                    split) and "GPU N idle gaps" (the device gaps, each named
//                    by its cause, its time per cause in args)
//   flow arrows      launch call -> the kernel, copy or memset it launched:
//                    an "s" event after the call, an "f" event with "bp":"e"
//                    after the GPU operation, both bound to their enclosing
//                    slice; the id is the CUDA correlation id (a CUDA graph
//                    launch has one "s" and an "f" per kernel)
//   counters         "C" events (CPU utilisation, memory), on the GPU's
//                    process for device memory, else on the host process
//   metadata         "M" process_name / process_sort_index / thread_name /
//                    thread_sort_index for every track
// Event names, categories and argument names follow Kineto's (the PyTorch
// profiler's) own Chrome traces ("kernel", "cuda_runtime", "correlation",
// "grid", "External id", ...), so users find what they know and damscope's
// Kineto importer reads an export back.
//
// Times: "ts" and "dur" are microseconds relative to the top-level
// "baseTimeNanoseconds" (the earliest time exported), written exactly from
// the int64 nanoseconds with three decimals ("1234.567"): no double
// arithmetic on the way. Absolute epoch times would need 19 significant
// digits, more than the doubles most viewers parse numbers into hold.
// Perfetto reads "ts" text exactly, and relative values keep "dur" exact for
// any viewer that parses it as a double.
//
// The writer streams: events are formatted straight into a text buffer that
// goes to the sink in chunks, in time order; no document is built. Text in the
// tables and the result is valid UTF-8 (the store guarantees it, base/utf8.h)
// and is escaped as JSON strings. Process and thread ids are the trace's own
// where they fit; GPU tracks get ids above Linux's largest pid (2^22,
// proc(5) /proc/sys/kernel/pid_max), so they meet no host thread's.
#pragma once

#include <cstdint>

#include "analyzer/report/output_sink.h"
#include "analyzer/result/analysis_result.h"
#include "base/progress.h"
#include "base/result.h"
#include "trace/tables.h"

namespace damscope {

constexpr int kChromeTraceExportVersion = 1;

struct ChromeTraceStats {
  int64_t rows = 0;          // trace rows exported (events, counters, steps, gaps)
  int64_t skipped = 0;       // rows without a usable time, counter samples without a value
  int64_t flows = 0;         // launch -> GPU operation arrows
  int64_t json_events = 0;   // every entry of traceEvents, metadata and flows included
  int64_t base_time_ns = 0;  // "baseTimeNanoseconds"
};

// Writes `tables` (one rank) and `result` (its analysis) to `sink`; the sink
// is not closed. Reports progress by rows written; cancelled, it stops with
// cancelledError() and the caller discards the output.
Result<ChromeTraceStats> writeChromeTrace(const TraceTables& tables, const RankResult& result,
                                          OutputSink& sink, const Progress& progress = {});

}  // namespace damscope
