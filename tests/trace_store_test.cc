// The trace store: rows survive a write/read round trip with their nulls,
// enums and strings, streaming appends continue ids, and saveTrace never
// leaves a partial file. (schema_agreement_test checks schema.sql against
// tables.h.)
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/test_support.h"
#include "trace/range_nesting.h"
#include "trace/sqlite_db.h"
#include "trace/table_order.h"
#include "trace/trace_reader.h"
#include "trace/trace_summary.h"
#include "trace/trace_writer.h"

namespace damscope {
namespace {

using testing::TempDir;

TraceTables smallTrace() {
  TraceTables t;
  ProcessTable::Row p;
  p.pid = 4242;
  p.name = t.strings.intern("python");
  p.rank = 3;
  p.world_size = 8;
  p.comm_backend = t.strings.intern("nccl");
  t.processes.append(p);
  t.threads.append({0, 4242, t.strings.intern("main")});

  DeviceTable::Row d;
  d.device = 0;
  d.kind = DeviceKind::kGpu;
  d.name = t.strings.intern("NVIDIA H100");
  d.sm_count = 132;
  d.memory_bandwidth_bytes_per_s = 3.35e12;
  t.devices.append(d);

  KernelTable::Row k;
  k.ts = 1'700'000'000'000'000'123;  // beyond double precision on purpose
  k.dur = 1500;
  k.device = 0;
  k.stream = 7;
  k.correlation_id = 11;
  k.name = t.strings.intern("ampere_sgemm_128x64_nn");
  k.grid_x = 80, k.grid_y = 1, k.grid_z = 1;
  k.block_x = 256, k.block_y = 1, k.block_z = 1;
  k.args = R"({"Collective name":"allreduce"})";
  t.kernels.append(k);

  MemcpyTable::Row m;
  m.ts = 1'700'000'000'000'000'000;
  m.dur = 10;
  m.copy_kind = CopyKind::kHtoD;
  m.src_kind = MemoryKind::kPageable;
  m.dst_kind = MemoryKind::kDevice;
  m.bytes = 4096;
  t.memcpys.append(m);

  ApiCallTable::Row a;
  a.ts = 1'700'000'000'000'000'050;
  a.dur = 20;
  a.thread_id = 0;
  a.api = ApiKind::kRuntime;
  a.name = t.strings.intern("cudaLaunchKernel");
  a.correlation_id = 11;
  t.api_calls.append(a);

  RangeTable::Row r;
  r.ts = 1'700'000'000'000'000'000;
  r.dur = 5000;
  r.thread_id = 0;
  r.category = t.strings.intern("nvtx");
  r.domain = t.strings.intern("damscope");
  r.name = t.strings.intern("step");
  t.ranges.append(r);

  t.setMeta("source_format", "test");
  t.addStat("test.dropped", 2, "records dropped on purpose");
  return t;
}

TEST(TraceStore, RoundTripKeepsValuesNullsEnumsAndStrings) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  const TraceTables written = smallTrace();
  ASSERT_TRUE(saveTrace(written, path, false).ok());

  auto read = readTrace(path);
  ASSERT_TRUE(read.ok()) << read.error().message();
  const TraceTables& t = read.value();
  ASSERT_EQ(t.kernels.size(), 1u);
  EXPECT_EQ(t.kernels.ts[0], 1'700'000'000'000'000'123);
  EXPECT_EQ(t.strings.get(t.kernels.name[0]), "ampere_sgemm_128x64_nn");
  EXPECT_EQ(t.kernels.args[0], R"({"Collective name":"allreduce"})");
  EXPECT_TRUE(isNull(t.kernels.registers_per_thread[0]));
  EXPECT_TRUE(isNull(t.kernels.occupancy_pct[0]));
  EXPECT_TRUE(isNull(t.kernels.external_id[0]));
  ASSERT_EQ(t.memcpys.size(), 1u);
  EXPECT_EQ(t.memcpys.copy_kind[0], CopyKind::kHtoD);
  EXPECT_EQ(t.memcpys.src_kind[0], MemoryKind::kPageable);
  EXPECT_EQ(t.api_calls.api[0], ApiKind::kRuntime);
  EXPECT_EQ(t.strings.get(t.ranges.domain[0]), "damscope");
  EXPECT_EQ(t.processes.rank[0], 3);
  EXPECT_DOUBLE_EQ(t.devices.memory_bandwidth_bytes_per_s[0], 3.35e12);
  EXPECT_EQ(t.getMeta("source_format"), "test");
  EXPECT_EQ(t.getMeta("format"), kTraceStoreFormat);
  EXPECT_EQ(t.getStat("test.dropped"), 2);
}

TEST(TraceStore, LostSpansRoundTripAndAFileWrittenBeforeThemReadsAsHavingNone) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  TraceTables written = smallTrace();
  written.lost_spans.append({1'700'000'000'000'000'000, 500, "test.dropped", 2});
  ASSERT_TRUE(saveTrace(written, path, false).ok());
  {
    auto read = readTrace(path);
    ASSERT_TRUE(read.ok()) << read.error().message();
    ASSERT_EQ(read->lost_spans.size(), 1u);
    EXPECT_EQ(read->lost_spans.ts[0], 1'700'000'000'000'000'000);
    EXPECT_EQ(read->lost_spans.dur[0], 500);
    EXPECT_EQ(read->lost_spans.stat[0], "test.dropped");
    EXPECT_EQ(read->lost_spans.events[0], 2);
  }
  // Schema version 1 files made before the table existed.
  {
    auto db = Database::open(path, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("DROP TABLE lost_spans").ok());
  }
  auto read = readTrace(path);
  ASSERT_TRUE(read.ok()) << read.error().message();
  EXPECT_TRUE(read->lost_spans.empty());
  EXPECT_EQ(read->kernels.size(), 1u);
}

TEST(TraceStore, ALostSpanOutsideTheTimeRangeIsRefused) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(saveTrace(smallTrace(), path, false).ok());
  {
    auto db = Database::open(path, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("INSERT INTO lost_spans VALUES (0, 0, -5, 'test.dropped', 2)").ok());
  }
  auto read = readTrace(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message().find("table lost_spans row 0: dur -5 is negative"),
            std::string::npos)
      << read.error().message();
}

TEST(TraceStore, SaveRefusesToOverwriteUnlessForced) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(saveTrace(smallTrace(), path, false).ok());
  Status again = saveTrace(smallTrace(), path, false);
  ASSERT_FALSE(again.ok());
  // A library message names no CLI flag: the front end adds its own hint.
  EXPECT_EQ(again.error().message(), path + ": output exists");
  EXPECT_TRUE(saveTrace(smallTrace(), path, true).ok());
}

TEST(TraceStore, FailedSaveLeavesNothingBehind) {
  TempDir dir;
  const std::string path = dir.file("no-such-dir/run.db");
  Status status = saveTrace(smallTrace(), path, false);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message().find(path), std::string::npos) << status.error().message();
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(TraceStore, StreamingAppendsContinueIdsAndStrings) {
  TempDir dir;
  const std::string path = dir.file("stream.db");
  auto db = Database::open(path, Database::Mode::kReadWriteCreate);
  ASSERT_TRUE(db.ok());
  auto writer = TraceWriter::create(std::move(db.value()), {WriterOptions::Mode::kStreaming});
  ASSERT_TRUE(writer.ok()) << writer.error().message();

  TraceTables batch;  // one pool across batches, event rows cleared after each
  for (int i = 0; i < 3; ++i) {
    KernelTable::Row k;
    k.ts = 1000 * i;
    k.dur = 10;
    k.name = batch.strings.intern("kernel_" + std::to_string(i % 2));
    batch.kernels.append(k);
    batch.addStat("collector.batches", 1, "batches written");
    ASSERT_TRUE(writer->append(batch).ok());
    batch.kernels.clear();
  }
  ASSERT_TRUE(writer->finish().ok());

  auto read = readTrace(path);
  ASSERT_TRUE(read.ok()) << read.error().message();
  ASSERT_EQ(read->kernels.size(), 3u);
  EXPECT_EQ(read->strings.get(read->kernels.name[2]), "kernel_0");
  EXPECT_EQ(read->strings.get(read->kernels.name[1]), "kernel_1");
  EXPECT_EQ(read->getStat("collector.batches"), 3);
}

TEST(TraceStore, SummaryCountsDevicesStreamsAndSpan) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  ASSERT_TRUE(saveTrace(smallTrace(), path, false).ok());
  auto db = Database::open(path, Database::Mode::kReadOnly);
  ASSERT_TRUE(db.ok());
  auto summary = summarizeTrace(db.value());
  ASSERT_TRUE(summary.ok()) << summary.error().message();
  EXPECT_EQ(summary->rows("kernels"), 1);
  EXPECT_EQ(summary->rows("memcpys"), 1);
  ASSERT_TRUE(summary->has_events);
  EXPECT_EQ(summary->first_ts, 1'700'000'000'000'000'000);
  EXPECT_EQ(summary->last_end, 1'700'000'000'000'005'000);  // the step range ends last
  // The memcpy has no device: it shows as its own (unknown) device entry.
  bool found_gpu0 = false;
  for (const auto& d : summary->devices) {
    if (d.device == 0) {
      found_gpu0 = true;
      EXPECT_EQ(d.kernels, 1);
      EXPECT_EQ(d.streams, std::vector<int64_t>{7});
    }
  }
  EXPECT_TRUE(found_gpu0);
  ASSERT_EQ(summary->processes.size(), 1u);
  EXPECT_EQ(summary->processes[0].rank, 3);
}

TEST(TraceStore, ReaderRejectsForeignDatabase) {
  TempDir dir;
  const std::string path = dir.file("other.db");
  {
    auto db = Database::open(path, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("CREATE TABLE t(x)").ok());
  }
  auto read = readTrace(path);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message().find("not a damscope trace"), std::string::npos);
}

TEST(TableOrder, SortByTimePutsParentsFirstAndReturnsMapping) {
  RangeTable ranges;
  auto add = [&](int64_t ts, int64_t dur) {
    RangeTable::Row r;
    r.ts = ts, r.dur = dur, r.thread_id = 0;
    return ranges.append(r);
  };
  add(50, 10);   // child, listed first
  add(0, 100);   // parent
  add(50, 0);    // mark inside the child
  add(200, 10);  // sibling after the parent ends
  const std::vector<int64_t> old_to_new = sortByTime(ranges);
  EXPECT_EQ(old_to_new, (std::vector<int64_t>{1, 0, 2, 3}));
  computeRangeNesting(ranges);
  EXPECT_EQ(ranges.depth, (std::vector<int32_t>{0, 1, 2, 0}));
  EXPECT_EQ(ranges.parent_id[1], 0);
  EXPECT_EQ(ranges.parent_id[2], 1);
  EXPECT_TRUE(isNull(ranges.parent_id[3]));
}

TEST(RangeNesting, OverlappingRangesGetNoParentAndTimelinesAreSeparate) {
  RangeTable ranges;
  auto add = [&](int64_t ts, int64_t dur, int64_t thread) {
    RangeTable::Row r;
    r.ts = ts, r.dur = dur, r.thread_id = thread;
    ranges.append(r);
  };
  add(0, 100, 0);
  add(10, 20, 1);   // other thread: depth 0
  add(50, 100, 0);  // overlaps the first without being inside it
  computeRangeNesting(ranges);
  EXPECT_EQ(ranges.depth[1], 0);
  EXPECT_TRUE(isNull(ranges.parent_id[1]));
  EXPECT_EQ(ranges.depth[2], 1);
  EXPECT_TRUE(isNull(ranges.parent_id[2]));
}

}  // namespace
}  // namespace damscope
