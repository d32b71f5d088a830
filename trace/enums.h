// The small closed vocabularies of the trace store. In memory they are one-byte
// enums; in SQLite they are stored as their text names so that the database
// reads well in any SQL shell (docs/trace-format.md lists every value).
// Each enum is declared once as an X-macro list; the names follow the words
// users know from CUPTI and Nsight Systems.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace damscope {

// Direction of a memory copy (CUpti_ActivityMemcpyKind, cupti_activity.h).
#define DAMSCOPE_COPY_KINDS(X) \
  X(kUnknown, "unknown")       \
  X(kHtoD, "HtoD")             \
  X(kDtoH, "DtoH")             \
  X(kHtoA, "HtoA")             \
  X(kAtoH, "AtoH")             \
  X(kAtoA, "AtoA")             \
  X(kAtoD, "AtoD")             \
  X(kDtoA, "DtoA")             \
  X(kDtoD, "DtoD")             \
  X(kHtoH, "HtoH")             \
  X(kPtoP, "PtoP")

// Kind of memory at either end of a copy or under a memset
// (CUpti_ActivityMemoryKind, cupti_activity.h).
#define DAMSCOPE_MEMORY_KINDS(X)    \
  X(kUnknown, "unknown")            \
  X(kPageable, "pageable")          \
  X(kPinned, "pinned")              \
  X(kDevice, "device")              \
  X(kArray, "array")                \
  X(kManaged, "managed")            \
  X(kDeviceStatic, "device_static") \
  X(kManagedStatic, "managed_static")

// Which CUDA (or HIP) API layer a host call belongs to.
#define DAMSCOPE_API_KINDS(X) \
  X(kRuntime, "runtime")      \
  X(kDriver, "driver")

// What a synchronization waited for (CUpti_ActivitySynchronizationType).
#define DAMSCOPE_SYNC_KINDS(X)                \
  X(kUnknown, "unknown")                      \
  X(kEventSynchronize, "event_synchronize")   \
  X(kStreamWaitEvent, "stream_wait_event")    \
  X(kStreamSynchronize, "stream_synchronize") \
  X(kContextSynchronize, "context_synchronize")

#define DAMSCOPE_DEVICE_KINDS(X) \
  X(kGpu, "gpu")                 \
  X(kCpu, "cpu")

// Where a FLOP or byte count came from: hardware counters, the workload's own
// annotation, or an estimate from shapes.
#define DAMSCOPE_METRIC_SOURCES(X) \
  X(kMeasured, "measured")         \
  X(kAnnotated, "annotated")       \
  X(kEstimated, "estimated")

#define DAMSCOPE_ENUM_VALUE(value, text) value,
enum class CopyKind : uint8_t { DAMSCOPE_COPY_KINDS(DAMSCOPE_ENUM_VALUE) };
enum class MemoryKind : uint8_t { DAMSCOPE_MEMORY_KINDS(DAMSCOPE_ENUM_VALUE) };
enum class ApiKind : uint8_t { DAMSCOPE_API_KINDS(DAMSCOPE_ENUM_VALUE) };
enum class SyncKind : uint8_t { DAMSCOPE_SYNC_KINDS(DAMSCOPE_ENUM_VALUE) };
enum class DeviceKind : uint8_t { DAMSCOPE_DEVICE_KINDS(DAMSCOPE_ENUM_VALUE) };
enum class MetricSource : uint8_t { DAMSCOPE_METRIC_SOURCES(DAMSCOPE_ENUM_VALUE) };
#undef DAMSCOPE_ENUM_VALUE

std::string_view toText(CopyKind v);
std::string_view toText(MemoryKind v);
std::string_view toText(ApiKind v);
std::string_view toText(SyncKind v);
std::string_view toText(DeviceKind v);
std::string_view toText(MetricSource v);

// Parse the stored text back; std::nullopt for a name this version does not know.
template <typename E>
std::optional<E> enumFromText(std::string_view text);

// CUPTI's numeric values for the same enums, used by importers of formats that
// store the raw CUPTI numbers (Nsight Systems exports, the collector).
CopyKind copyKindFromCupti(int64_t value);
MemoryKind memoryKindFromCupti(int64_t value);
SyncKind syncKindFromCupti(int64_t value);

}  // namespace damscope
