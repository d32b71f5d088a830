// Golden tests on the real traces in ../shared/traces (skipped when absent):
// every file imports; kernel, memcpy, memset, runtime, sync and range counts
// equal what a plain count of the JSON or SQL gives; devices and ranks are
// the ones the traces' README names; kernels find their launch call by
// correlation id; every event table comes out in time order (the store keeps
// no index on ts: id order is time order, trace/schema.sql); and a stored
// trace reads back identically.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_map>

#include "analyzer/importers/io/input_file.h"
#include "analyzer/importers/kineto/kineto_importer.h"
#include "analyzer/importers/trace_import.h"
#include "tests/test_support.h"
#include "trace/sqlite_db.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

namespace damscope {
namespace {

using testing::sharedTrace;
using testing::sharedTracesDir;

// Counts complete events by lower-cased category with simdjson's DOM API:
// an independent reading of the file, sharing no code with the importer.
std::map<std::string, int64_t> countKinetoCategories(const std::string& path) {
  auto bytes = readWholeFile(path, simdjson::SIMDJSON_PADDING);
  std::string json = isGzip(bytes.value())
                         ? gunzip(bytes.value(), path, simdjson::SIMDJSON_PADDING).value()
                         : bytes.value();
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.parse(json);
  std::map<std::string, int64_t> counts;
  for (simdjson::dom::element e : root["traceEvents"].get_array()) {
    std::string_view ph, cat;
    if (e["ph"].get_string().get(ph) || ph != "X") continue;
    if (e["cat"].get_string().get(cat)) cat = "";
    std::string lower(cat);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    ++counts[lower];
  }
  return counts;
}

int64_t sum(const std::map<std::string, int64_t>& counts, std::initializer_list<const char*> keys) {
  int64_t n = 0;
  for (const char* k : keys) {
    auto it = counts.find(k);
    if (it != counts.end()) n += it->second;
  }
  return n;
}

std::vector<std::string> kinetoTraces() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(sharedTracesDir() + "/kineto")) {
    files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(SharedTraces, EveryKinetoTraceImportsWithCountsEqualToAPlainCount) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  const auto files = kinetoTraces();
  ASSERT_GE(files.size(), 11u);
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    auto tables = importTrace(file);
    ASSERT_TRUE(tables.ok()) << tables.error().message();
    const TraceTables& t = tables.value();
    const auto counts = countKinetoCategories(file);
    // A CUPTI counter trace (Kineto's profiler mode) has no kernel events:
    // each counter range becomes its kernel.
    const int64_t kernels = sum(counts, {"kernel"});
    EXPECT_EQ(int64_t(t.kernels.size()), kernels > 0 ? kernels : sum(counts, {"cuda_profiler_range"}));
    EXPECT_EQ(int64_t(t.memcpys.size()), sum(counts, {"gpu_memcpy", "memcpy"}));
    EXPECT_EQ(int64_t(t.memsets.size()), sum(counts, {"gpu_memset", "memset"}));
    EXPECT_EQ(int64_t(t.api_calls.size()),
              sum(counts, {"cuda_runtime", "runtime", "cuda_driver", "driver"}));
    EXPECT_EQ(int64_t(t.syncs.size()), sum(counts, {"cuda_sync"}));
    EXPECT_EQ(int64_t(t.ranges.size()),
              sum(counts, {"cpu_op", "operator", "user_annotation", "gpu_user_annotation",
                           "python_function", "cuda_profiler_range"}));
    EXPECT_EQ(t.getStat("kineto.events_without_ts"), 0);
    EXPECT_EQ(t.getStat("kineto.unknown_category_ranges"), 0);
  }
}

TEST(SharedTraces, V100Rank1MatchesItsReadme) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  auto tables = importTrace(sharedTrace("kineto/v100_rank1.json.gz"));
  ASSERT_TRUE(tables.ok()) << tables.error().message();
  const TraceTables& t = tables.value();
  EXPECT_EQ(t.kernels.size(), 19370u);
  EXPECT_EQ(t.api_calls.size(), 42373u);
  int64_t nccl = 0;
  std::set<int32_t> devices;
  for (size_t i = 0; i < t.kernels.size(); ++i) {
    nccl += t.strings.get(t.kernels.name[i]).rfind("nccl", 0) == 0;
    devices.insert(t.kernels.device[i]);
  }
  EXPECT_EQ(nccl, 2020);
  EXPECT_EQ(devices, std::set<int32_t>{1});
  ASSERT_EQ(t.processes.size(), 1u);
  EXPECT_EQ(t.processes.rank[0], 1);
  EXPECT_EQ(t.processes.world_size[0], 2);
  bool found = false;
  for (size_t i = 0; i < t.devices.size(); ++i) {
    if (t.devices.device[i] == 1) {
      found = true;
      EXPECT_EQ(t.strings.get(t.devices.name[i]), "Tesla V100-SXM2-32GB");
      EXPECT_EQ(t.devices.sm_count[i], 80);
    }
  }
  EXPECT_TRUE(found);
}

struct RankAndDevice {
  const char* file;
  int32_t rank;        // -1: the trace carries none
  int32_t world_size;  // -1: the trace carries none
  int32_t device;      // the one device with GPU activity, -1 for none
  const char* device_name;
};

TEST(SharedTraces, RanksAndActiveDevicesAreRight) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  const RankAndDevice expected[] = {
      {"kineto/nccl_2rank_a100.json.gz", 0, 2, 0, "NVIDIA A100-PG509-200"},
      {"kineto/diff_control_a100.json.gz", 3, 8, 3, "NVIDIA A100-PG509-200"},
      {"kineto/diff_test_v100.json.gz", 1, 2, 1, "Tesla V100-SXM2-16GB"},
      {"kineto/ns_resolution_v100.json.gz", 0, 1, 0, "Tesla V100-SXM2-32GB"},
      {"kineto/mi250_rocm_small.json.gz", -1, -1, 2, "AMD Radeon Graphics"},
      {"kineto/cpu_only.json.gz", 34, 300, -1, ""},
      {"kineto/simple_add_a100.json.gz", 0, -1, 0, "NVIDIA A100-PG509-200"},
      {"nsys/saxpy_mpi_a100_nsys2022.sqlite", 0, -1, 0, "NVIDIA A100-SXM4-40GB"},
  };
  for (const auto& e : expected) {
    SCOPED_TRACE(e.file);
    auto tables = importTrace(sharedTrace(e.file));
    ASSERT_TRUE(tables.ok()) << tables.error().message();
    const TraceTables& t = tables.value();
    ASSERT_GE(t.processes.size(), 1u);
    EXPECT_EQ(isNull(t.processes.rank[0]) ? -1 : t.processes.rank[0], e.rank);
    EXPECT_EQ(isNull(t.processes.world_size[0]) ? -1 : t.processes.world_size[0], e.world_size);
    std::set<int32_t> active;
    for (int32_t d : t.kernels.device) active.insert(d);
    for (int32_t d : t.memcpys.device) active.insert(d);
    if (e.device < 0) {
      EXPECT_TRUE(active.empty());
      continue;
    }
    EXPECT_EQ(active, std::set<int32_t>{e.device});
    bool named = false;
    for (size_t i = 0; i < t.devices.size(); ++i) {
      if (t.devices.device[i] == e.device)
        named = t.strings.get(t.devices.name[i]) == e.device_name;
    }
    EXPECT_TRUE(named) << "device " << e.device << " should be " << e.device_name;
  }
}

// The nsys export's README facts, against plain SQL counts of the file.
TEST(SharedTraces, NsysExportCountsEqualSqlCounts) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  const std::string path = sharedTrace("nsys/saxpy_mpi_a100_nsys2022.sqlite");
  auto db = Database::open(path, Database::Mode::kReadOnly);
  ASSERT_TRUE(db.ok());
  auto count = [&](const std::string& sql) {
    auto stmt = db->prepare(sql);
    EXPECT_TRUE(stmt.ok());
    EXPECT_TRUE(stmt->step().value());
    return stmt->columnInt(0);
  };
  auto tables = importTrace(path);
  ASSERT_TRUE(tables.ok()) << tables.error().message();
  const TraceTables& t = tables.value();
  EXPECT_EQ(int64_t(t.kernels.size()), count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_EQ(int64_t(t.memcpys.size()), count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
  EXPECT_EQ(int64_t(t.memsets.size()), count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"));
  EXPECT_EQ(int64_t(t.api_calls.size()), count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
  EXPECT_EQ(int64_t(t.syncs.size()),
            count("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
  // Ranges and marks; the other NVTX rows name a domain (75) or a thread (39).
  EXPECT_EQ(int64_t(t.ranges.size()),
            count("SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60, 70, 71)"));
  EXPECT_EQ(count("SELECT count(*) FROM NVTX_EVENTS"), 24);
  EXPECT_EQ(t.kernels.size(), 5u);
  EXPECT_EQ(t.memcpys.size(), 15u);
  // saxpy copies plain malloc'ed host buffers: pageable to device and back
  // (nsys memory kinds: srcKind 0 and dstKind 2 for its host-to-device copies).
  for (size_t i = 0; i < t.memcpys.size(); ++i) {
    if (t.memcpys.copy_kind[i] == CopyKind::kHtoD) {
      EXPECT_EQ(t.memcpys.src_kind[i], MemoryKind::kPageable);
      EXPECT_EQ(t.memcpys.dst_kind[i], MemoryKind::kDevice);
    } else {
      EXPECT_EQ(t.memcpys.copy_kind[i], CopyKind::kDtoH);
      EXPECT_EQ(t.memcpys.src_kind[i], MemoryKind::kDevice);
      EXPECT_EQ(t.memcpys.dst_kind[i], MemoryKind::kPageable);
    }
  }
  EXPECT_EQ(t.api_calls.size(), 95u);
  EXPECT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.strings.get(t.devices.name[0]), "NVIDIA A100-SXM4-40GB");
}

// Kernels whose correlation id matches a runtime event's, counted on the
// JSON directly (DOM API, no importer code).
int64_t countKernelsWithLaunch(const std::string& path) {
  auto bytes = readWholeFile(path, simdjson::SIMDJSON_PADDING);
  std::string json = gunzip(bytes.value(), path, simdjson::SIMDJSON_PADDING).value();
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.parse(json);
  std::set<int64_t> runtime;
  std::vector<int64_t> kernels;
  for (simdjson::dom::element e : root["traceEvents"].get_array()) {
    std::string_view cat;
    int64_t correlation = 0;
    if (e["cat"].get_string().get(cat) || e["args"]["correlation"].get_int64().get(correlation))
      continue;
    if (cat == "cuda_runtime" || cat == "Runtime") runtime.insert(correlation);
    if (cat == "kernel" || cat == "Kernel") kernels.push_back(correlation);
  }
  return std::count_if(kernels.begin(), kernels.end(),
                       [&](int64_t c) { return runtime.count(c) > 0; });
}

// A kernel's launch call is the runtime call with its correlation id: every
// kernel whose launch is in the trace finds it, and it is a launch. (Kineto
// drops some runtime events, e.g. outside its window: diff_test_v100 lacks
// the launches of 546 of its 9,876 kernels.)
TEST(SharedTraces, KernelsFindTheirLaunchCallByCorrelation) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  for (const std::string& file : kinetoTraces()) {
    SCOPED_TRACE(file);
    auto tables = importTrace(file);
    ASSERT_TRUE(tables.ok()) << tables.error().message();
    const TraceTables& t = tables.value();
    if (t.kernels.empty()) continue;
    std::unordered_map<int64_t, size_t> call_by_correlation;
    for (size_t i = 0; i < t.api_calls.size(); ++i)
      call_by_correlation[t.api_calls.correlation_id[i]] = i;
    int64_t found = 0, launches = 0;
    for (size_t k = 0; k < t.kernels.size(); ++k) {
      auto it = call_by_correlation.find(t.kernels.correlation_id[k]);
      if (it == call_by_correlation.end()) continue;
      ++found;
      const std::string_view name = t.strings.get(t.api_calls.name[it->second]);
      launches += name.find("Launch") != std::string_view::npos;
      EXPECT_LE(t.api_calls.ts[it->second], t.kernels.ts[k]) << "a kernel starts after its launch";
    }
    // The kernels of a counter trace are its counter ranges, each given its
    // launch call (kineto_finish.cc): every one finds it.
    const bool from_counter_ranges = t.getMeta("kernel_times") == "placeholders";
    EXPECT_EQ(found, from_counter_ranges ? int64_t(t.kernels.size()) : countKernelsWithLaunch(file));
    EXPECT_EQ(launches, found);
  }
}

TEST(SharedTraces, EveryEventTableComesOutInTimeOrder) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  std::vector<std::string> files = kinetoTraces();
  files.push_back(sharedTrace("nsys/saxpy_mpi_a100_nsys2022.sqlite"));
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    auto tables = importTrace(file);
    ASSERT_TRUE(tables.ok()) << tables.error().message();
    tables->forEachTable([&](const auto& table) {
      if constexpr (requires { table.ts; }) {
        for (size_t i = 1; i < table.size(); ++i) {
          bool ordered = table.ts[i - 1] <= table.ts[i];
          if constexpr (requires { table.dur; }) {
            ordered =
                ordered && (table.ts[i - 1] < table.ts[i] || table.dur[i - 1] >= table.dur[i]);
          }
          ASSERT_TRUE(ordered) << table.kSqlName << " rows " << i - 1 << " and " << i;
        }
      }
    });
  }
}

TEST(SharedTraces, StoredTraceReadsBackIdentically) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  testing::TempDir dir;
  auto imported = importTrace(sharedTrace("kineto/nccl_2rank_a100.json.gz"));
  ASSERT_TRUE(imported.ok()) << imported.error().message();
  ASSERT_TRUE(saveTrace(imported.value(), dir.file("run.db"), false).ok());
  auto read = readTrace(dir.file("run.db"));
  ASSERT_TRUE(read.ok()) << read.error().message();
  const TraceTables& a = imported.value();
  const TraceTables& b = read.value();
  EXPECT_EQ(a.kernels.ts, b.kernels.ts);
  EXPECT_EQ(a.kernels.dur, b.kernels.dur);
  EXPECT_EQ(a.kernels.correlation_id, b.kernels.correlation_id);
  EXPECT_EQ(a.kernels.args, b.kernels.args);
  EXPECT_EQ(a.ranges.parent_id, b.ranges.parent_id);
  EXPECT_EQ(a.api_calls.thread_id, b.api_calls.thread_id);
  ASSERT_EQ(a.strings.size(), b.strings.size());
  for (int32_t i = 0; i < int32_t(a.strings.size()); ++i) {
    ASSERT_EQ(a.strings.get(StringId{i}), b.strings.get(StringId{i}));
  }
}

}  // namespace
}  // namespace damscope
