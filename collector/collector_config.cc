// The collector's settings from DAMSCOPE_* variables: see collector_config.h.
#include "collector/collector_config.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace damscope::collector {
namespace {

Error badValue(const char* name, const char* value, const char* expected) {
  return Error(std::string(name) + "=" + value + ": expected " + expected);
}

Status readDouble(const GetEnv& getenv, const char* name, double min, double max, double* out) {
  const char* value = getenv(name);
  if (!value || !*value) return okStatus();
  char* end = nullptr;
  errno = 0;
  const double parsed = std::strtod(value, &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(parsed) || parsed < min || parsed > max) {
    char expected[64];
    std::snprintf(expected, sizeof(expected), "a number from %g to %g", min, max);
    return badValue(name, value, expected);
  }
  *out = parsed;
  return okStatus();
}

Status readSeconds(const GetEnv& getenv, const char* name, int64_t* out_ns) {
  double seconds = static_cast<double>(*out_ns) / 1e9;
  DAMSCOPE_RETURN_IF_ERROR(readDouble(getenv, name, 0, kMaxWindowSeconds, &seconds));
  Result<int64_t> ns = windowSecondsToNs(name, seconds);
  if (!ns.ok()) return ns.error();
  *out_ns = ns.value();
  return okStatus();
}

Status readInt(const GetEnv& getenv, const char* name, int64_t min, int64_t max, int64_t* out) {
  const char* value = getenv(name);
  if (!value || !*value) return okStatus();
  char* end = nullptr;
  errno = 0;
  const long long parsed = std::strtoll(value, &end, 10);
  if (errno != 0 || *end != '\0' || parsed < min || parsed > max) {
    return badValue(
        name, value,
        ("an integer from " + std::to_string(min) + " to " + std::to_string(max)).c_str());
  }
  *out = parsed;
  return okStatus();
}

std::string formatSeconds(int64_t ns) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", static_cast<double>(ns) / 1e9);
  return text;
}

}  // namespace

Result<int64_t> windowSecondsToNs(const std::string& option, double seconds) {
  if (!std::isfinite(seconds)) return Error(option + ": must be a finite number of seconds");
  if (seconds < 0) return Error(option + ": must be a number of seconds >= 0");
  if (seconds > kMaxWindowSeconds) {
    return Error(option + ": at most 10000000 seconds (about 115 days)");
  }
  // In range, so the product is below 1e16 and llround cannot overflow.
  const int64_t ns = std::llround(seconds * 1e9);
  if (seconds > 0 && ns == 0) {
    return Error(option + ": too small: 0 (no limit) or at least 1 ns (1e-9 s)");
  }
  return ns;
}

Result<CollectorConfig> configFromEnvironment(const GetEnv& getenv) {
  CollectorConfig c;
  if (const char* v = getenv("DAMSCOPE_OUTPUT"); v && *v) c.output = v;
  if (const char* v = getenv("DAMSCOPE_ON_DEMAND"); v && *v) {
    const std::string_view s(v);
    if (s != "0" && s != "1") return badValue("DAMSCOPE_ON_DEMAND", v, "0 or 1");
    c.on_demand = s == "1";
  }
  DAMSCOPE_RETURN_IF_ERROR(readInt(getenv, "DAMSCOPE_START_NS", 0, int64_t{1} << 62, &c.start_ns));
  DAMSCOPE_RETURN_IF_ERROR(readSeconds(getenv, "DAMSCOPE_DELAY_S", &c.delay_ns));
  DAMSCOPE_RETURN_IF_ERROR(readSeconds(getenv, "DAMSCOPE_DURATION_S", &c.duration_ns));
  DAMSCOPE_RETURN_IF_ERROR(readDouble(getenv, "DAMSCOPE_SAMPLE_HZ", 0, 10000, &c.sample_hz));
  int64_t buffer_mb = static_cast<int64_t>(c.buffer_bytes >> 20);
  DAMSCOPE_RETURN_IF_ERROR(readInt(getenv, "DAMSCOPE_BUFFER_MB", 1, 1024, &buffer_mb));
  c.buffer_bytes = static_cast<size_t>(buffer_mb) << 20;
  auto buffers = static_cast<int64_t>(c.buffer_count);
  DAMSCOPE_RETURN_IF_ERROR(readInt(getenv, "DAMSCOPE_BUFFERS", 2, 4096, &buffers));
  c.buffer_count = static_cast<size_t>(buffers);
  auto ring_kb = static_cast<int64_t>(c.nvtx_ring_bytes >> 10);
  DAMSCOPE_RETURN_IF_ERROR(readInt(getenv, "DAMSCOPE_NVTX_RING_KB", 16, 1 << 20, &ring_kb));
  c.nvtx_ring_bytes = static_cast<size_t>(ring_kb) << 10;
  int64_t max_mb = c.max_file_bytes >> 20;
  DAMSCOPE_RETURN_IF_ERROR(readInt(getenv, "DAMSCOPE_MAX_SIZE_MB", 0, int64_t{1} << 30, &max_mb));
  c.max_file_bytes = max_mb << 20;
  if (const char* v = getenv("DAMSCOPE_CONTROL_DIR"); v && *v) c.control_dir = v;
  if (const char* v = getenv("DAMSCOPE_CUPTI_PATH"); v && *v) c.cupti_path = v;
  if (const char* v = getenv("DAMSCOPE_COUNTERS"); v && *v) {
    Result<CounterSelection> counters = parseCounterList(v);
    if (!counters.ok()) {
      return Error(std::string("DAMSCOPE_COUNTERS=") + v + ": " + counters.error().message());
    }
    c.counters = counters.value();
  }
  return c;
}

std::vector<std::pair<std::string, std::string>> toEnvironment(const CollectorConfig& c) {
  std::vector<std::pair<std::string, std::string>> env = {
      {"DAMSCOPE_OUTPUT", c.output},
      {"DAMSCOPE_ON_DEMAND", c.on_demand ? "1" : "0"},
      {"DAMSCOPE_START_NS", std::to_string(c.start_ns)},
      {"DAMSCOPE_DELAY_S", formatSeconds(c.delay_ns)},
      {"DAMSCOPE_DURATION_S", formatSeconds(c.duration_ns)},
      {"DAMSCOPE_SAMPLE_HZ", formatSeconds(static_cast<int64_t>(c.sample_hz * 1e9))},
      {"DAMSCOPE_BUFFER_MB", std::to_string(c.buffer_bytes >> 20)},
      {"DAMSCOPE_BUFFERS", std::to_string(c.buffer_count)},
      {"DAMSCOPE_NVTX_RING_KB", std::to_string(c.nvtx_ring_bytes >> 10)},
      {"DAMSCOPE_MAX_SIZE_MB", std::to_string(c.max_file_bytes >> 20)},
  };
  if (!c.control_dir.empty()) env.emplace_back("DAMSCOPE_CONTROL_DIR", c.control_dir);
  if (!c.cupti_path.empty()) env.emplace_back("DAMSCOPE_CUPTI_PATH", c.cupti_path);
  env.emplace_back("DAMSCOPE_COUNTERS", counterListText(c.counters));
  return env;
}

}  // namespace damscope::collector
