// The device spec table (analyzer/devices/device_specs.h): the data's own
// consistency, so that a typo or a sparse figure pasted as dense fails here;
// the names CUDA, Kineto, nsys and ROCm print; the short names users type;
// ambiguous and unknown names; and the devices of the shared real traces.
#include "analyzer/devices/device_specs.h"

#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <string>

#include "analyzer/importers/trace_import.h"
#include "tests/test_support.h"

namespace damscope {
namespace {

constexpr Precision kAllPrecisions[] = {Precision::kFp64, Precision::kFp32, Precision::kTf32,
                                        Precision::kFp16, Precision::kBf16, Precision::kFp8};

std::string keyOf(const DeviceFacts& facts) {
  std::optional<DeviceSpecMatch> m = findDeviceSpec(facts);
  return m ? std::string(m->spec->key) : "(none)";
}

DeviceFacts named(std::string name) {
  DeviceFacts facts;
  facts.name = std::move(name);
  return facts;
}

// --- The data ------------------------------------------------------------------

TEST(DeviceSpecTable, HasTheRowsTheAnalysesNeed) {
  std::set<std::string_view> keys;
  for (const DeviceSpec& s : deviceSpecs()) keys.insert(s.key);
  for (std::string_view k : {"v100-pcie-16gb",
                             "v100-pcie-32gb",
                             "v100-sxm2-16gb",
                             "v100-sxm2-32gb",
                             "v100s-pcie-32gb",
                             "v100-dgxs-32gb",
                             "t4",
                             "a10",
                             "a10g",
                             "a30",
                             "a40",
                             "a100-pcie-40gb",
                             "a100-pcie-80gb",
                             "a100-sxm4-40gb",
                             "a100-sxm4-80gb",
                             "l4",
                             "l40",
                             "l40s",
                             "rtx-3090",
                             "rtx-4090",
                             "rtx-a6000",
                             "h100-pcie",
                             "h100-sxm",
                             "h100-nvl",
                             "h200-sxm",
                             "gh200-96gb",
                             "b200",
                             "mi250",
                             "mi250x",
                             "mi300x"}) {
    EXPECT_TRUE(keys.count(k)) << k;
  }
}

TEST(DeviceSpecTable, EveryRowHasFp32MemoryBandwidthAndASource) {
  for (const DeviceSpec& s : deviceSpecs()) {
    SCOPED_TRACE(s.key);
    ASSERT_TRUE(s.vector.fp32.has_value());
    EXPECT_GT(*s.vector.fp32, 1e12);
    EXPECT_GT(s.memory_bandwidth_bytes_per_s, 100e9);
    EXPECT_GT(s.memory_bytes, int64_t{8} << 30);
    EXPECT_EQ(s.memory_bytes, (int64_t{s.memory_gb} << 30));
    EXPECT_GT(s.sm_count, 0);
    EXPECT_GT(s.compute_major, 0);
    EXPECT_GT(s.host_link.bytes_per_s, 0);
    EXPECT_FALSE(s.name.empty());
    EXPECT_FALSE(s.family.empty());
    EXPECT_FALSE(s.names[0].empty());
    EXPECT_TRUE(s.vendor == "nvidia" || s.vendor == "amd");
    EXPECT_GT(s.source.size(), 20u);
  }
}

TEST(DeviceSpecTable, NoTwoRowsShareAName) {
  // Every spelling a row answers to, compared as matching compares them:
  // case, separators and vendor words ignored.
  std::set<std::string> seen;
  auto norm = [](std::string_view text) {
    std::string out, word;
    auto flush = [&] {
      if (word != "nvidia" && word != "tesla" && word != "geforce" && word != "amd" &&
          word != "instinct") {
        out += word;
      }
      word.clear();
    };
    for (char c : text) {
      if (std::isalnum(static_cast<unsigned char>(c))) {
        word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      } else {
        flush();
      }
    }
    flush();
    return out;
  };
  for (const DeviceSpec& s : deviceSpecs()) {
    std::set<std::string> own{norm(s.key), norm(s.name)};
    for (std::string_view n : s.names) {
      if (!n.empty()) own.insert(norm(n));
    }
    for (std::string_view b : s.boards) {
      if (!b.empty()) own.insert(norm(b));
    }
    for (const std::string& n : own) EXPECT_TRUE(seen.insert(n).second) << n << " in " << s.key;
  }
}

TEST(DeviceSpecTable, TensorPeaksAreAtLeastTheNonTensorPeaks) {
  for (const DeviceSpec& s : deviceSpecs()) {
    SCOPED_TRACE(s.key);
    for (Precision p : {Precision::kTf32, Precision::kFp16, Precision::kBf16, Precision::kFp8}) {
      if (std::optional<double> m = s.matrix.of(p)) {
        EXPECT_GE(*m, *s.vector.fp32) << toText(p);
      }
    }
    if (s.matrix.fp64 && s.vector.fp64) {
      EXPECT_GE(*s.matrix.fp64, *s.vector.fp64);
    }
    if (s.matrix.fp32) {
      EXPECT_GE(*s.matrix.fp32, *s.vector.fp32);
    }
  }
}

// Dense tensor rates double at each halving of the input width on every part
// in the table (TF32 : FP16 : FP8 = 1 : 2 : 4; BF16 = FP16). A sparse figure
// stored undivided, or a dense one divided, breaks one of these ratios.
TEST(DeviceSpecTable, TensorRatesKeepTheirRatios) {
  for (const DeviceSpec& s : deviceSpecs()) {
    SCOPED_TRACE(s.key);
    const PrecisionPeaks& m = s.matrix;
    ASSERT_TRUE(m.fp16.has_value());
    if (m.bf16) {
      EXPECT_DOUBLE_EQ(*m.bf16, *m.fp16);
    }
    if (m.tf32) {
      EXPECT_GE(*m.tf32 / *m.fp16, 0.48);
      EXPECT_LE(*m.tf32 / *m.fp16, 0.52);
    }
    if (m.fp8) {
      EXPECT_GE(*m.fp8 / *m.fp16, 1.95);
      EXPECT_LE(*m.fp8 / *m.fp16, 2.05);
    }
  }
}

// The ridge point of every GPU since Volta lies between a few and a few
// hundred FLOP per byte; outside 1..1000 a figure is off by a unit.
TEST(DeviceSpecTable, RidgePointsArePlausible) {
  for (const DeviceSpec& s : deviceSpecs()) {
    for (Precision p : kAllPrecisions) {
      std::optional<double> ridge = s.ridgeFlopsPerByte(p);
      if (!ridge) continue;
      EXPECT_GE(*ridge, 1.0) << s.key << " " << toText(p);
      EXPECT_LE(*ridge, 1000.0) << s.key << " " << toText(p);
    }
  }
}

TEST(DeviceSpecTable, PeakIsTheHigherOfTensorAndNonTensor) {
  const DeviceSpec& a100 = *findDeviceSpecByName("a100-sxm4-40gb")->spec;
  EXPECT_DOUBLE_EQ(*a100.peakFlopsPerS(Precision::kFp64), 19.5e12);  // FP64 tensor
  EXPECT_DOUBLE_EQ(*a100.peakFlopsPerS(Precision::kFp32), 19.5e12);  // no FP32 tensor
  EXPECT_DOUBLE_EQ(*a100.peakFlopsPerS(Precision::kBf16), 312e12);
  EXPECT_FALSE(a100.peakFlopsPerS(Precision::kFp8).has_value());  // Ampere has no FP8
  EXPECT_NEAR(*a100.ridgeFlopsPerByte(Precision::kBf16), 312e12 / 1555e9, 1e-9);
  const DeviceSpec& v100 = *findDeviceSpecByName("v100-sxm2-32gb")->spec;
  EXPECT_FALSE(v100.peakFlopsPerS(Precision::kBf16).has_value());
  EXPECT_FALSE(v100.peakFlopsPerS(Precision::kTf32).has_value());
}

TEST(DeviceSpecTable, SparseDatasheetFiguresAreHalved) {
  // H100 SXM datasheet: "BF16 Tensor Core 1,979 teraFLOPS*", * = with sparsity.
  EXPECT_DOUBLE_EQ(*findDeviceSpecByName("h100-sxm")->spec->matrix.bf16, 989.5e12);
  // L4 datasheet prints sparse figures only: "FP8 Tensor Core 485 teraFLOPS*".
  EXPECT_DOUBLE_EQ(*findDeviceSpecByName("l4")->spec->matrix.fp8, 242.5e12);
  // AMD prints dense figures: MI300X "FP16 1307.4 TFLOPs".
  EXPECT_DOUBLE_EQ(*findDeviceSpecByName("mi300x")->spec->matrix.fp16, 1307.4e12);
}

TEST(DeviceSpecTable, Mi250RowsDescribeOneGraphicsComputeDie) {
  const DeviceSpec& mi250 = *findDeviceSpecByName("mi250")->spec;
  EXPECT_EQ(mi250.devices_per_package, 2);
  EXPECT_EQ(mi250.sm_count, 104);  // 208 CUs per package
  EXPECT_DOUBLE_EQ(*mi250.matrix.fp16, 362.1e12 / 2);
  EXPECT_EQ(mi250.memory_bytes, int64_t{64} << 30);
}

TEST(DeviceSpecTable, LinksAreNamedAndPerDirection) {
  const DeviceSpec& h100 = *findDeviceSpecByName("h100-sxm")->spec;
  ASSERT_TRUE(h100.peer_link.has_value());
  EXPECT_EQ(toText(h100.peer_link->kind), "NVLink 4");
  EXPECT_DOUBLE_EQ(h100.peer_link->bytes_per_s, 450e9);  // "NVLink: 900GB/s", both directions
  EXPECT_FALSE(h100.peer_link->needs_bridge);
  EXPECT_EQ(toText(h100.host_link.kind), "PCIe Gen5 x16");
  EXPECT_DOUBLE_EQ(h100.host_link.bytes_per_s, 64e9);
  const DeviceSpec& a100_pcie = *findDeviceSpecByName("a100-pcie-80gb")->spec;
  EXPECT_TRUE(a100_pcie.peer_link->needs_bridge);
  EXPECT_FALSE(findDeviceSpecByName("l40s")->spec->peer_link.has_value());
}

TEST(DeviceSpecTable, PrecisionNamesRoundTrip) {
  for (Precision p : kAllPrecisions) EXPECT_EQ(precisionFromText(toText(p)), p);
  EXPECT_EQ(precisionFromText("BF16"), Precision::kBf16);
  EXPECT_FALSE(precisionFromText("int8").has_value());
}

// --- Names as the sources print them ---------------------------------------

TEST(DeviceSpecMatch, ReportedNamesFromCudaKinetoNsysAndRocm) {
  struct Case {
    const char* name;
    const char* key;
  };
  const Case cases[] = {
      // cudaDeviceProp::name (Kineto's deviceProperties copy it).
      {"Tesla V100-PCIE-16GB", "v100-pcie-16gb"},
      {"Tesla V100-PCIE-32GB", "v100-pcie-32gb"},
      {"Tesla V100-SXM2-16GB", "v100-sxm2-16gb"},
      {"Tesla V100-SXM2-32GB", "v100-sxm2-32gb"},
      {"Tesla V100S-PCIE-32GB", "v100s-pcie-32gb"},
      {"Tesla V100-DGXS-32GB", "v100-dgxs-32gb"},
      {"Tesla T4", "t4"},
      {"NVIDIA A10", "a10"},
      {"NVIDIA A10G", "a10g"},
      {"NVIDIA A30", "a30"},
      {"NVIDIA A40", "a40"},
      {"NVIDIA A100-PCIE-40GB", "a100-pcie-40gb"},
      {"NVIDIA A100 80GB PCIe", "a100-pcie-80gb"},
      {"NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb"},
      {"NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb"},
      {"NVIDIA L4", "l4"},
      {"NVIDIA L40", "l40"},
      {"NVIDIA L40S", "l40s"},
      {"NVIDIA GeForce RTX 3090", "rtx-3090"},
      {"NVIDIA GeForce RTX 4090", "rtx-4090"},
      {"NVIDIA RTX A6000", "rtx-a6000"},
      {"NVIDIA H100 PCIe", "h100-pcie"},
      {"NVIDIA H100 80GB HBM3", "h100-sxm"},
      {"NVIDIA H100 NVL", "h100-nvl"},
      {"NVIDIA H200", "h200-sxm"},
      {"NVIDIA H200 NVL", "h200-nvl"},
      {"NVIDIA GH200 480GB", "gh200-96gb"},
      {"NVIDIA GH200 144G HBM3e", "gh200-144gb"},
      {"NVIDIA B200", "b200"},
      // Older drivers and CUDA versions without the vendor word.
      {"GeForce RTX 3090", "rtx-3090"},
      {"A100-SXM4-80GB", "a100-sxm4-80gb"},
      // nsys TARGET_INFO_GPU as some exports print it; case and separators vary.
      {"A100-SXM4-40GB", "a100-sxm4-40gb"},
      {"a100 sxm4 40gb", "a100-sxm4-40gb"},
      {"NVIDIA_A100_SXM4_40GB", "a100-sxm4-40gb"},
      // Board names.
      {"NVIDIA A100-PG509-200", "a100-sxm4-40gb"},
      {"NVIDIA PG509-210", "a100-sxm4-80gb"},
      // ROCm (hipDeviceProp_t::name).
      {"AMD Instinct MI250X", "mi250x"},
      {"AMD Instinct MI250", "mi250"},
      {"AMD Instinct MI300X", "mi300x"},
  };
  for (const Case& c : cases) EXPECT_EQ(keyOf(named(c.name)), c.key) << c.name;
}

TEST(DeviceSpecMatch, SaysHowItMatched) {
  std::optional<DeviceSpecMatch> exact = findDeviceSpec(named("Tesla V100-SXM2-16GB"));
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->basis, MatchBasis::kExactName);
  EXPECT_FALSE(exact->ambiguous);

  std::optional<DeviceSpecMatch> board = findDeviceSpec(named("NVIDIA A100-PG509-200"));
  ASSERT_TRUE(board);
  EXPECT_EQ(board->basis, MatchBasis::kBoardName);
  EXPECT_EQ(toText(board->basis), "board name");
  EXPECT_EQ(board->describe(), "A100 SXM4 40GB (matched by board name PG509-200)");
}

TEST(DeviceSpecMatch, RocmGenericNameMatchesByGfxVersionCuCountAndMemory) {
  // What Kineto recorded on an MI250 under ROCm 6.2 (the shared trace).
  DeviceFacts facts = named("AMD Radeon Graphics");
  facts.vendor = "amd";
  facts.memory_bytes = 68702699520;
  facts.sm_count = 104;
  facts.compute_major = 9;
  facts.compute_minor = 0;
  facts.warp_size = 64;
  std::optional<DeviceSpecMatch> m = findDeviceSpec(facts);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->spec->key, "mi250");
  EXPECT_EQ(m->basis, MatchBasis::kDeviceFacts);
  EXPECT_FALSE(m->ambiguous);
  EXPECT_EQ(m->describe(), "MI250 (one GCD) (matched by gfx 9.0, 104 CUs, 64.0 GiB)");

  facts.sm_count = 110;  // an MI250X die
  EXPECT_EQ(keyOf(facts), "mi250x");
  facts.sm_count = 304;  // gfx90a with 304 CUs is no part in the table
  EXPECT_EQ(keyOf(facts), "(none)");
  facts.sm_count = 104;
  facts.vendor.clear();  // no vendor: the 64-wide wavefront says AMD
  EXPECT_EQ(keyOf(facts), "mi250");
  facts.sm_count.reset();  // without the CU count the name says nothing
  EXPECT_EQ(keyOf(facts), "(none)");
}

TEST(DeviceSpecMatch, RocmCombinedNameIsToldApartByCuCount) {
  // Recent ROCm names both CDNA 2 OAM parts "AMD Instinct MI250X / MI250".
  DeviceFacts facts = named("AMD Instinct MI250X / MI250");
  facts.sm_count = 110;
  EXPECT_EQ(keyOf(facts), "mi250x");
  facts.sm_count = 104;
  EXPECT_EQ(keyOf(facts), "mi250");
  facts.sm_count.reset();
  std::optional<DeviceSpecMatch> m = findDeviceSpec(facts);
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->ambiguous);
  EXPECT_EQ(m->spec->key, "mi250");  // the lower peak
}

TEST(DeviceSpecMatch, FamilyNameIsDisambiguatedByMemorySize) {
  DeviceFacts facts = named("NVIDIA A100-SXM4");
  facts.memory_bytes = 85198045184;  // what CUDA reports on an 80 GB A100
  std::optional<DeviceSpecMatch> m = findDeviceSpec(facts);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->spec->key, "a100-sxm4-80gb");
  EXPECT_EQ(m->basis, MatchBasis::kMemorySize);
  EXPECT_FALSE(m->ambiguous);

  // "NVIDIA H100" (a PCI id the driver names so): the 94 GB part by memory.
  facts = named("NVIDIA H100");
  facts.memory_bytes = int64_t{95830} << 20;
  EXPECT_EQ(keyOf(facts), "h100-nvl");
}

TEST(DeviceSpecMatch, AmbiguousNameTakesTheLowerPeakAndSaysSo) {
  std::optional<DeviceSpecMatch> m = findDeviceSpec(named("A100"));
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->ambiguous);
  EXPECT_EQ(m->basis, MatchBasis::kNamePattern);
  EXPECT_EQ(m->candidates.size(), 4u);
  EXPECT_EQ(m->spec->key, "a100-pcie-40gb");  // 1,555 GB/s, the lowest bandwidth
  EXPECT_NE(m->describe().find("ambiguous"), std::string::npos);
}

TEST(DeviceSpecMatch, NamesOfPartsTheTableLacksMatchNothing) {
  for (const char* name : {"NVIDIA GeForce RTX 3090 Ti", "NVIDIA A100-SXM-64GB", "NVIDIA H100 CNX",
                           "Tesla V100-SXM3-32GB", "NVIDIA GeForce RTX 4090 Laptop GPU",
                           "NVIDIA RTX 6000 Ada Generation", "NVIDIA A800-SXM4-80GB",
                           "Tesla P100-PCIE-16GB", "", "AMD Radeon Graphics"}) {
    EXPECT_EQ(keyOf(named(name)), "(none)") << name;
  }
}

// --- Names users give ---------------------------------------------------------

TEST(DeviceSpecByName, ShortForms) {
  struct Case {
    const char* name;
    const char* key;
    bool ambiguous;
  };
  const Case cases[] = {
      {"a100-sxm4-80gb", "a100-sxm4-80gb", false},
      {"A100_SXM4_80GB", "a100-sxm4-80gb", false},
      {"a100-80gb", "a100-pcie-80gb", true},  // SXM4 or PCIe: the slower bandwidth
      {"a100-sxm-80gb", "a100-sxm4-80gb", false},
      {"h100-sxm", "h100-sxm", false},
      {"H100 SXM5", "h100-sxm", false},
      {"h100", "h100-pcie", true},
      {"v100", "v100-pcie-16gb", true},
      {"v100-sxm2", "v100-sxm2-16gb", true},
      {"mi300x", "mi300x", false},
      {"MI250X", "mi250x", false},
      {"rtx4090", "rtx-4090", false},
      {"4090", "rtx-4090", false},
      {"l40s", "l40s", false},
      {"gh200", "gh200-96gb", true},
  };
  for (const Case& c : cases) {
    Result<DeviceSpecMatch> m = findDeviceSpecByName(c.name);
    ASSERT_TRUE(m.ok()) << c.name << ": " << m.error().message();
    EXPECT_EQ(m->spec->key, c.key) << c.name;
    EXPECT_EQ(m->ambiguous, c.ambiguous) << c.name;
  }
}

TEST(DeviceSpecByName, EveryRowAnswersToItsShortAndCanonicalName) {
  for (const DeviceSpec& s : deviceSpecs()) {
    for (std::string_view name : {s.key, s.name}) {
      Result<DeviceSpecMatch> m = findDeviceSpecByName(name);
      ASSERT_TRUE(m.ok()) << name << ": " << m.error().message();
      EXPECT_EQ(m->spec, &s) << name;
      EXPECT_EQ(m->basis, MatchBasis::kExactName) << name;
      EXPECT_FALSE(m->ambiguous) << name;
    }
  }
}

TEST(DeviceSpecByName, UnknownNameListsCloseNames) {
  Result<DeviceSpecMatch> m = findDeviceSpecByName("h100-pcie-94gb");
  ASSERT_FALSE(m.ok());
  const std::string& message = m.error().message();
  EXPECT_NE(message.find("\"h100-pcie-94gb\""), std::string::npos) << message;
  EXPECT_NE(message.find("h100-pcie"), std::string::npos) << message;
  EXPECT_NE(message.find("h100-nvl"), std::string::npos) << message;

  m = findDeviceSpecByName("a6000");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->spec->key, "rtx-a6000");

  m = findDeviceSpecByName("tpu-v5e");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message().find("close names:"), std::string::npos);
}

// --- The shared real traces ------------------------------------------------------

// Each shared trace's devices, as their files name them, and the row each must
// match (docs/devices.md lists the same).
TEST(DeviceSpecSharedTraces, EveryTraceDeviceMatchesItsRow) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  struct Case {
    const char* file;
    const char* key;
    MatchBasis basis;
  };
  const Case cases[] = {
      {"kineto/resnet50_workers0.pt.trace.json.gz", "v100-dgxs-32gb", MatchBasis::kExactName},
      {"kineto/resnet50_workers4.pt.trace.json.gz", "v100-dgxs-32gb", MatchBasis::kExactName},
      {"kineto/v100_rank1.json.gz", "v100-sxm2-32gb", MatchBasis::kExactName},
      {"kineto/ns_resolution_v100.json.gz", "v100-sxm2-32gb", MatchBasis::kExactName},
      {"kineto/diff_test_v100.json.gz", "v100-sxm2-16gb", MatchBasis::kExactName},
      {"kineto/diff_control_a100.json.gz", "a100-sxm4-40gb", MatchBasis::kBoardName},
      {"kineto/nccl_2rank_a100.json.gz", "a100-sxm4-40gb", MatchBasis::kBoardName},
      {"kineto/cupti_flop_counters_a100.json.gz", "a100-sxm4-40gb", MatchBasis::kBoardName},
      {"kineto/simple_add_a100.json.gz", "a100-sxm4-40gb", MatchBasis::kBoardName},
      {"kineto/mi250_rocm_small.json.gz", "mi250", MatchBasis::kDeviceFacts},
      {"nsys/saxpy_mpi_a100_nsys2022.sqlite", "a100-sxm4-40gb", MatchBasis::kExactName},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    Result<TraceTables> tables = importTrace(testing::sharedTrace(c.file));
    ASSERT_TRUE(tables.ok()) << tables.error().message();
    ASSERT_GT(tables->devices.size(), 0u);
    for (size_t row = 0; row < tables->devices.size(); ++row) {
      DeviceFacts facts = deviceFactsOf(*tables, row);
      std::optional<DeviceSpecMatch> m = findDeviceSpec(facts);
      ASSERT_TRUE(m) << facts.name;
      EXPECT_EQ(m->spec->key, c.key) << facts.name;
      EXPECT_EQ(m->basis, c.basis) << facts.name;
      EXPECT_FALSE(m->ambiguous) << facts.name;
      // The trace's memory size agrees with the row it matched by name.
      ASSERT_TRUE(facts.memory_bytes.has_value());
      EXPECT_GE(static_cast<double>(*facts.memory_bytes), 0.85 * m->spec->memory_bytes);
      EXPECT_LE(static_cast<double>(*facts.memory_bytes), 1.02 * m->spec->memory_bytes);
      EXPECT_EQ(facts.sm_count, m->spec->sm_count);
      EXPECT_EQ(facts.compute_major, m->spec->compute_major);
    }
  }
}

TEST(DeviceSpecSharedTraces, CpuOnlyTraceHasNoDeviceToMatch) {
  DAMSCOPE_REQUIRE_SHARED_TRACES();
  Result<TraceTables> tables = importTrace(testing::sharedTrace("kineto/cpu_only.json.gz"));
  ASSERT_TRUE(tables.ok()) << tables.error().message();
  EXPECT_EQ(tables->devices.size(), 0u);
}

}  // namespace
}  // namespace damscope
