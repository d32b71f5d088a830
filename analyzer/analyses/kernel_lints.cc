// Lints on recorded kernels: see kernel_lints.h.
#include "analyzer/analyses/kernel_lints.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>

#include "analyzer/analyses/op_shapes.h"
#include "analyzer/analyses/wave_quantization.h"

namespace damscope {
namespace {

// A misaligned GEMM falls back, at worst, to code without tensor cores: the
// fp32_matrix_math rule's bound (V100: 15.7 TFLOP/s FP32 against 125 on
// tensor cores, so at most 7/8 of its time can go; NVIDIA Deep Learning
// Performance Guide, "Tensor Core Requirements").
constexpr double kMisalignedGainShare = 0.875;
// FlashAttention runs GPT-2's attention up to 7.6 times faster than the
// materialised version (Dao et al., "FlashAttention", NeurIPS 2022, section
// 4.1): at most 1 - 1/7.6 of the pattern's time goes.
constexpr double kAttentionGainShare = 1.0 - 1.0 / 7.6;

// The kernels of the analysis: the primary device's, in the window, not
// collectives and not a CPU run's ops; as indexes into AnalysisInput::gpu().
std::vector<size_t> lintedKernels(const AnalysisInput& in, const WindowReport& window,
                                  int32_t device) {
  std::vector<size_t> out;
  const std::vector<GpuOp>& gpu = in.gpu();
  for (size_t i = 0; i < gpu.size(); ++i) {
    const GpuOp& op = gpu[i];
    if (op.kind != GpuOpKind::kKernel || !window.in_window[i] || op.device != device ||
        in.onCpu(op) || op.category == KernelCategory::kCommunication) {
      continue;
    }
    out.push_back(i);
  }
  return out;
}

int64_t durationOf(const GpuOp& op) {
  return op.end - op.ts;
}

// Evidence grouped by kernel name and reading: the longest run of each,
// groups by the lint's time in them.
class EvidenceGroups {
 public:
  // `unit`: what a group counts ("launches", "runs").
  explicit EvidenceGroups(std::string unit = "launches") : unit_(std::move(unit)) {}
  void add(const TraceTables& t, int64_t row, int64_t dur, const std::string& key,
           std::string detail) {
    Group& g = groups_[{t.kernels.name[static_cast<size_t>(row)].value, key}];
    g.time_ns += dur;
    ++g.count;
    if (dur > g.longest_ns) g.longest_ns = dur, g.row = row, g.detail = std::move(detail);
  }
  std::vector<LintEvidence> take() {
    std::vector<const Group*> order;
    for (const auto& [key, g] : groups_) order.push_back(&g);
    std::stable_sort(order.begin(), order.end(),
                     [](const Group* a, const Group* b) { return a->time_ns > b->time_ns; });
    std::vector<LintEvidence> out;
    out.reserve(order.size());
    for (const Group* g : order) {
      out.push_back({g->row, g->count > 1
                                 ? fmt::format("{}; {} {} like it", g->detail, g->count, unit_)
                                 : g->detail});
    }
    return out;
  }

 private:
  struct Group {
    int64_t time_ns = 0;
    int64_t longest_ns = -1;
    int64_t row = 0;
    int64_t count = 0;
    std::string detail;
  };
  std::string unit_;
  std::map<std::pair<int32_t, std::string>, Group> groups_;
};

// --- wave quantization -----------------------------------------------------

int32_t maxThreadsPerSm(const TraceTables& t, int32_t device) {
  const DeviceTable& d = t.devices;
  for (size_t i = 0; i < d.size(); ++i) {
    if (d.device[i] == device && !isNull(d.max_threads_per_sm[i]) && d.max_threads_per_sm[i] > 0) {
      return d.max_threads_per_sm[i];
    }
  }
  return 0;
}

bool positive(int32_t v) {
  return !isNull(v) && v > 0;
}

void waveTails(const AnalysisInput& in, const std::vector<size_t>& kernels, int32_t device,
               KernelLintReport& report) {
  const TraceTables& t = in.tables();
  const KernelTable& k = t.kernels;
  const int32_t sms = in.smCount(device);
  const int32_t max_threads = maxThreadsPerSm(t, device);
  if (sms <= 0) return;
  EvidenceGroups evidence;
  int64_t assumed_count = 0, read_count = 0;
  KernelLint& lint = report.wave_tail;
  for (size_t i : kernels) {
    const GpuOp& op = in.gpu()[i];
    // A memory-bound kernel's partial wave still draws most of the memory
    // bandwidth: its tail costs less than its empty slots say.
    if (op.work != GpuWork::kComputeBound) continue;
    const size_t r = static_cast<size_t>(op.row);
    if (!positive(k.grid_x[r]) || !positive(k.grid_y[r]) || !positive(k.grid_z[r]) ||
        !positive(k.block_x[r]) || !positive(k.block_y[r]) || !positive(k.block_z[r])) {
      continue;
    }
    lint.known = true;
    ++read_count;
    const double blocks = static_cast<double>(k.grid_x[r]) * k.grid_y[r] * k.grid_z[r];
    const double threads = static_cast<double>(k.block_x[r]) * k.block_y[r] * k.block_z[r];
    const double occupancy = k.occupancy_pct[r];
    double per_sm = 1;
    bool assumed = true;
    if (!isNull(occupancy) && occupancy > 0 && max_threads > 0) {
      const double resident = occupancy / 100.0 * max_threads / threads;
      // Half a percent: Kineto's rounding of the occupancy to an integer.
      const double tolerance = 0.005 * max_threads / threads + 1e-9;
      if (resident >= blocks / sms - tolerance) continue;  // the grid fits in one wave
      per_sm = std::max(1.0, std::round(resident));
      assumed = false;
    }
    if (assumed) ++assumed_count;
    const double slots = sms * per_sm;
    const double waves = blocks / slots;
    const double tail = waves - std::floor(waves);
    if (!(waves > 1 && waves < kMaxTailWaves) || tail <= 0 || tail >= 0.5) continue;
    const int64_t dur = durationOf(op);
    lint.time_ns += dur;
    lint.gain_ns += static_cast<double>(dur) * (1.0 - waveUtilization(blocks, slots));
    const std::string reading =
        fmt::format("{:.2f} waves: {:.0f} blocks on {} SMs x {:.0f} block{} per SM{}", waves,
                    blocks, sms, per_sm, per_sm == 1 ? "" : "s", assumed ? " (assumed)" : "");
    evidence.add(t, op.row, dur, reading, reading);
  }
  lint.evidence = evidence.take();
  if (assumed_count > 0) {
    report.notes.push_back(fmt::format(
        "{} of {} compute-bound kernels have no occupancy in the trace: the wave lint assumed "
        "one resident block per SM for them, which overstates their waves when more blocks fit",
        assumed_count, read_count));
  }
}

// --- tensor-core alignment -------------------------------------------------

// The dims a GEMM or convolution's tensor-core tiles need aligned, and its
// element size.
struct GemmShape {
  std::vector<std::pair<const char*, double>> dims;  // ("M", 8192), ("C_in", 3), ...
  double element_bytes = 0;
};

const OpInput* tensorAt(const std::vector<OpInput>& in, size_t i) {
  return i < in.size() && in[i].kind == OpInput::Kind::kTensor ? &in[i] : nullptr;
}

double product(const Dims& d, size_t from, size_t to) {
  double p = 1;
  for (size_t i = from; i < to; ++i) p *= d[i];
  return p;
}

std::optional<GemmShape> gemmShapeOf(const RecordedOp& op) {
  const std::string& n = op.base;
  const bool bias_first = n == "addmm" || n == "baddbmm" || n == "_addmm_activation";
  if (n == "mm" || n == "bmm" || n == "matmul" || n == "linear" || bias_first) {
    const size_t first = bias_first ? 1 : 0;
    const OpInput* a = tensorAt(op.inputs, first);
    const OpInput* b = tensorAt(op.inputs, first + 1);
    if (!a || !b || a->dims.size() < 2 || b->dims.size() < 2) return std::nullopt;
    const Dims& x = a->dims;
    const Dims& w = b->dims;
    if (n == "linear") {
      // input [.., K] x weight [N, K]^T: the leading dims fold into M.
      if (w.size() != 2) return std::nullopt;
      return GemmShape{{{"M", product(x, 0, x.size() - 1)}, {"N", w[0]}, {"K", x.back()}},
                       a->element_bytes};
    }
    // A matmul of a batch by a matrix folds the batch into M, as
    // torch.matmul does; batched products keep their batch apart.
    const double m = n == "matmul" && w.size() == 2 ? product(x, 0, x.size() - 1) : x[x.size() - 2];
    return GemmShape{{{"M", m}, {"N", w.back()}, {"K", x.back()}}, a->element_bytes};
  }
  const bool forward_conv = n == "convolution" || n == "_convolution" || n == "conv1d" ||
                            n == "conv2d" || n == "conv3d" || n == "cudnn_convolution" ||
                            n == "cudnn_convolution_relu" || n == "cudnn_convolution_add_relu";
  // convolution_backward(grad_output, input, weight, ...).
  const size_t x_at = n == "convolution_backward" ? 1 : 0;
  if (forward_conv || n == "convolution_backward") {
    const OpInput* x = tensorAt(op.inputs, x_at);
    const OpInput* w = tensorAt(op.inputs, x_at + 1);
    if (!x || !w || x->dims.size() < 3 || w->dims.size() != x->dims.size()) return std::nullopt;
    return GemmShape{{{"C_in", x->dims[1]}, {"C_out", w->dims[0]}}, x->element_bytes};
  }
  return std::nullopt;
}

// The multiple of elements the tensor cores need, or 0 when they are not the
// kernel's path: 16 bytes, i.e. 8 FP16/BF16 elements, 16 8-bit ones; TF32
// needs 4 FP32 elements, and only a kernel whose name says TF32 (or tensor
// cores) uses it.
double requiredMultiple(double element_bytes, MathPath path) {
  if (element_bytes == 2) return 8;
  if (element_bytes == 1) return 16;
  if (element_bytes == 4 && path == MathPath::kTensorCore) return 4;
  return 0;
}

// The next multiple of 64 (the tile size that runs best; NVIDIA, "Matrix
// Multiplication Background", "Dimension Quantization Effects"), e.g. GPT-2's
// vocabulary of 50257 -> 50304.
double paddedTo64(double v) {
  return std::ceil(v / 64) * 64;
}

std::string alignmentReading(std::string_view op_name, const GemmShape& s, double multiple) {
  std::string dims, off;
  for (const auto& [name, value] : s.dims) {
    dims += fmt::format("{}{}={:.0f}", dims.empty() ? "" : ", ", name, value);
    if (std::fmod(value, multiple) != 0) {
      off += fmt::format("{}{} {:.0f} -> {:.0f}", off.empty() ? "" : ", ", name, value,
                         paddedTo64(value));
    }
  }
  if (off.empty()) return "";
  return fmt::format("{} [{}], {}-byte elements: not multiples of {}; pad {}", op_name, dims,
                     s.element_bytes, multiple, off);
}

void misalignedGemms(const AnalysisInput& in, const std::vector<size_t>& kernels,
                     const KernelWorkReport& work, KernelLintReport& report) {
  const TraceTables& t = in.tables();
  std::unordered_map<int64_t, int64_t> op_of;  // kernels row -> ranges row of its FLOPs
  for (const KernelWork& w : work.kernels) {
    if (w.range != kNullInt && w.model_math) op_of.emplace(w.kernel, w.range);
  }
  // Ops repeat a few shapes every layer and step: each (name, args) is read once.
  std::unordered_map<std::string, std::optional<GemmShape>> shapes;
  EvidenceGroups evidence;
  KernelLint& lint = report.misaligned_gemm;
  for (size_t i : kernels) {
    const GpuOp& op = in.gpu()[i];
    if (op.category != KernelCategory::kGemm && op.category != KernelCategory::kConvolution) {
      continue;
    }
    const StringId kernel_name = t.kernels.name[static_cast<size_t>(op.row)];
    const MathPath path = in.kernels().mathPath(kernel_name);
    if (path == MathPath::kFp32Simt) continue;  // the fp32_matrix_math rule's
    const auto it = op_of.find(op.row);
    if (it == op_of.end()) continue;
    const size_t range = static_cast<size_t>(it->second);
    const std::string_view op_name = t.strings.get(t.ranges.name[range]);
    const std::string& args = t.ranges.args[range];
    std::string key = std::string(op_name) + '\n' + args;
    auto [cached, inserted] = shapes.try_emplace(std::move(key));
    if (inserted) {
      if (std::optional<RecordedOp> recorded = recordedOp(op_name, args)) {
        cached->second = gemmShapeOf(*recorded);
      }
    }
    if (!cached->second) continue;
    const double multiple = requiredMultiple(cached->second->element_bytes, path);
    if (multiple == 0) continue;
    const int64_t dur = durationOf(op);
    report.shaped_gemm_ns += dur;
    lint.known = true;
    const std::string reading = alignmentReading(op_name, *cached->second, multiple);
    if (reading.empty()) continue;
    lint.time_ns += dur;
    lint.gain_ns += static_cast<double>(dur) * kMisalignedGainShare;
    evidence.add(t, op.row, dur, reading, reading);
  }
  lint.evidence = evidence.take();
}

// --- materialised attention ------------------------------------------------

bool containsNoCase(std::string_view text, std::string_view word) {
  return std::search(text.begin(), text.end(), word.begin(), word.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         }) != text.end();
}

// The window's kernels by stream, each stream in time order.
std::map<int64_t, std::vector<size_t>> byStream(const AnalysisInput& in,
                                                const std::vector<size_t>& kernels) {
  std::map<int64_t, std::vector<size_t>> out;
  for (size_t i : kernels) out[in.gpu()[i].stream].push_back(i);
  return out;
}

void materialisedAttention(const AnalysisInput& in, const std::vector<size_t>& kernels,
                           const KernelWorkReport& work, KernelLintReport& report) {
  const TraceTables& t = in.tables();
  KernelLint& lint = report.attention;
  if (kernels.empty()) return;
  lint.known = true;
  for (size_t i : kernels) {
    if (in.gpu()[i].category == KernelCategory::kAttention) return;  // fused attention is used
  }
  std::unordered_map<int64_t, int64_t> op_of;
  for (const KernelWork& w : work.kernels) {
    if (w.range != kNullInt) op_of.emplace(w.kernel, w.range);
  }
  auto batchedGemm = [&](size_t i) {
    const GpuOp& op = in.gpu()[i];
    if (op.category != KernelCategory::kGemm) return false;
    const size_t r = static_cast<size_t>(op.row);
    if (containsNoCase(t.strings.get(t.kernels.name[r]), "batched")) return true;
    if (!isNull(t.kernels.grid_z[r]) && t.kernels.grid_z[r] > 1) return true;
    const auto it = op_of.find(op.row);
    if (it == op_of.end()) return false;
    const std::string_view name = t.strings.get(t.ranges.name[static_cast<size_t>(it->second)]);
    return name == "aten::bmm" || name == "aten::baddbmm" || name == "aten::matmul";
  };
  auto softmax = [&](size_t i) {
    return containsNoCase(t.strings.get(t.kernels.name[static_cast<size_t>(in.gpu()[i].row)]),
                          "softmax");
  };
  std::vector<char> counted(in.gpu().size(), 0);
  EvidenceGroups evidence;
  for (const auto& [stream, list] : byStream(in, kernels)) {
    for (size_t p = 0; p < list.size(); ++p) {
      if (!softmax(list[p])) continue;
      std::optional<size_t> before, after;
      for (size_t d = 1; d <= kMaxAttentionGap + 1 && d <= p && !before; ++d) {
        if (batchedGemm(list[p - d])) before = p - d;
      }
      for (size_t d = 1; d <= kMaxAttentionGap + 1 && p + d < list.size() && !after; ++d) {
        if (batchedGemm(list[p + d])) after = p + d;
      }
      if (!before || !after) continue;
      for (size_t q = *before; q <= *after; ++q) {
        const size_t i = list[q];
        if (counted[i]) continue;
        counted[i] = 1;
        lint.time_ns += durationOf(in.gpu()[i]);
      }
      const GpuOp& op = in.gpu()[list[p]];
      const std::string reading =
          fmt::format("softmax between batched GEMMs on stream {}, {} kernels from first to last",
                      stream, *after - *before + 1);
      evidence.add(t, op.row, durationOf(op), reading, reading);
    }
  }
  lint.gain_ns = static_cast<double>(lint.time_ns) * kAttentionGainShare;
  lint.evidence = evidence.take();
}

// --- elementwise chains ----------------------------------------------------

void elementwiseChains(const AnalysisInput& in, const std::vector<size_t>& kernels,
                       const KernelLintOptions& options, KernelLintReport& report) {
  const TraceTables& t = in.tables();
  KernelLint& lint = report.elementwise_chains;
  if (kernels.empty()) return;
  lint.known = true;
  EvidenceGroups evidence("runs");
  auto link = [&](size_t i) {
    const GpuOp& op = in.gpu()[i];
    return op.category == KernelCategory::kElementwise &&
           durationOf(op) < options.short_elementwise_ns;
  };
  for (const auto& [stream, list] : byStream(in, kernels)) {
    size_t p = 0;
    while (p < list.size()) {
      size_t end = p;
      while (end < list.size() && link(list[end])) ++end;
      const size_t n = end - p;
      if (n >= kMinChain) {
        int64_t chain_ns = 0;
        std::string key;
        for (size_t q = p; q < end; ++q) {
          const GpuOp& op = in.gpu()[list[q]];
          chain_ns += durationOf(op);
          key += std::to_string(t.kernels.name[static_cast<size_t>(op.row)].value) + ',';
        }
        lint.time_ns += chain_ns;
        // n kernels of equal bytes fused into one move 1/n of their bytes.
        lint.gain_ns +=
            static_cast<double>(chain_ns) * static_cast<double>(n - 1) / static_cast<double>(n);
        evidence.add(
            t, in.gpu()[list[p]].row, chain_ns, key,
            fmt::format("first of {} consecutive elementwise kernels on stream {}", n, stream));
      }
      p = std::max(end, p + 1);
    }
  }
  lint.evidence = evidence.take();
}

}  // namespace

KernelLintReport computeKernelLints(const AnalysisInput& input, const WindowReport& window,
                                    const KernelWorkReport& work, int32_t device,
                                    const KernelLintOptions& options) {
  KernelLintReport report;
  const std::vector<size_t> kernels = lintedKernels(input, window, device);
  waveTails(input, kernels, device, report);
  misalignedGemms(input, kernels, work, report);
  materialisedAttention(input, kernels, work, report);
  elementwiseChains(input, kernels, options, report);
  return report;
}

}  // namespace damscope
