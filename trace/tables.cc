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
      auto bad = [&](size_t row, const std::string& what) {
        status = Error(std::string("table ") + table.kSqlName + " row " + std::to_string(row) +
                       ": " + what);
      };
      for (size_t i = 0; i < table.size(); ++i) {
        // NOT NULL in the schema (trace/schema.sql), but a file made by hand
        // need not have been written by that schema.
        const int64_t ts = table.ts[i];
        if (isNull(ts)) return bad(i, "ts is NULL");
        int64_t end = ts;
        if constexpr (requires { table.dur; }) {
          const int64_t dur = table.dur[i];
          if (isNull(dur)) return bad(i, "dur is NULL");
          // Analyses take an event's end to be at or after its start.
          if (dur < 0) return bad(i, "dur " + std::to_string(dur) + " is negative");
          // Within the limit each, so the sum cannot overflow.
          end = isTraceTime(ts) && isTraceTime(dur) ? ts + dur : dur;
        }
        if (!isTraceTime(ts) || !isTraceTime(end)) {
          return bad(i, "ts " + std::to_string(ts) +
                            " (or its end) lies outside the trace's time range (±2^62 ns)");
        }
      }
    }
  });
  return status;
}

}  // namespace damscope
