// Meta and stats helpers of TraceTables; the tables themselves are in tables.h.
#include "trace/tables.h"

namespace damscope {

void TraceTables::setMeta(const std::string& key, const std::string& value) {
  for (size_t i = 0; i < meta.size(); ++i) {
    if (meta.key[i] == key) {
      meta.value[i] = value;
      return;
    }
  }
  meta.append({key, value});
}

std::string TraceTables::getMeta(const std::string& key) const {
  for (size_t i = 0; i < meta.size(); ++i) {
    if (meta.key[i] == key) return meta.value[i];
  }
  return {};
}

int64_t TraceTables::eventCount() const {
  return static_cast<int64_t>(kernels.size() + memcpys.size() + memsets.size() + api_calls.size() +
                              ranges.size() + syncs.size() + counters.size());
}

void TraceTables::addStat(const std::string& name, int64_t delta, const std::string& description) {
  for (size_t i = 0; i < stats.size(); ++i) {
    if (stats.name[i] == name) {
      stats.value[i] += delta;
      return;
    }
  }
  stats.append({name, delta, description});
}

int64_t TraceTables::getStat(const std::string& name) const {
  for (size_t i = 0; i < stats.size(); ++i) {
    if (stats.name[i] == name) return stats.value[i];
  }
  return 0;
}

Status checkEventTimes(const TraceTables& t) {
  Status status;
  t.forEachTable([&](const auto& table) {
    if constexpr (requires { table.ts; }) {
      if (!status.ok()) return;
      for (size_t i = 0; i < table.size(); ++i) {
        const int64_t ts = table.ts[i];
        if (isNull(ts)) continue;
        int64_t end = ts;
        if constexpr (requires { table.dur; }) {
          const int64_t dur = table.dur[i];
          // Within the limit each, so the sum cannot overflow.
          if (!isNull(dur) && isTraceTime(ts) && isTraceTime(dur)) end = ts + dur;
          if (!isNull(dur) && !isTraceTime(dur)) end = dur;
        }
        if constexpr (requires { table.dur; }) {
          // Analyses take an event's end to be at or after its start.
          if (!isNull(table.dur[i]) && table.dur[i] < 0) {
            status = Error(std::string("table ") + table.kSqlName + " row " + std::to_string(i) +
                           ": dur " + std::to_string(table.dur[i]) + " is negative");
            return;
          }
        }
        if (!isTraceTime(ts) || !isTraceTime(end)) {
          status = Error(std::string("table ") + table.kSqlName + " row " + std::to_string(i) +
                         ": ts " + std::to_string(ts) +
                         " (or its end) lies outside the trace's time range (±2^62 ns)");
          return;
        }
      }
    }
  });
  return status;
}

}  // namespace damscope
