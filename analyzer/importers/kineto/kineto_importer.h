// Importer for PyTorch profiler (Kineto) Chrome-trace JSON.
//
// Reads both the 2021 format (categories "Kernel", "Memcpy", "Memset",
// "Runtime", "Operator", "DataLoader", GPU threads named "stream 7") and the
// current one (kernel, gpu_memcpy, gpu_memset, cuda_runtime, cuda_driver,
// cpu_op, user_annotation, gpu_user_annotation, cuda_sync, python_function,
// cuda_profiler_range; ac2g flows), microsecond or nanosecond-resolution
// timestamps, `baseTimeNanoseconds`, `deviceProperties`, `distributedInfo`,
// NCCL collective arguments, `flops` arguments, and ROCm traces.
//
// Times become int64 ns since the Unix epoch (Kineto's clock is the system
// clock). Kernels, copies and launches keep their correlation ids, so a
// kernel finds its launch call and, through external_id, its framework op.
#pragma once

#include <cstddef>
#include <string>

#include "analyzer/importers/io/document_text.h"
#include "base/progress.h"
#include "base/result.h"
#include "trace/tables.h"

namespace damscope {

// A document larger than this is parsed in windows of about this many bytes
// of text, cut after line breaks (kineto_reader.cc): the parser's index then
// takes a few MiB instead of four bytes per structural character of the
// document (38 MB for v100_rank1's 54 MB), and the text it reads back is
// still in cache (1 MiB of Kineto JSON has about 180 K structural characters:
// 0.7 MB of index). A document without line breaks is parsed whole. On
// v100_rank1 the import's peak RSS went from 114 to 77 MB (import_bench
// BM_ImportToTables under /usr/bin/time).
constexpr size_t kKinetoWindowBytes = 1 << 20;

// Parses the JSON text in `json`. The string must have at least
// kJsonPadding bytes of spare capacity after its content (readWholeFile and
// gunzip reserve it); `source_name` names the input in error messages.
// Reports the fraction done to `progress` (by position in the document) and
// returns cancelledError() when it is cancelled. `window_bytes`: see
// kKinetoWindowBytes (0 parses the document whole; tests use small windows).
Result<TraceTables> importKinetoJson(std::string& json, const std::string& source_name,
                                     const Progress& progress = {},
                                     size_t window_bytes = kKinetoWindowBytes);

// As importKinetoJson, from a text that may still be arriving: a windowed
// read parses what is there while the rest comes (StreamingFile). The text
// is followed by kJsonPadding readable bytes. When the text cannot come, its
// error is the import's.
Result<TraceTables> importKinetoText(DocumentText& text, const std::string& source_name,
                                     const Progress& progress = {},
                                     size_t window_bytes = kKinetoWindowBytes);

// Spare capacity the JSON parser needs after the text (simdjson's padding).
extern const size_t kJsonPadding;

}  // namespace damscope
