// The Nsight Systems SQLite importer on small exports the tests create, in
// the 2022 schema and in a later one (renamed event types in
// ENUM_NSYS_EVENT_TYPE, columns missing), plus databases that are not exports.
#include <gtest/gtest.h>

#include "analyzer/importers/nsys/nsys_importer.h"
#include "analyzer/importers/trace_import.h"
#include "tests/test_support.h"
#include "trace/sqlite_db.h"

namespace damscope {
namespace {

using testing::TempDir;

void createDb(const std::string& path, const std::string& sql) {
  auto db = Database::open(path, Database::Mode::kReadWriteCreate);
  ASSERT_TRUE(db.ok());
  Status status = db->exec(sql);
  ASSERT_TRUE(status.ok()) << status.error().message();
}

// globalTid = (pid << 24) | tid for pid 1000, tid 1000 and 1001.
constexpr int64_t kMainThread = (1000LL << 24) | 1000;
constexpr int64_t kOtherThread = (1000LL << 24) | 1001;

std::string export2022() {
  const std::string main = std::to_string(kMainThread), other = std::to_string(kOtherThread);
  return R"sql(
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO StringIds VALUES (1, 'saxpy(double *, double *, double *, double, int)'), (2, 'saxpy'),
      (3, '_Z5saxpyPdS_S_di'), (4, 'cudaLaunchKernel_v7000'), (5, 'cuModuleGetLoadingMode'),
      (6, 'MPI Rank 2'), (7, 'worker'), (8, 'registered range');
    CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
    INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1687813257637297504, '', '');
    CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT, totalMemory INTEGER, memoryBandwidth INTEGER,
      clockRate INTEGER, smCount INTEGER, threadsPerWarp INTEGER, maxWarpsPerSm INTEGER, l2CacheSize INTEGER);
    INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA A100-SXM4-40GB', 42297524224, 1555200000000, 1410000000, 108, 32, 64, 41943040);
    CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
    INSERT INTO PROCESSES VALUES (1, 1000, './saxpy'), (2, 1, 'systemd');
    CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER);
    INSERT INTO ThreadNames VALUES (7, 10, )sql" +
         other + R"sql();
    CREATE TABLE TARGET_INFO_SYSTEM_ENV (globalVid INTEGER, devStateName TEXT, name TEXT, nameEnum INTEGER, value TEXT);
    INSERT INTO TARGET_INFO_SYSTEM_ENV VALUES (0, '', 'Hostname', 619, 'nid001608');
    CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
      streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER,
      mangledName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER,
      blockZ INTEGER, registersPerThread INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory INTEGER,
      graphNodeId INTEGER);
    INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
      (2000, 5000, 0, 1, 7, 140, 1, 1, 2, 3, 2, 1, 1, 512, 1, 1, 26, 1024, 512, NULL),
      (1000, 1500, 0, 1, 7, 139, 1, 1, 2, 3, 2, 1, 1, 512, 1, 1, 26, 0, 0, NULL);
    CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
      streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER, copyKind INTEGER,
      deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER);
    INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (500, 900, 0, 1, 7, 138, 1, 262144000, 1, NULL, 1, 2),
      (6000, 6500, 0, 1, 7, 141, 1, 262144000, 2, NULL, 2, 0);
    CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
      streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER, memKind INTEGER);
    INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (950, 960, 0, 1, 7, 150, 1, 0, 4096, 2);
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
      correlationId INTEGER, nameId INTEGER, returnValue INTEGER, callchainId INTEGER);
    INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
      (10, 20, 1, )sql" +
         main + R"sql(, 1, 5, 0, NULL),
      (1900, 1950, 0, )sql" +
         main + R"sql(, 140, 4, 0, NULL),
      (1890, 1960, 67, )sql" +
         main + R"sql(, 140, 4, 0, 3);
    CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER, end INTEGER, deviceId INTEGER,
      contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, syncType INTEGER, eventId INTEGER);
    INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (5000, 5100, 0, 1, 7, 142, 1, 3, NULL);
    CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER, category INTEGER,
      color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER,
      uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER,
      floatValue REAL, jsonTextId INTEGER, jsonText TEXT);
    INSERT INTO NVTX_EVENTS VALUES
      (100, NULL, 75, NULL, NULL, NULL, 'MPI', )sql" +
         main + R"sql(, NULL, NULL, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
      (110, NULL, 39, NULL, NULL, NULL, 'MPI Rank 2', )sql" +
         main + R"sql(, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
      (200, 7000, 59, NULL, NULL, NULL, NULL, )sql" +
         main + R"sql(, NULL, 8, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
      (300, 400, 59, NULL, NULL, NULL, 'MPI_Send', )sql" +
         main + R"sql(, NULL, NULL, 1, 42, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
      (350, NULL, 34, NULL, 3, NULL, 'checkpoint', )sql" +
         main + R"sql(, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
      (8000, NULL, 60, NULL, NULL, NULL, 'left open', )sql" +
         other + R"sql(, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
  )sql";
}

TEST(NsysImporter, Export2022FillsEveryTable) {
  TempDir dir;
  const std::string path = dir.file("report.sqlite");
  createDb(path, export2022());
  auto result = importNsysSqlite(path);
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  constexpr int64_t kStart = 1687813257637297504;

  ASSERT_EQ(t.kernels.size(), 2u);  // sorted by start
  EXPECT_EQ(t.kernels.ts[0], kStart + 1000);
  EXPECT_EQ(t.kernels.dur[1], 3000);
  EXPECT_EQ(t.strings.get(t.kernels.name[0]), "saxpy(double *, double *, double *, double, int)");
  EXPECT_EQ(t.kernels.shared_memory_bytes[1], 1536);
  EXPECT_EQ(t.kernels.block_x[0], 512);
  EXPECT_EQ(t.kernels.correlation_id[1], 140);

  ASSERT_EQ(t.memcpys.size(), 2u);
  // Memory kinds use nsys's ENUM_CUDA_MEM_KIND numbering (0 pageable, 1 pinned, 2 device).
  EXPECT_EQ(t.memcpys.copy_kind[0], CopyKind::kHtoD);
  EXPECT_EQ(t.memcpys.src_kind[0], MemoryKind::kPinned);
  EXPECT_EQ(t.memcpys.dst_kind[0], MemoryKind::kDevice);
  EXPECT_EQ(t.memcpys.copy_kind[1], CopyKind::kDtoH);
  EXPECT_EQ(t.memcpys.dst_kind[1], MemoryKind::kPageable);
  ASSERT_EQ(t.memsets.size(), 1u);
  EXPECT_EQ(t.memsets.memory_kind[0], MemoryKind::kDevice);
  ASSERT_EQ(t.syncs.size(), 1u);
  EXPECT_EQ(t.syncs.kind[0], SyncKind::kStreamSynchronize);

  ASSERT_EQ(t.api_calls.size(), 3u);
  EXPECT_EQ(t.strings.get(t.api_calls.name[0]), "cuModuleGetLoadingMode");
  EXPECT_EQ(t.api_calls.api[0], ApiKind::kDriver);
  EXPECT_EQ(t.strings.get(t.api_calls.name[1]), "cudaLaunchKernel");  // "_v7000" dropped
  EXPECT_EQ(t.api_calls.api[1], ApiKind::kRuntime);
  EXPECT_EQ(t.getStat("nsys.runtime_rows_sharing_correlation"), 1);

  // Push/pop and start/end ranges and marks; domain creation and thread
  // naming are metadata, not ranges.
  ASSERT_EQ(t.ranges.size(), 4u);
  EXPECT_EQ(t.strings.get(t.ranges.name[0]), "registered range");  // from textId
  EXPECT_EQ(t.ranges.dur[0], 6800);
  EXPECT_EQ(t.strings.get(t.ranges.name[1]), "MPI_Send");
  EXPECT_EQ(t.strings.get(t.ranges.domain[1]), "MPI");
  EXPECT_EQ(t.ranges.parent_id[1], 0);
  EXPECT_EQ(t.ranges.args[1], R"({"payload":42})");
  EXPECT_EQ(t.strings.get(t.ranges.category[2]), "nvtx_mark");
  EXPECT_EQ(t.ranges.args[2], R"({"category":3})");
  EXPECT_EQ(t.ranges.dur[3], 0);
  EXPECT_EQ(t.getStat("nsys.nvtx_unterminated_ranges"), 1);

  ASSERT_EQ(t.processes.size(), 1u);
  EXPECT_EQ(t.processes.pid[0], 1000);
  EXPECT_EQ(t.strings.get(t.processes.name[0]), "./saxpy");
  EXPECT_EQ(t.strings.get(t.processes.hostname[0]), "nid001608");
  EXPECT_EQ(t.processes.rank[0], 2);  // from the "MPI Rank 2" thread name
  ASSERT_EQ(t.threads.size(), 2u);
  for (size_t i = 0; i < t.threads.size(); ++i) {
    EXPECT_EQ(t.strings.get(t.threads.name[i]), t.threads.tid[i] == 1000 ? "MPI Rank 2" : "worker");
  }

  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.strings.get(t.devices.name[0]), "NVIDIA A100-SXM4-40GB");
  EXPECT_EQ(t.devices.sm_count[0], 108);
  EXPECT_DOUBLE_EQ(t.devices.memory_bandwidth_bytes_per_s[0], 1555200000000.0);
  EXPECT_EQ(t.devices.max_threads_per_sm[0], 2048);
  EXPECT_EQ(t.getMeta("clock"), "realtime");
  EXPECT_EQ(t.getMeta("source_format"), "nsys");
}

// A later export: event types renumbered through ENUM_NSYS_EVENT_TYPE, no
// demangled names, no session start, no NVTX or memset tables at all.
TEST(NsysImporter, LaterSchemaWithEnumsAndMissingColumns) {
  TempDir dir;
  const std::string path = dir.file("later.sqlite");
  createDb(path, R"sql(
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO StringIds VALUES (1, 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL'), (2, 'cudaLaunchKernelExC_v11060');
    CREATE TABLE ENUM_NSYS_EVENT_TYPE (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
    INSERT INTO ENUM_NSYS_EVENT_TYPE VALUES (159, 'NvtxPushPopRange', 'NVTX push/pop'), (134, 'NvtxMark', 'NVTX mark');
    CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,
      correlationId INTEGER, shortName INTEGER, graphId INTEGER);
    INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (100, 300, 1, 13, 5, 1, 77);
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER, correlationId INTEGER,
      nameId INTEGER);
    INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (50, 60, 16777217, 5, 2);
  )sql");
  auto result = importNsysSqlite(path);
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  ASSERT_EQ(t.kernels.size(), 1u);
  EXPECT_EQ(t.strings.get(t.kernels.name[0]), "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
  EXPECT_EQ(t.kernels.ts[0], 100);
  EXPECT_EQ(t.kernels.graph_id[0], 77);
  EXPECT_TRUE(isNull(t.kernels.grid_x[0]));
  EXPECT_EQ(t.strings.get(t.api_calls.name[0]), "cudaLaunchKernelExC");
  EXPECT_EQ(t.getMeta("clock"), "session");
  EXPECT_EQ(t.ranges.size(), 0u);
  EXPECT_EQ(t.devices.size(), 0u);
}

TEST(NsysImporter, EnumTableRenumbersNvtxEventTypes) {
  TempDir dir;
  const std::string path = dir.file("enum.sqlite");
  createDb(path, R"sql(
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE ENUM_NSYS_EVENT_TYPE (id INTEGER PRIMARY KEY, name TEXT);
    INSERT INTO ENUM_NSYS_EVENT_TYPE VALUES (159, 'NvtxPushPopRange'), (59, 'SomethingElse');
    CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, text TEXT, globalTid INTEGER);
    INSERT INTO NVTX_EVENTS VALUES (1, 5, 159, 'step', 16777217), (2, 3, 59, 'not a range here', 16777217);
  )sql");
  auto result = importNsysSqlite(path);
  ASSERT_TRUE(result.ok()) << result.error().message();
  ASSERT_EQ(result->ranges.size(), 1u);
  EXPECT_EQ(result->strings.get(result->ranges.name[0]), "step");
}

// Memory kinds follow nsys's ENUM_CUDA_MEM_KIND (0 pageable, 1 pinned, 2
// device, ...), not CUPTI's numbering, and the table takes precedence when
// an export includes it.
TEST(NsysImporter, MemoryKindsUseNsysEnumAndItsTable) {
  TempDir dir;
  const std::string plain = dir.file("plain.sqlite");
  createDb(plain, R"sql(
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER);
    CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,
      correlationId INTEGER, bytes INTEGER, copyKind INTEGER, srcKind INTEGER, dstKind INTEGER);
    INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (10, 20, 0, 7, 1, 64, 1, 0, 2), (30, 40, 0, 7, 2, 64, 2, 2, 1);
  )sql");
  auto result = importNsysSqlite(plain);
  ASSERT_TRUE(result.ok()) << result.error().message();
  ASSERT_EQ(result->memcpys.size(), 2u);
  EXPECT_EQ(result->memcpys.src_kind[0], MemoryKind::kPageable);
  EXPECT_EQ(result->memcpys.dst_kind[0], MemoryKind::kDevice);
  EXPECT_EQ(result->memcpys.src_kind[1], MemoryKind::kDevice);
  EXPECT_EQ(result->memcpys.dst_kind[1], MemoryKind::kPinned);

  const std::string with_enum = dir.file("enum.sqlite");
  createDb(with_enum, R"sql(
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER);
    CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
    INSERT INTO ENUM_CUDA_MEM_KIND VALUES (5, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'),
      (9, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device');
    CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,
      correlationId INTEGER, bytes INTEGER, copyKind INTEGER, srcKind INTEGER, dstKind INTEGER);
    INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (10, 20, 0, 7, 1, 64, 1, 5, 9);
  )sql");
  result = importNsysSqlite(with_enum);
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(result->memcpys.src_kind[0], MemoryKind::kPinned);
  EXPECT_EQ(result->memcpys.dst_kind[0], MemoryKind::kDevice);
}

// Thread names are untrusted text. "MPI Rank N" with an N too large for an
// int32 (std::stoi threw on it) or 100,000 digits long (std::regex overflowed
// the stack) imports with the rank unknown and counted; an ordinary name and
// INT32_MAX itself still give their rank.
TEST(NsysImporter, MpiRankNamesThatDoNotFitAnInt32LeaveTheRankUnknown) {
  TempDir dir;
  const std::string path = dir.file("ranks.sqlite");
  // Process p has thread p (globalTid (p << 24) | p), named by StringIds row p,
  // and one runtime call so that the importer keeps it.
  const std::vector<std::string> names = {"MPI Rank 99999999999",
                                          "MPI Rank " + std::string(100000, '9'), "MPI Rank 3",
                                          "MPI Rank 2147483647", "MPI Rank 2147483648"};
  std::string sql = R"sql(
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER);
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER,
      correlationId INTEGER, nameId INTEGER);
  )sql";
  for (size_t i = 0; i < names.size(); ++i) {
    const int64_t pid = static_cast<int64_t>(i) + 1;
    const std::string id = std::to_string(pid), tid = std::to_string((pid << 24) | pid);
    sql += "INSERT INTO StringIds VALUES (" + id + ", '" + names[i] + "');\n";
    sql += "INSERT INTO ThreadNames VALUES (" + id + ", 10, " + tid + ");\n";
    sql += "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (" + id + "0, " + id + "5, " + tid +
           ", " + id + ", " + id + ");\n";
  }
  createDb(path, sql);

  auto result = importTrace(path);
  ASSERT_TRUE(result.ok()) << result.error().message();
  const TraceTables& t = result.value();
  ASSERT_EQ(t.processes.size(), names.size());
  for (size_t p = 0; p < t.processes.size(); ++p) {
    const int64_t pid = t.processes.pid[p];
    SCOPED_TRACE("pid " + std::to_string(pid));
    EXPECT_EQ(t.strings.get(t.processes.comm_backend[p]), "mpi");
    if (pid == 3) {
      EXPECT_EQ(t.processes.rank[p], 3);
    } else if (pid == 4) {
      EXPECT_EQ(t.processes.rank[p], 2147483647);
    } else {
      EXPECT_TRUE(isNull(t.processes.rank[p])) << t.processes.rank[p];
    }
  }
  EXPECT_EQ(t.getStat("nsys.unusable_mpi_ranks"), 3);
}

TEST(NsysImporter, OtherSqliteDatabasesAreRejected) {
  TempDir dir;
  const std::string path = dir.file("app.sqlite");
  createDb(path, "CREATE TABLE users (id INTEGER, name TEXT);");
  auto direct = importNsysSqlite(path);
  ASSERT_FALSE(direct.ok());
  EXPECT_NE(direct.error().message().find("not an Nsight Systems export"), std::string::npos);
  auto sniffed = importTrace(path);
  ASSERT_FALSE(sniffed.ok());
  EXPECT_NE(sniffed.error().message().find("neither an Nsight Systems export nor a damscope trace"),
            std::string::npos)
      << sniffed.error().message();
}

TEST(NsysImporter, FormatIsDetectedFromContentNotExtension) {
  TempDir dir;
  const std::string path = dir.file("report.json");  // misleading name
  createDb(path, export2022());
  auto format = detectFormat(path);
  ASSERT_TRUE(format.ok()) << format.error().message();
  EXPECT_EQ(format.value(), TraceFormat::kNsysSqlite);
}

}  // namespace
}  // namespace damscope
