// TraceWriter::append with row updates: a streaming writer sets cells of rows
// written by earlier batches (an NVTX range's parent, a thread's name) in the
// same transaction as the next batch; a bad table or column fails the whole
// append and leaves the file as it was.
#include <gtest/gtest.h>

#include "tests/test_support.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

namespace damscope {
namespace {

RangeTable::Row range(int64_t ts, int64_t dur) {
  RangeTable::Row r;
  r.ts = ts;
  r.dur = dur;
  r.depth = 0;
  return r;
}

TEST(TraceWriterUpdates, SetsCellsOfRowsWrittenByEarlierBatches) {
  testing::TempDir dir;
  const std::string path = dir.file("updates.db");
  auto db = Database::open(path, Database::Mode::kReadWriteCreate);
  ASSERT_TRUE(db.ok());
  auto writer = TraceWriter::create(std::move(db).value(), {WriterOptions::Mode::kStreaming});
  ASSERT_TRUE(writer.ok()) << writer.error().message();

  TraceTables batch;
  batch.threads.append({kNullInt, 77, kNoString});
  batch.ranges.append(range(10, 5));  // child, written before its parent closes
  ASSERT_TRUE(writer->append(batch).ok());
  batch.threads.clear(), batch.ranges.clear();

  batch.ranges.append(range(0, 100));  // the parent: id 1
  const StringId name = batch.strings.intern("worker");
  ASSERT_TRUE(writer
                  ->append(batch, {{"ranges", "parent_id", 0, 1},
                                   {"threads", "name", 0, name.value},
                                   {"ranges", "depth", 0, 1}})
                  .ok());
  ASSERT_TRUE(writer->finish().ok());

  auto trace = readTrace(path);
  ASSERT_TRUE(trace.ok()) << trace.error().message();
  ASSERT_EQ(trace->ranges.size(), 2u);
  EXPECT_EQ(trace->ranges.parent_id[0], 1);
  EXPECT_EQ(trace->ranges.depth[0], 1);
  EXPECT_TRUE(isNull(trace->ranges.parent_id[1]));
  EXPECT_EQ(trace->strings.get(trace->threads.name[0]), "worker");
}

TEST(TraceWriterUpdates, UnknownColumnFailsTheWholeAppend) {
  testing::TempDir dir;
  const std::string path = dir.file("bad.db");
  auto db = Database::open(path, Database::Mode::kReadWriteCreate);
  ASSERT_TRUE(db.ok());
  auto writer = TraceWriter::create(std::move(db).value(), {WriterOptions::Mode::kStreaming});
  ASSERT_TRUE(writer.ok());
  TraceTables batch;
  batch.ranges.append(range(1, 1));
  // Text columns and unknown names are refused (no SQL is built from them).
  Status text_column = writer->append(batch, {{"ranges", "args", 0, 1}});
  ASSERT_FALSE(text_column.ok());
  EXPECT_NE(text_column.error().message().find("ranges.args"), std::string::npos);
  Status injected = writer->append(batch, {{"ranges; DROP TABLE ranges", "depth", 0, 1}});
  ASSERT_FALSE(injected.ok());
  ASSERT_TRUE(writer->append(batch).ok());
  ASSERT_TRUE(writer->finish().ok());
  auto trace = readTrace(path);
  ASSERT_TRUE(trace.ok());
  EXPECT_EQ(trace->ranges.size(), 1u);  // the failed appends left nothing behind
}

}  // namespace
}  // namespace damscope
