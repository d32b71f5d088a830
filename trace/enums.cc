// Text names of the trace store's enums, and the mapping from CUPTI's numbers.
#include "trace/enums.h"

#include <array>

namespace damscope {
namespace {

#define DAMSCOPE_ENUM_TEXT(value, text) std::string_view(text),
constexpr std::array kCopyKindText = {DAMSCOPE_COPY_KINDS(DAMSCOPE_ENUM_TEXT)};
constexpr std::array kMemoryKindText = {DAMSCOPE_MEMORY_KINDS(DAMSCOPE_ENUM_TEXT)};
constexpr std::array kApiKindText = {DAMSCOPE_API_KINDS(DAMSCOPE_ENUM_TEXT)};
constexpr std::array kSyncKindText = {DAMSCOPE_SYNC_KINDS(DAMSCOPE_ENUM_TEXT)};
constexpr std::array kDeviceKindText = {DAMSCOPE_DEVICE_KINDS(DAMSCOPE_ENUM_TEXT)};
constexpr std::array kMetricSourceText = {DAMSCOPE_METRIC_SOURCES(DAMSCOPE_ENUM_TEXT)};
#undef DAMSCOPE_ENUM_TEXT

template <typename E, size_t N>
std::optional<E> lookup(const std::array<std::string_view, N>& names, std::string_view text) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == text) return static_cast<E>(i);
  }
  return std::nullopt;
}

// The damscope enums list CUPTI's values in CUPTI's order, starting at 0, so a
// CUPTI number maps by position; anything newer than this build is "unknown".
template <typename E, size_t N>
E fromCuptiNumber(const std::array<std::string_view, N>&, int64_t value) {
  if (value < 0 || value >= static_cast<int64_t>(N)) return static_cast<E>(0);
  return static_cast<E>(value);
}

}  // namespace

std::string_view toText(CopyKind v) {
  return kCopyKindText[static_cast<size_t>(v)];
}
std::string_view toText(MemoryKind v) {
  return kMemoryKindText[static_cast<size_t>(v)];
}
std::string_view toText(ApiKind v) {
  return kApiKindText[static_cast<size_t>(v)];
}
std::string_view toText(SyncKind v) {
  return kSyncKindText[static_cast<size_t>(v)];
}
std::string_view toText(DeviceKind v) {
  return kDeviceKindText[static_cast<size_t>(v)];
}
std::string_view toText(MetricSource v) {
  return kMetricSourceText[static_cast<size_t>(v)];
}

template <>
std::optional<CopyKind> enumFromText(std::string_view text) {
  return lookup<CopyKind>(kCopyKindText, text);
}
template <>
std::optional<MemoryKind> enumFromText(std::string_view text) {
  return lookup<MemoryKind>(kMemoryKindText, text);
}
template <>
std::optional<ApiKind> enumFromText(std::string_view text) {
  return lookup<ApiKind>(kApiKindText, text);
}
template <>
std::optional<SyncKind> enumFromText(std::string_view text) {
  return lookup<SyncKind>(kSyncKindText, text);
}
template <>
std::optional<DeviceKind> enumFromText(std::string_view text) {
  return lookup<DeviceKind>(kDeviceKindText, text);
}
template <>
std::optional<MetricSource> enumFromText(std::string_view text) {
  return lookup<MetricSource>(kMetricSourceText, text);
}

CopyKind copyKindFromCupti(int64_t value) {
  return fromCuptiNumber<CopyKind>(kCopyKindText, value);
}
MemoryKind memoryKindFromCupti(int64_t value) {
  return fromCuptiNumber<MemoryKind>(kMemoryKindText, value);
}
SyncKind syncKindFromCupti(int64_t value) {
  return fromCuptiNumber<SyncKind>(kSyncKindText, value);
}

}  // namespace damscope
