// Decoding of CUPTI activity records into the neutral model (activity_types.h).
//
// This header carries no CUPTI type: records are passed as `const void*`
// pointing at a CUpti_Activity. The implementation is the only file that
// reads CUPTI record structs (CUPTI 13: CUpti_ActivityKernel10, Memcpy6,
// MemcpyPtoP4, Memset4, API, Synchronization2, ExternalCorrelation,
// Overhead3, Device5, Context3).
//
// Two ways to walk a buffer of records:
// - in the injected library, CUPTI's own cuptiActivityGetNextRecord (see
//   cupti_session.cc), which knows every kind;
// - PackedRecordWalker below, which needs no libcupti and is what tests and
//   benchmarks use on buffers they build. It relies on how CUPTI packs a
//   buffer: records back to back, each starting with its CUpti_ActivityKind
//   and occupying sizeof() of its record struct (the structs are declared
//   packed and 8-byte aligned, cupti_common.h PACKED_ALIGNMENT). A test checks
//   that cuptiActivityGetNextRecord walks the same buffers the same way.
#pragma once

#include <cstddef>
#include <cstdint>

#include "collector/activity_types.h"

namespace damscope::collector {

// Decodes one record and calls the matching sink method (onUnknownKind for a
// kind this decoder does not read). Never throws.
void decodeActivityRecord(const void* record, ActivitySink& sink) noexcept;

// The CUpti_ActivityKind of a record.
uint32_t activityRecordKind(const void* record) noexcept;

// The size a record of `kind` occupies in a CUPTI 13 buffer; 0 for a kind
// this build does not know (the walker cannot step over it).
size_t packedRecordSize(uint32_t kind) noexcept;

// Walks the records of a packed buffer without libcupti.
class PackedRecordWalker {
 public:
  PackedRecordWalker(const uint8_t* buffer, size_t valid_bytes)
      : buffer_(buffer), valid_bytes_(valid_bytes) {}

  // The next record, or nullptr at the end of the valid bytes or at a record
  // the walker cannot size (then stoppedEarly() is true and the remaining
  // bytes are unreadable).
  const void* next() noexcept;
  bool stoppedEarly() const { return stopped_early_; }
  size_t remainingBytes() const { return valid_bytes_ - offset_; }

 private:
  const uint8_t* buffer_;
  size_t valid_bytes_;
  size_t offset_ = 0;
  bool stopped_early_ = false;
};

// Decodes every record of a packed buffer with PackedRecordWalker. Returns
// the number of records decoded; `unreadable_bytes` receives what followed a
// record of unknown size (reported to the sink as one unknown record).
size_t decodePackedBuffer(const uint8_t* buffer, size_t valid_bytes, ActivitySink& sink,
                          size_t* unreadable_bytes = nullptr) noexcept;

// "cupti_buffer_flush", "driver_compiler", ...: a stable name per
// CUpti_ActivityOverheadKind; nullptr for kinds newer than this build.
const char* overheadKindName(uint32_t overhead_kind) noexcept;

}  // namespace damscope::collector
