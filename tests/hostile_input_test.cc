// Inputs a hostile user or a damaged disk produces, through the damscope
// command as a user runs it: each gets an answer or one clear line with exit
// code 2, never an abort, a crash, a corrupt file or a rewritten terminal.
// (Issue 8's defects, one test each.)
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "analyzer/result/analysis_store.h"
#include "tests/test_support.h"
#include "trace/sqlite_db.h"
#include "trace/trace_reader.h"

namespace damscope {
namespace {

using testing::CommandResult;
using testing::TempDir;

CommandResult damscope(const std::string& args) {
  return testing::runCommand(testing::damscopeBinary() + " " + args);
}

// A one-step Kineto trace whose kernel is called `kernel_name` (raw bytes,
// written into the JSON string as they are).
std::string traceWithKernel(const std::string& kernel_name) {
  return R"({"traceEvents":[)"
         R"({"ph":"X","cat":"cpu_op","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000},)"
         R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":1}},)"
         R"({"ph":"X","cat":"kernel","name":")" +
         kernel_name +
         R"(","pid":0,"tid":7,"ts":20,"dur":300,"args":{"correlation":1,"device":0,"stream":7}}],)"
         R"("deviceProperties":[{"id":0,"name":")" +
         kernel_name + R"(","numSms":80}]})";
}

bool oneLine(const std::string& text) {
  return std::count(text.begin(), text.end(), '\n') == 1;
}

TEST(HostileInput, InvalidUtf8NeverBreaksJsonOutput) {
  TempDir dir;
  // Invalid UTF-8 in the file's own name (stored in the run.db as its
  // source), and, written into the run.db by hand, in a kernel's name.
  // (Kineto JSON itself must be UTF-8: the JSON parser refuses it otherwise.)
  const std::string trace = dir.file("bad\xff\xfe.json");
  testing::writeFile(trace, traceWithKernel("gemm"));
  const std::string store = dir.file("bad.db");
  ASSERT_EQ(damscope("import -o " + store + " '" + trace + "'").exit_code, 0);
  {
    auto db = Database::open(store, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("UPDATE strings SET value = CAST(X'67656d6dc328ff' AS TEXT) "
                         "WHERE value = 'gemm'")
                    .ok());
  }
  for (const std::string& args :
       {"info --json " + store, "info --json '" + trace + "'",
        "analyze --no-store --format json " + store, "analyze --format json " + store,
        "analyze --no-store --format json '" + trace + "'"}) {
    const CommandResult r = damscope(args);
    ASSERT_EQ(r.exit_code, 0) << args << ": " << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << args << ": not JSON";
  }
  // Read back as valid UTF-8: the invalid bytes became U+FFFD.
  auto events = readTrace(store);
  ASSERT_TRUE(events.ok()) << events.error().message();
  EXPECT_EQ(events->strings.get(events->kernels.name[0]), "gemm\xEF\xBF\xBD(\xEF\xBF\xBD");
  // And stored results hold valid text only.
  auto stored = readAnalysis(store);
  ASSERT_TRUE(stored.ok()) << stored.error().message();
  EXPECT_EQ(stored->top_kernels.name[0], "gemm\xEF\xBF\xBD(\xEF\xBF\xBD");
}

TEST(HostileInput, EscapeSequencesInNamesDoNotReachTheTerminal) {
  TempDir dir;
  const std::string trace = dir.file("escape.json");
  // OSC "set window title", then a CSI colour change; \u001b is ESC in JSON.
  testing::writeFile(trace, traceWithKernel(R"(k\u001b]0;owned\u0007\u001b[31m)"));
  for (const std::string& args : {"analyze --no-store " + trace, "info " + trace}) {
    const CommandResult r = damscope(args);
    ASSERT_EQ(r.exit_code, 0) << args << ": " << r.err;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << args;
    EXPECT_EQ(r.out.find('\x07'), std::string::npos) << args;
  }
  EXPECT_NE(damscope("info " + trace).out.find("k\\x1b]0;owned\\x07"), std::string::npos)
      << "shown, as a visible escape";
}

// A run.db edited or damaged so that ids point nowhere: refused with the
// table, row and value, exit 2.
TEST(HostileInput, DanglingIdsInARunDbAreRefused) {
  TempDir dir;
  const std::string trace = dir.file("ok.json");
  testing::writeFile(trace, traceWithKernel("gemm"));
  const std::string store = dir.file("ok.db");
  ASSERT_EQ(damscope("import -o " + store + " " + trace).exit_code, 0);
  for (const char* damage :
       {"UPDATE kernels SET name = 99999", "UPDATE kernels SET name = -7",
        "UPDATE kernels SET name = 1e12", "UPDATE ranges SET thread_id = 12345",
        "UPDATE kernels SET ts = 9000000000000000000"}) {
    const std::string copy = dir.file("damaged.db");
    std::filesystem::copy_file(store, copy, std::filesystem::copy_options::overwrite_existing);
    {
      auto db = Database::open(copy, Database::Mode::kReadWriteCreate);
      ASSERT_TRUE(db.ok());
      ASSERT_TRUE(db->exec(damage).ok());
    }
    const CommandResult r = damscope("analyze --no-store " + copy);
    EXPECT_EQ(r.exit_code, 2) << damage << ": " << r.err;
    EXPECT_TRUE(oneLine(r.err)) << damage << ": " << r.err;
    EXPECT_NE(r.err.find("damaged.db: table "), std::string::npos) << r.err;
  }
}

TEST(HostileInput, AKernelWithoutANameIsAnalysedAndStored) {
  TempDir dir;
  const std::string trace = dir.file("noname.json");
  testing::writeFile(trace, traceWithKernel(""));
  const CommandResult r = testing::runCommand("cd " + dir.path() + " && " +
                                              testing::damscopeBinary() + " analyze noname.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto stored = readAnalysis(dir.file("noname.db"));
  ASSERT_TRUE(stored.ok()) << stored.error().message();
  ASSERT_EQ(stored->top_kernels.size(), 1u);
  EXPECT_EQ(stored->top_kernels.name[0], "");
}

// Replacing a run.db that has a leftover -wal (a crashed writer's) must not
// replay that log into the new file.
TEST(HostileInput, ReplacingARunDbIgnoresItsLeftoverLog) {
  TempDir dir;
  const std::string trace = dir.file("run.json");
  testing::writeFile(trace, traceWithKernel("gemm"));
  const std::string store = dir.file("run.db");
  ASSERT_EQ(damscope("import -o " + store + " " + trace).exit_code, 0);
  // Another database's log, as a crash would leave it.
  {
    const std::string other = dir.file("other.db");
    auto db = Database::open(other, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("PRAGMA journal_mode=WAL; CREATE TABLE junk(x); "
                         "INSERT INTO junk VALUES (1)")
                    .ok());
    std::filesystem::copy_file(other + "-wal", store + "-wal",
                               std::filesystem::copy_options::overwrite_existing);
  }
  for (const std::string& command :
       {"import -f -o " + store + " " + trace, "analyze -f --no-store -o " + store + " " + trace,
        "analyze -f -o " + store + " " + trace}) {
    ASSERT_EQ(damscope(command).exit_code, 0) << command;
    auto events = readTrace(store);
    ASSERT_TRUE(events.ok()) << command << ": " << events.error().message();
    EXPECT_EQ(events->kernels.size(), 1u);
  }
}

TEST(HostileInput, LongFileNamesImport) {
  TempDir dir;
  // 250 bytes: a temporary name built by adding to it would pass NAME_MAX (255).
  const std::string name = std::string(243, 'n') + ".json";
  testing::writeFile(dir.file(name), traceWithKernel("gemm"));
  const CommandResult r = testing::runCommand("cd " + dir.path() + " && " +
                                              testing::damscopeBinary() + " analyze " + name);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file(std::string(243, 'n') + ".db")));
}

// A one-step Kineto trace whose kernel has the given "ts" and "dur" (JSON
// number text), with `top` added to the top-level object.
std::string traceWithKernelTimes(const std::string& ts, const std::string& dur,
                                 const std::string& top = "") {
  return R"({"traceEvents":[)"
         R"({"ph":"X","cat":"cpu_op","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000},)"
         R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":)" +
         ts + R"(,"dur":)" + dur + R"(,"args":{"correlation":1,"device":0,"stream":7}}])" + top +
         "}";
}

// Times at and past int64 and the trace's range (±2^62 ns, trace/tables.h):
// once they were multiplied, added and subtracted unchecked (UBSan reports,
// negative windows and step times, a base time that wrapped the first event
// to -7.5e18). An event that cannot be placed is skipped and counted; a base
// time that cannot be is an error naming the file and the field.
TEST(HostileInput, KinetoTimesOutOfRangeAreSkippedAndCounted) {
  TempDir dir;
  struct Case {
    std::string ts, dur, stat;
  };
  const Case cases[] = {
      {"9000000000000000", "1", "kineto.events_outside_time_range"},     // 9e18 ns
      {"-9000000000000000", "1", "kineto.events_outside_time_range"},    // -9e18 ns
      {"4611686018427387", "1000", "kineto.events_outside_time_range"},  // end past 2^62
      {"20", "9223372036854775", "kineto.events_outside_time_range"},    // dur near INT64_MAX
      {"9223372036854775.808", "1", "kineto.events_without_ts"},         // ns overflow int64
      {"1e300", "1", "kineto.events_without_ts"},
      {"20", "-9223372036854775.808", "kineto.bad_durations"},
  };
  for (const Case& c : cases) {
    const std::string trace = dir.file("times.json");
    testing::writeFile(trace, traceWithKernelTimes(c.ts, c.dur));
    const std::string store = dir.file("times.db");
    const CommandResult r = damscope("import -f -o " + store + " " + trace);
    ASSERT_EQ(r.exit_code, 0) << c.ts << " " << c.dur << ": " << r.err;
    auto events = readTrace(store);
    ASSERT_TRUE(events.ok()) << events.error().message();
    EXPECT_EQ(events->getStat(c.stat), 1) << c.ts << " " << c.dur;
    for (size_t i = 0; i < events->kernels.size(); ++i) {
      EXPECT_GE(events->kernels.dur[i], 0);
      EXPECT_TRUE(isTraceTime(events->kernels.ts[i]));
    }
    const CommandResult analyzed = damscope("analyze --no-store --format json " + trace);
    EXPECT_EQ(analyzed.exit_code, 0) << analyzed.err;
  }
  for (const auto& [top, value] :
       {std::pair<std::string, std::string>{R"(,"baseTimeNanoseconds":9000000000000000000)",
                                            "9000000000000000000 lies outside"},
        {R"(,"baseTimeNanoseconds":-4611686018427387904)", "-4611686018427387904 lies outside"},
        // Each in range, but 4e18 + 1e18 is not.
        {R"(,"baseTimeNanoseconds":4000000000000000000)", "4000000000000000000 moves an event"}}) {
    const std::string trace = dir.file("base.json");
    testing::writeFile(trace, traceWithKernelTimes("1000000000000000", "1", top));
    for (const std::string& command : {"import -o " + dir.file("base.db") + " " + trace,
                                       "analyze --no-store " + trace, "info " + trace}) {
      const CommandResult r = damscope(command);
      EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
      EXPECT_TRUE(oneLine(r.err)) << r.err;
      EXPECT_NE(r.err.find(trace + ": "), std::string::npos) << r.err;
      EXPECT_NE(r.err.find("\"baseTimeNanoseconds\" " + value), std::string::npos) << r.err;
      EXPECT_FALSE(std::filesystem::exists(dir.file("base.db")));
    }
  }
}

// Device properties past a 32-bit column (or past any integer, 1e300, whose
// conversion was undefined) read as unknown, not as a wrapped number.
// Two GEMM kernels of ~2^63 ns on two streams, each inside the trace range
// (±2^62 ns): their summed time wrapped int64 in the kernel breakdown and the
// roofline (UBSan reports), and the text said "Kernels gemm 0.0 %" for an
// all-GEMM trace (issue 32 §2). Sums saturate; the trace reads 100 % GEMM.
TEST(HostileInput, KernelTimesSummingPastInt64KeepTheirShare) {
  TempDir dir;
  const std::string kernel =
      R"({"ph":"X","cat":"kernel","name":"volta_sgemm_128x64_nn","pid":0,"tid":S,)"
      R"("ts":-4611686018427387,"dur":9223372036854774,)"
      R"("args":{"correlation":S,"device":0,"stream":S}})";
  std::string kernels;
  for (const std::string stream : {"7", "8"}) {
    std::string k = kernel;
    for (size_t at = k.find('S'); at != std::string::npos; at = k.find('S', at)) {
      k.replace(at, 1, stream);
    }
    kernels += (kernels.empty() ? "" : ",") + k;
  }
  const std::string trace = dir.file("two_gemms.json");
  testing::writeFile(trace, R"({"traceEvents":[)" + kernels + "]}");
  const CommandResult text = damscope("analyze --no-store " + trace);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Kernels  gemm 100.0 %"), std::string::npos) << text.out;
  const CommandResult json = damscope("analyze --no-store --format json " + trace);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  const auto& categories = doc["ranks"][0]["kernel_categories_pct"];
  EXPECT_EQ(categories, nlohmann::json({{"gemm", 100.0}})) << categories.dump();
}

TEST(HostileInput, KinetoDevicePropertiesOutOfRangeReadAsUnknown) {
  TempDir dir;
  const std::string trace = dir.file("devices.json");
  testing::writeFile(
      trace, traceWithKernelTimes("20", "300",
                                  R"(,"deviceProperties":[{"id":0,"name":"GPU","numSms":1e300,)"
                                  R"("warpSize":4294967328,"totalGlobalMem":-1e300}])"));
  const std::string store = dir.file("devices.db");
  ASSERT_EQ(damscope("import -o " + store + " " + trace).exit_code, 0);
  auto events = readTrace(store);
  ASSERT_TRUE(events.ok()) << events.error().message();
  ASSERT_EQ(events->devices.size(), 1u);
  EXPECT_TRUE(isNull(events->devices.sm_count[0]));
  EXPECT_TRUE(isNull(events->devices.warp_size[0]));
  EXPECT_TRUE(isNull(events->devices.memory_bytes[0]));
}

// An Nsight Systems export with the given kernel rows ("start, end" pairs,
// SQL) and session start.
std::string nsysExport(TempDir& dir, const std::string& rows,
                       const std::string& session_start = "0") {
  std::string path = dir.file("report.sqlite");
  std::filesystem::remove(path);
  auto db = Database::open(path, Database::Mode::kReadWriteCreate);
  EXPECT_TRUE(db.ok());
  const Status made = db->exec(
      "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
      "INSERT INTO StringIds VALUES (1, 'gemm');"
      "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER);"
      "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (" +
      session_start +
      ");"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,"
      "  streamId INTEGER, correlationId INTEGER, demangledName INTEGER);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (100, 400, 0, 7, 1, 1);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, streamId, correlationId,"
      "  demangledName) VALUES " +
      rows + ";");
  EXPECT_TRUE(made.ok()) << made.error().message();
  return path;
}

// NULL starts and ends, and starts and ends that overflow once combined
// (end - start with a NULL end was INT64_MIN - start): the row is skipped or
// repaired and counted, the same way by import, analyze and info, since all
// three import through one importer. A session start out of range is an
// error naming the file and the field.
TEST(HostileInput, NsysNullAndOutOfRangeTimesAreSkippedAndCounted) {
  TempDir dir;
  struct Case {
    std::string rows, stat;
  };
  const Case cases[] = {
      {"(NULL, 500, 0, 7, 2, 1)", "nsys.rows_without_start"},
      {"(200, NULL, 0, 7, 2, 1)", "nsys.rows_without_end"},
      {"(500, 200, 0, 7, 2, 1)", "nsys.negative_durations"},
      {"(-9223372036854775807, 9223372036854775807, 0, 7, 2, 1)", "nsys.rows_outside_time_range"},
      {"(9000000000000000000, 9000000000000000001, 0, 7, 2, 1)", "nsys.rows_outside_time_range"},
      {"(100, 9223372036854775807, 0, 7, 2, 1)", "nsys.rows_outside_time_range"},
  };
  for (const Case& c : cases) {
    const std::string path = nsysExport(dir, c.rows);
    const std::string store = dir.file("report.db");
    const CommandResult r = damscope("import -f -o " + store + " " + path);
    ASSERT_EQ(r.exit_code, 0) << c.rows << ": " << r.err;
    auto events = readTrace(store);
    ASSERT_TRUE(events.ok()) << events.error().message();
    EXPECT_EQ(events->getStat(c.stat), 1) << c.rows;
    for (size_t i = 0; i < events->kernels.size(); ++i) EXPECT_GE(events->kernels.dur[i], 0);
    const CommandResult info = damscope("info --json " + path);
    ASSERT_EQ(info.exit_code, 0) << info.err;
    EXPECT_NE(info.out.find(c.stat), std::string::npos) << info.out;
    EXPECT_EQ(damscope("analyze --no-store " + path).exit_code, 0) << c.rows;
  }
  const std::string path = nsysExport(dir, "(200, 300, 0, 7, 2, 1)", "-5000000000000000000");
  for (const std::string& command : {"import -o " + dir.file("late.db") + " " + path,
                                     "analyze --no-store " + path, "info " + path}) {
    const CommandResult r = damscope(command);
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_TRUE(oneLine(r.err)) << r.err;
    EXPECT_NE(r.err.find(path + ": TARGET_INFO_SESSION_START_TIME.utcEpochNs -5000000000000000000"),
              std::string::npos)
        << r.err;
  }
}

// Negative durations in a run.db, written there by hand, are refused on read
// like any other time out of range: analyses take ends to follow starts.
TEST(HostileInput, NegativeDurationsInARunDbAreRefused) {
  TempDir dir;
  const std::string trace = dir.file("ok.json");
  testing::writeFile(trace, traceWithKernel("gemm"));
  const std::string store = dir.file("neg.db");
  ASSERT_EQ(damscope("import -o " + store + " " + trace).exit_code, 0);
  {
    auto db = Database::open(store, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("UPDATE kernels SET dur = -300").ok());
  }
  const CommandResult r = damscope("analyze --no-store " + store);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(oneLine(r.err)) << r.err;
  EXPECT_NE(r.err.find("neg.db: table kernels row 0: dur -300 is negative"), std::string::npos)
      << r.err;
}

// The peak resident memory of the largest program this test has run, in
// bytes (getrusage counts every waited-for descendant).
long peakChildRssBytes() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  return usage.ru_maxrss * 1024L;
}

// Decompression bombs, built small: a 2 GiB sparse file that starts as gzip
// (it took 10.5 GB of memory and up to 45 s), a gzip that inflates about
// 1000:1 (4 MiB to 4 GiB took 8.4 GB: here 256 concatenated members of 1 MiB
// of zeros, 256 KiB inflating to 256 MiB, past the cap of 100 times plus 64
// MiB), and a gzip followed by other data. Each is one line, exit 2, quickly
// and in bounded memory.
TEST(HostileInput, DecompressionBombsFailFastInBoundedMemory) {
  TempDir dir;
  const std::string sparse = dir.file("sparse.json.gz");
  {
    // A valid gzip header (deflate, no flags), then zeros.
    testing::writeFile(sparse, std::string("\x1f\x8b\x08\0\0\0\0\0\0\x03", 10));
    std::filesystem::resize_file(sparse, 2ull << 30);
  }
  const std::string bomb = dir.file("bomb.json.gz");
  {
    testing::writeGzip(bomb, std::string(1u << 20, '\0'));
    const std::string member = testing::readFile(bomb);
    std::string members;
    for (int i = 0; i < 256; ++i) members += member;
    testing::writeFile(bomb, members);
  }
  const std::string trailing = dir.file("trailing.json.gz");
  testing::writeGzip(trailing, traceWithKernel("gemm"));
  testing::writeFile(trailing, testing::readFile(trailing) + "\n");
  for (const auto& [path, why] :
       {std::pair{sparse, std::string("corrupt gzip data")},
        std::pair{bomb, std::string("gzip content larger than")},
        std::pair{trailing, std::string("unexpected data after the end of the gzip stream")}}) {
    for (const std::string& command : {"import -o " + dir.file("out.db") + " " + path,
                                       "analyze --no-store " + path, "info " + path}) {
      const auto start = std::chrono::steady_clock::now();
      const CommandResult r = damscope(command);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
      EXPECT_TRUE(oneLine(r.err)) << command << ": " << r.err;
      EXPECT_NE(r.err.find(path + ": " + why), std::string::npos) << command << ": " << r.err;
      EXPECT_LT(seconds, 10) << command;
      EXPECT_FALSE(std::filesystem::exists(dir.file("out.db"))) << command;
    }
  }
  // The cap (about 90 MiB here) and the buffer's growth bound it; a sanitizer
  // build adds its shadow and quarantine.
  EXPECT_LT(peakChildRssBytes(), 1L << 30);
}

// Where address space is limited (ulimit -v, as some clusters set it), a .gz
// whose decompression cap (100 times its size plus 64 MiB: 360 MB here) does
// not fit is decompressed into a buffer that grows with the text before it
// is parsed, instead of into the cap reserved up front: it imports all the
// same.
TEST(HostileInput, GzipImportsUnderAnAddressSpaceLimitBelowItsCap) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer reserves terabytes of shadow memory: no ulimit -v";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  GTEST_SKIP() << "a sanitizer reserves terabytes of shadow memory: no ulimit -v";
#endif
#endif
  TempDir dir;
  // Hex of pseudo-random bytes compresses about 2:1: a 3 MB file.
  std::string json = R"({"traceEvents":[)";
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 1000; ++i) {
    std::string blob;
    for (int j = 0; j < 400; ++j) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64 (Marsaglia 2003)
      blob += fmt::format("{:016x}", x);
    }
    json += fmt::format(R"({}{{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":{},"dur":5,)"
                        R"("args":{{"device":0,"stream":7,"correlation":{},"blob":"{}"}}}})",
                        i ? "," : "", 1000 + i * 10, i, blob);
  }
  json += "]}";
  const std::string path = dir.file("incompressible.json.gz");
  testing::writeGzip(path, json);
  ASSERT_GT(std::filesystem::file_size(path), 2'800'000u);
  const CommandResult r = testing::runCommand("ulimit -v 250000 && " + testing::damscopeBinary() +
                                              " analyze --no-store --format json " + path);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"kernels\""), std::string::npos) << r.out.substr(0, 500);
}

}  // namespace
}  // namespace damscope
