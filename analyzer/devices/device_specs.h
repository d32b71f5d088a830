// The device spec table: each GPU's peak arithmetic rate per precision, its
// memory bandwidth and its links, as the vendors' datasheets print them, and
// the matching of a trace's device (its name, memory size, SM/CU count,
// compute capability) to a row. MFU divides by the peak; the roofline draws
// its ceilings from the peaks and the bandwidth (Williams, Waterman, Patterson,
// "Roofline", CACM 2009); the network ceiling of collectives comes from the
// peer link.
//
// Conventions of the table (device_specs.cc holds the rows, each citing its
// datasheet; docs/devices.md lists them):
// - A row describes one device as CUDA/HIP enumerates it. An MI250/MI250X
//   package is two graphics compute dies that ROCm shows as two devices, so
//   its row holds half of the package figures (devices_per_package = 2).
// - Peaks are dense: NVIDIA datasheets print most tensor figures "with
//   sparsity" (an asterisk); the table holds half of those.
// - FP16 and BF16 tensor peaks are with FP32 accumulate, the mode training
//   uses (GeForce parts run it at half their FP16-accumulate rate).
// - `vector` is the non-tensor (CUDA core / SIMD) rate, `matrix` the tensor
//   core / matrix core rate. An absent figure means the part has no such
//   unit or its vendor prints no figure for it — never 0 and never a guess.
// - Memory sizes are the datasheet's "GB", which for GPU memory is GiB; CUDA
//   reports a little less (the driver's reservation).
// - Link bandwidths are per direction, summed over all of the device's links
//   of that kind (datasheets print NVLink and PCIe as both directions added).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "trace/enums.h"
#include "base/result.h"
#include "trace/tables.h"

namespace damscope {

#define DAMSCOPE_PRECISIONS(X) \
  X(kFp64, "fp64")             \
  X(kFp32, "fp32")             \
  X(kTf32, "tf32")             \
  X(kFp16, "fp16")             \
  X(kBf16, "bf16")             \
  X(kFp8, "fp8")

#define DAMSCOPE_PRECISION_VALUE(value, text) value,
enum class Precision : uint8_t { DAMSCOPE_PRECISIONS(DAMSCOPE_PRECISION_VALUE) };
#undef DAMSCOPE_PRECISION_VALUE

constexpr size_t kPrecisionCount = 6;

std::string_view toText(Precision precision);
// The precision named `text` ("bf16", case-insensitive); nullopt if unknown.
std::optional<Precision> precisionFromText(std::string_view text);

// Peak FLOP/s of one kind of unit, per precision; absent = no figure.
struct PrecisionPeaks {
  std::optional<double> fp64;
  std::optional<double> fp32;
  std::optional<double> tf32;
  std::optional<double> fp16;
  std::optional<double> bf16;
  std::optional<double> fp8;

  std::optional<double> of(Precision precision) const;
};

#define DAMSCOPE_LINK_KINDS(X)  \
  X(kPcieGen3, "PCIe Gen3 x16") \
  X(kPcieGen4, "PCIe Gen4 x16") \
  X(kPcieGen5, "PCIe Gen5 x16") \
  X(kNvlink2, "NVLink 2")       \
  X(kNvlink3, "NVLink 3")       \
  X(kNvlink4, "NVLink 4")       \
  X(kNvlink5, "NVLink 5")       \
  X(kNvlinkC2c, "NVLink-C2C")   \
  X(kInfinityFabric, "Infinity Fabric")

#define DAMSCOPE_LINK_KIND_VALUE(value, text) value,
enum class LinkKind : uint8_t { DAMSCOPE_LINK_KINDS(DAMSCOPE_LINK_KIND_VALUE) };
#undef DAMSCOPE_LINK_KIND_VALUE

std::string_view toText(LinkKind kind);

struct Link {
  LinkKind kind = LinkKind::kPcieGen3;
  double bytes_per_s = 0;  // per direction, all of the device's links of this kind
  // The link exists only with an NVLink bridge between two (or four) cards,
  // which a trace cannot show: a PCIe card's peer link.
  bool needs_bridge = false;
};

struct DeviceSpec {
  std::string_view key;     // the short name users type, unique: "a100-sxm4-40gb"
  std::string_view name;    // canonical, for reports: "A100 SXM4 40GB"
  std::string_view vendor;  // as the devices table writes it: "nvidia", "amd"
  DeviceKind kind = DeviceKind::kGpu;

  // Matching. `names` are the product names the driver reports
  // (cudaDeviceProp::name, hipDeviceProp_t::name), which Kineto's
  // deviceProperties and nsys's TARGET_INFO_GPU copy; `boards` are board
  // names some drivers report instead (the first is the one reports show).
  // `family` ("a100"), `form` ("sxm4", "pcie", "nvl", "oam"; "" for parts
  // with one form) and `memory_gb` are the words a name is read by when it is
  // not one of those spellings.
  std::array<std::string_view, 3> names{};
  std::array<std::string_view, 2> boards{};
  std::string_view family;
  std::string_view form;
  int32_t memory_gb = 0;
  int32_t sm_count = 0;       // SMs (NVIDIA) or CUs (AMD) of one device
  int32_t compute_major = 0;  // CUDA compute capability; HIP's gfx major.minor
  int32_t compute_minor = 0;
  int32_t devices_per_package = 1;

  int64_t memory_bytes = 0;
  PrecisionPeaks vector;  // non-tensor: CUDA cores / SIMD units
  PrecisionPeaks matrix;  // tensor cores / matrix cores, dense
  double memory_bandwidth_bytes_per_s = 0;
  Link host_link;                 // to the host (PCIe, or NVLink-C2C on GH200)
  std::optional<Link> peer_link;  // GPU to GPU, where the part has one
  // The board's maximum power (TDP) in watts, the datasheet's figure (the
  // upper end where the part is configurable): what the planner's energy
  // estimate charges per GPU. 0: not in the table.
  double max_power_w = 0;

  std::string_view source;  // the datasheet the figures come from

  // The highest dense rate at `precision` (tensor or not); nullopt if the
  // part has no figure for it.
  std::optional<double> peakFlopsPerS(Precision precision) const;
  // Roofline ridge point: peak / memory bandwidth, FLOP per byte.
  std::optional<double> ridgeFlopsPerByte(Precision precision) const;
};

// Every row, in table order.
std::span<const DeviceSpec> deviceSpecs();

// What a trace says about a device: the devices table's columns. Absent
// fields are unknown.
struct DeviceFacts {
  std::string name;
  std::string vendor;  // "nvidia", "amd"
  std::optional<int64_t> memory_bytes;
  std::optional<int32_t> sm_count;
  std::optional<int32_t> compute_major;
  std::optional<int32_t> compute_minor;
  std::optional<int32_t> warp_size;
};

// The facts of row `row` of tables.devices.
DeviceFacts deviceFactsOf(const TraceTables& tables, size_t row);

enum class MatchBasis : uint8_t {
  kExactName,    // one of the row's product names, its short or canonical name
  kBoardName,    // a board name the driver reported (A100-PG509-200)
  kNamePattern,  // family, form and memory words of the name
  kMemorySize,   // the name fits several rows; the memory size chose one
  kDeviceFacts,  // a generic name ("AMD Radeon Graphics"): compute
                 // capability, SM/CU count and memory size chose the row
};

std::string_view toText(MatchBasis basis);

struct DeviceSpecMatch {
  const DeviceSpec* spec = nullptr;
  MatchBasis basis = MatchBasis::kExactName;
  // Several rows fit and nothing known told them apart: `spec` is the one with
  // the lowest peak (then the lowest bandwidth), so the headroom a report
  // derives from it (peak over achieved) is not overstated; `candidates`
  // lists them all.
  bool ambiguous = false;
  std::vector<const DeviceSpec*> candidates;
  // How it matched, for a report: "board name PG509-200",
  // "gfx 9.0, 104 CUs, 64.0 GiB".
  std::string evidence;

  // "A100 SXM4 40GB (matched by board name PG509-200)".
  std::string describe() const;
};

// The row for a device seen in a trace. Names are compared case-insensitively,
// without vendor words (NVIDIA, Tesla, GeForce, AMD, Instinct) and ignoring
// spaces, dashes and underscores. Order: exact product, board or short name;
// then the name's family/form/memory words, narrowed by the facts' memory
// size and SM/CU count; for a generic name, the facts alone. nullopt when no
// row fits (a part the table lacks): the caller then needs peaks by hand.
std::optional<DeviceSpecMatch> findDeviceSpec(const DeviceFacts& facts);

// The row for a name a user gave: a short name ("a100-80gb", "h100-sxm",
// "v100", "mi300x") or any spelling findDeviceSpec accepts. A name that fits
// several rows gives the conservative one, marked ambiguous. The error names
// the input and lists the closest short names.
Result<DeviceSpecMatch> findDeviceSpecByName(std::string_view name);

}  // namespace damscope
