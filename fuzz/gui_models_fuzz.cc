// libFuzzer target: the GUI's time arithmetic on extreme times (issue 32 §2).
// The input is text, one item a line, so that seeds read as what they test:
//   width PX                       the view's width in pixels
//   kernel|memcpy|call|range TS DUR [NAME]   an event; times in ns, placed
//                                  inside the trace range (±2^62 ns, as the
//                                  importers keep them) by reduction, so any
//                                  number reaches an extreme
//   zoom FACTOR X | pan DX | fit T0 T1 | window T0 T1   view operations
// From the events it builds the timeline's rows (timeline_rows.h), their
// level-of-detail aggregates and queries (level_of_detail.h), the time scale
// fitted to them and moved by the operations (time_scale.h), and the
// statistics tables and models of every kind (operation_stats_model.h).
// Whatever the times: the levels end, keep every event and its busy time (a
// sum that saturates, base/duration_sum.h); the view stays inside the trace
// range; every share is within [0, 100] %.
#include <QCoreApplication>
#include <QModelIndex>
#include <QString>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/pipeline/pipeline.h"
#include "base/duration_sum.h"
#include "fuzz/fuzz_checks.h"
#include "gui/models/operation_stats_model.h"
#include "gui/timeline/level_of_detail.h"
#include "gui/timeline/time_scale.h"
#include "gui/timeline/timeline_rows.h"
#include "trace/tables.h"

namespace damscope {
namespace {

// Bounds that keep each input fast.
constexpr size_t kMaxEvents = 256;
constexpr size_t kMaxOperations = 32;
constexpr int kMaxWidthPx = 20'000;

// Any int64 as a start inside the trace range, and any as a duration that
// ends inside it.
int64_t startOf(int64_t raw) {
  return raw % kTimeLimitNs;
}
int64_t durationOf(int64_t start, int64_t raw) {
  const auto room = static_cast<uint64_t>(kTimeLimitNs - start);  // >= 1
  return static_cast<int64_t>(static_cast<uint64_t>(raw) % room);
}

struct Operation {
  std::string kind;
  double a = 0, b = 0;
  int64_t t0 = 0, t1 = 0;
};

struct Input {
  TraceTables tables;
  int width = 1000;
  std::vector<Operation> operations;
  std::optional<TimeWindow> window;
};

Input parse(const std::string& text) {
  Input in;
  std::istringstream lines(text);
  std::string line;
  size_t events = 0;
  while (std::getline(lines, line)) {
    std::istringstream f(line);
    std::string kind;
    if (!(f >> kind)) continue;
    if (kind == "width") {
      int px = 0;
      if (f >> px) in.width = std::clamp(px, 1, kMaxWidthPx);
      continue;
    }
    if (kind == "zoom" || kind == "pan" || kind == "fit") {
      Operation op{kind};
      const bool ok = kind == "fit" ? static_cast<bool>(f >> op.t0 >> op.t1)
                                    : static_cast<bool>(f >> op.a) && (kind == "pan" || f >> op.b);
      if (ok && in.operations.size() < kMaxOperations) in.operations.push_back(op);
      continue;
    }
    if (kind == "window") {
      TimeWindow w;
      if (f >> w.start >> w.end) in.window = w;
      continue;
    }
    int64_t raw_ts = 0, raw_dur = 0;
    if (!(f >> raw_ts >> raw_dur) || events >= kMaxEvents) continue;
    std::string name = "volta_sgemm_128x64_nn";
    f >> name;
    const int64_t ts = startOf(raw_ts);
    const int64_t dur = durationOf(ts, raw_dur);
    const StringId id = in.tables.strings.intern(name);
    const int64_t stream = 7 + static_cast<int64_t>(events % 3);
    if (kind == "kernel") {
      KernelTable::Row k;
      k.ts = ts, k.dur = dur, k.device = 0, k.stream = stream, k.correlation_id = kNullInt;
      k.name = id;
      k.grid_x = k.grid_y = k.grid_z = 1, k.block_x = 256, k.block_y = k.block_z = 1;
      in.tables.kernels.append(k);
    } else if (kind == "memcpy") {
      MemcpyTable::Row m;
      m.ts = ts, m.dur = dur, m.device = 0, m.stream = stream, m.correlation_id = kNullInt;
      m.copy_kind = CopyKind::kHtoD, m.src_kind = MemoryKind::kPinned;
      m.dst_kind = MemoryKind::kDevice, m.bytes = 1 << 20;
      in.tables.memcpys.append(m);
    } else if (kind == "call") {
      ApiCallTable::Row a;
      a.ts = ts, a.dur = dur, a.thread_id = 0, a.api = ApiKind::kRuntime, a.name = id;
      a.correlation_id = static_cast<int64_t>(events) + 1;
      in.tables.api_calls.append(a);
    } else if (kind == "range") {
      RangeTable::Row r;
      r.ts = ts, r.dur = dur, r.thread_id = 0, r.name = id;
      r.category = in.tables.strings.intern("cpu_op");
      in.tables.ranges.append(r);
    } else {
      continue;
    }
    ++events;
  }
  return in;
}

void checkView(const TimeScale& s, const char* after) {
  if (s.start() <= -kTimeLimitNs || s.end() >= kTimeLimitNs || s.end() < s.start()) {
    fuzz::fail(std::string("the view left the trace range after ") + after);
  }
  if (!(s.nsPerPx() >= TimeScale::kMinNsPerPx) || !std::isfinite(s.nsPerPx())) {
    fuzz::fail(std::string("the scale is out of range after ") + after);
  }
  const auto ticks = s.ticks(s.start());
  // About one tick per kTickSpacingPx, and never a runaway loop.
  if (ticks.size() > static_cast<size_t>(s.width()) / 50 + 4) {
    fuzz::fail(std::string("too many ticks after ") + after);
  }
  for (size_t i = 1; i < ticks.size(); ++i) {
    if (ticks[i].ts <= ticks[i - 1].ts) fuzz::fail("ticks out of order");
  }
}

void checkLevels(const TimelineRows& rows, const LevelOfDetail& lod, const TimeScale& scale) {
  for (size_t l = 0; l < rows.lanes.size(); ++l) {
    const Lane& lane = rows.lanes[l];
    const int lane_index = static_cast<int>(l);
    if (lane.kind == LaneKind::kCounter || lane.kind == LaneKind::kSkew) continue;
    int64_t busy = 0;
    for (const LaneEvent& e : lane.events) accumulateDuration(busy, e.end - e.start);
    // kBaseWidthNs * kGrowth^29 = kMaxWidthNs: at most 30 levels and level 0.
    if (lod.levelCount(lane_index) > 31) fuzz::fail("more levels than the widths allow");
    for (int k = 1; k < lod.levelCount(lane_index); ++k) {
      if (lod.levelWidth(lane_index, k) > LevelOfDetail::kMaxWidthNs) {
        fuzz::fail("a level wider than kMaxWidthNs");
      }
      int64_t count = 0, level_busy = 0;
      for (const LodItem& item : lod.levelItems(lane_index, k)) {
        count += item.count;
        accumulateDuration(level_busy, item.busy_ns);
      }
      if (count != static_cast<int64_t>(lane.events.size()) || level_busy != busy) {
        fuzz::fail("a level lost events or busy time");
      }
    }
    std::vector<LodItem> out;
    lod.query(lane_index, scale.start(), scale.end(), scale.nsPerPx(), out);
    for (const LodItem& item : out) {
      if (item.busy_ns < 0 || item.end < item.start) fuzz::fail("a queried item out of range");
    }
  }
}

void checkTable(const OperationTable& table) {
  for (const OperationRow& row : table.rows) {
    if (row.total_ns < 0 || row.min_ns < 0 || row.max_ns < row.min_ns) {
      fuzz::fail("a statistics row's times are out of range: " + row.name);
    }
    // A little slack for the division's rounding.
    if (!(row.pct >= 0 && row.pct <= 100 + 1e-9)) {
      fuzz::fail("a share out of [0, 100] %: " + row.name + " " + std::to_string(row.pct));
    }
    if (!(row.average_ns >= 0) || !(row.median_ns >= 0)) fuzz::fail("a negative mean or median");
  }
}

}  // namespace
}  // namespace damscope

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace damscope;
  // The models are QObjects and format through QLocale: an application object
  // (no platform: QtCore only) as the GUI has one.
  static int argc = 1;
  static char name[] = "gui_models_fuzz";
  static char* argv[] = {name, nullptr};
  static QCoreApplication app(argc, argv);

  Input in = parse(std::string(reinterpret_cast<const char*>(data), size));
  AnalysedRun run;
  run.tables.push_back(std::move(in.tables));

  const TimelineRows rows = buildTimelineRows(run, 0);
  TimeScale scale;
  scale.setWidth(in.width);
  scale.setLimits(rows.start, rows.end);
  scale.fitAll();
  checkView(scale, "fitAll");
  for (const Operation& op : in.operations) {
    if (op.kind == "zoom") scale.zoom(op.a, op.b);
    if (op.kind == "pan") scale.pan(op.a);
    if (op.kind == "fit") scale.fit(op.t0, op.t1);
    checkView(scale, op.kind.c_str());
  }
  const LevelOfDetail lod(rows);
  checkLevels(rows, lod, scale);

  for (const OperationKind kind : {OperationKind::kKernels, OperationKind::kCopies,
                                   OperationKind::kApiCalls, OperationKind::kOps}) {
    for (const auto& window : {std::optional<TimeWindow>{}, in.window}) {
      OperationTable table = operationTable(run, 0, kind, window);
      checkTable(table);
      OperationStatsModel model(kind);
      model.setTable(std::move(table), QStringLiteral("the fuzzed trace"));
      for (int r = 0; r < model.rowCount(); ++r) {
        for (int c = 0; c < model.columnCount(); ++c) {
          for (const int role :
               {static_cast<int>(Qt::DisplayRole), static_cast<int>(Qt::ToolTipRole)}) {
            (void)model.data(model.index(r, c), role);
          }
        }
      }
    }
  }
  return 0;
}
