// The device spec table: see device_specs.h for its conventions.
//
// Every row cites the datasheet its figures come from (title, and URL where
// there is one) in `source`, and comments say how a printed figure became the
// stored one: NVIDIA marks tensor figures "with sparsity" with an asterisk,
// and the row holds half of them; AMD prints dense figures. Where a vendor
// prints no figure for a precision the field is absent. Names the drivers
// report come from the shared real traces (Tesla V100-SXM2-16GB/-32GB,
// Tesla V100-DGXS-32GB, NVIDIA A100-SXM4-40GB, NVIDIA A100-PG509-200, AMD
// Radeon Graphics) and from the product-name table of NVIDIA's driver
// ("Compatible GPUs" in github.com/NVIDIA/open-gpu-kernel-modules README.md,
// which lists each name with its PCI device id).
#include "analyzer/devices/device_specs.h"

#include <algorithm>
#include <cctype>

namespace damscope {
namespace {

constexpr double tflops(double t) {
  return t * 1e12;
}
// Datasheet GB/s (decimal) to bytes/s.
constexpr double gbPerS(double g) {
  return g * 1e9;
}
// Datasheet GPU memory "GB" is binary.
constexpr int64_t gib(int64_t g) {
  return g << 30;
}

constexpr Link pcie3{LinkKind::kPcieGen3, gbPerS(32) / 2};   // "32 GB/s" both directions
constexpr Link pcie4{LinkKind::kPcieGen4, gbPerS(64) / 2};   // "64 GB/s" both directions
constexpr Link pcie5{LinkKind::kPcieGen5, gbPerS(128) / 2};  // "128 GB/s" both directions

constexpr std::string_view kV100Source =
    "NVIDIA V100 Tensor Core GPU datasheet (V100 PCIe, V100 SXM2, V100S PCIe), "
    "https://images.nvidia.com/content/technologies/volta/pdf/"
    "volta-v100-datasheet-update-us-1165301-r5.pdf";
constexpr std::string_view kA100Source =
    "NVIDIA A100 Tensor Core GPU datasheet, "
    "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
    "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf";
constexpr std::string_view kH100Source =
    "NVIDIA H100 Tensor Core GPU datasheet (H100 SXM, H100 PCIe, H100 NVL), "
    "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet";
constexpr std::string_view kH200Source =
    "NVIDIA H200 Tensor Core GPU datasheet (H200 SXM, H200 NVL), "
    "https://www.nvidia.com/en-us/data-center/h200/";
constexpr std::string_view kGh200Source =
    "NVIDIA GH200 Grace Hopper Superchip datasheet, "
    "https://www.nvidia.com/en-us/data-center/grace-hopper-superchip/";

// Table order matters only among rows that one name fits equally well (the
// conservative pick keeps the first of equals): smaller or slower variants first.
// clang-format off
constexpr DeviceSpec kSpecs[] = {
    // --- Volta (compute capability 7.0, 80 SMs) --------------------------------
    // V100 PCIe: "double-precision 7 TFLOPS, single-precision 14 TFLOPS, tensor
    // performance 112 TFLOPS" (FP16 multiply, FP32 accumulate; Volta has no
    // sparsity), 16 or 32 GB HBM2 at 900 GB/s, PCIe Gen3 32 GB/s, no NVLink.
    {.key = "v100-pcie-16gb", .name = "V100 PCIe 16GB", .vendor = "nvidia",
     .names = {"Tesla V100-PCIE-16GB"}, .family = "v100", .form = "pcie", .memory_gb = 16,
     .sm_count = 80, .compute_major = 7, .compute_minor = 0,
     .memory_bytes = gib(16), .vector = {.fp64 = tflops(7), .fp32 = tflops(14)},
     .matrix = {.fp16 = tflops(112)}, .memory_bandwidth_bytes_per_s = gbPerS(900),
     .host_link = pcie3, .max_power_w = 250, .source = kV100Source},
    {.key = "v100-pcie-32gb", .name = "V100 PCIe 32GB", .vendor = "nvidia",
     .names = {"Tesla V100-PCIE-32GB"}, .family = "v100", .form = "pcie", .memory_gb = 32,
     .sm_count = 80, .compute_major = 7, .compute_minor = 0,
     .memory_bytes = gib(32), .vector = {.fp64 = tflops(7), .fp32 = tflops(14)},
     .matrix = {.fp16 = tflops(112)}, .memory_bandwidth_bytes_per_s = gbPerS(900),
     .host_link = pcie3, .max_power_w = 250, .source = kV100Source},
    // V100 SXM2: 7.8 / 15.7 / 125 TFLOPS, 900 GB/s, NVLink 300 GB/s (both
    // directions: 6 NVLink 2 links of 25 GB/s each way).
    {.key = "v100-sxm2-16gb", .name = "V100 SXM2 16GB", .vendor = "nvidia",
     .names = {"Tesla V100-SXM2-16GB"}, .family = "v100", .form = "sxm2", .memory_gb = 16,
     .sm_count = 80, .compute_major = 7, .compute_minor = 0,
     .memory_bytes = gib(16), .vector = {.fp64 = tflops(7.8), .fp32 = tflops(15.7)},
     .matrix = {.fp16 = tflops(125)}, .memory_bandwidth_bytes_per_s = gbPerS(900),
     .host_link = pcie3, .peer_link = Link{LinkKind::kNvlink2, gbPerS(300) / 2},
     .max_power_w = 300,
     .source = kV100Source},
    {.key = "v100-sxm2-32gb", .name = "V100 SXM2 32GB", .vendor = "nvidia",
     .names = {"Tesla V100-SXM2-32GB"}, .family = "v100", .form = "sxm2", .memory_gb = 32,
     .sm_count = 80, .compute_major = 7, .compute_minor = 0,
     .memory_bytes = gib(32), .vector = {.fp64 = tflops(7.8), .fp32 = tflops(15.7)},
     .matrix = {.fp16 = tflops(125)}, .memory_bandwidth_bytes_per_s = gbPerS(900),
     .host_link = pcie3, .peer_link = Link{LinkKind::kNvlink2, gbPerS(300) / 2},
     .max_power_w = 300,
     .source = kV100Source},
    // V100S PCIe: 8.2 / 16.4 / 130 TFLOPS, 32 GB at 1,134 GB/s, PCIe Gen3.
    {.key = "v100s-pcie-32gb", .name = "V100S PCIe 32GB", .vendor = "nvidia",
     .names = {"Tesla V100S-PCIE-32GB"}, .family = "v100s", .form = "pcie", .memory_gb = 32,
     .sm_count = 80, .compute_major = 7, .compute_minor = 0,
     .memory_bytes = gib(32), .vector = {.fp64 = tflops(8.2), .fp32 = tflops(16.4)},
     .matrix = {.fp16 = tflops(130)}, .memory_bandwidth_bytes_per_s = gbPerS(1134),
     .host_link = pcie3, .max_power_w = 250, .source = kV100Source},
    // DGX Station's water-cooled V100s (shipped with 16 GB, later 32 GB). The
    // DGX Station datasheet gives "500 TFLOPS" of tensor performance for its
    // four GPUs, 125 each, and the DGX Station whitepaper describes them as
    // Tesla V100 (SXM2-class: 7.8 / 15.7 TFLOPS, 900 GB/s) fully connected by
    // NVLink; neither prints a per-GPU NVLink bandwidth, so the peer link is absent.
    {.key = "v100-dgxs-16gb", .name = "V100 DGXS 16GB", .vendor = "nvidia",
     .names = {"Tesla V100-DGXS-16GB"}, .family = "v100", .form = "dgxs", .memory_gb = 16,
     .sm_count = 80, .compute_major = 7, .compute_minor = 0,
     .memory_bytes = gib(16), .vector = {.fp64 = tflops(7.8), .fp32 = tflops(15.7)},
     .matrix = {.fp16 = tflops(125)}, .memory_bandwidth_bytes_per_s = gbPerS(900),
     .host_link = pcie3,
     .source = "NVIDIA DGX Station datasheet (4x Tesla V100, 500 TFLOPS) and whitepaper "
               "\"NVIDIA DGX Station: AI Workstation for Data Science and Research Teams\" "
               "(WP-V01)"},
    {.key = "v100-dgxs-32gb", .name = "V100 DGXS 32GB", .vendor = "nvidia",
     .names = {"Tesla V100-DGXS-32GB"}, .family = "v100", .form = "dgxs", .memory_gb = 32,
     .sm_count = 80, .compute_major = 7, .compute_minor = 0,
     .memory_bytes = gib(32), .vector = {.fp64 = tflops(7.8), .fp32 = tflops(15.7)},
     .matrix = {.fp16 = tflops(125)}, .memory_bandwidth_bytes_per_s = gbPerS(900),
     .host_link = pcie3,
     .source = "NVIDIA DGX Station datasheet (4x Tesla V100, 500 TFLOPS) and whitepaper "
               "\"NVIDIA DGX Station: AI Workstation for Data Science and Research Teams\" "
               "(WP-V01)"},

    // --- Turing ----------------------------------------------------------------
    // T4: "single-precision 8.1 TFLOPS, mixed-precision (FP16/FP32) 65 TFLOPS"
    // (no sparsity on Turing), 16 GB GDDR6 at 320 GB/s, PCIe Gen3 x16. The
    // datasheet prints no FP64 figure.
    {.key = "t4", .name = "T4", .vendor = "nvidia",
     .names = {"Tesla T4"}, .family = "t4", .memory_gb = 16,
     .sm_count = 40, .compute_major = 7, .compute_minor = 5,
     .memory_bytes = gib(16), .vector = {.fp32 = tflops(8.1)},
     .matrix = {.fp16 = tflops(65)}, .memory_bandwidth_bytes_per_s = gbPerS(320),
     .host_link = pcie3,
     .max_power_w = 70,
     .source = "NVIDIA T4 Tensor Core GPU datasheet, "
               "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/tesla-t4/"
               "t4-tensor-core-datasheet-951643.pdf"},

    // --- Ampere GA102 (compute capability 8.6) ---------------------------------
    // A10: FP32 31.2; TF32 62.5 | 125*; BF16 125 | 250*; FP16 125 | 250*
    // TFLOPS (dense | *sparse); 24 GB GDDR6 at 600 GB/s; PCIe Gen4 64 GB/s.
    {.key = "a10", .name = "A10", .vendor = "nvidia",
     .names = {"NVIDIA A10"}, .family = "a10", .memory_gb = 24,
     .sm_count = 72, .compute_major = 8, .compute_minor = 6,
     .memory_bytes = gib(24), .vector = {.fp32 = tflops(31.2)},
     .matrix = {.tf32 = tflops(62.5), .fp16 = tflops(125), .bf16 = tflops(125)},
     .memory_bandwidth_bytes_per_s = gbPerS(600), .host_link = pcie4,
     .max_power_w = 150,
     .source = "NVIDIA A10 Tensor Core GPU datasheet, "
               "https://www.nvidia.com/en-us/data-center/products/a10-gpu/"},
    // A10G: an AWS part (EC2 G5); NVIDIA publishes no datasheet. Figures from
    // the best public comparison, Baseten's "NVIDIA A10 vs A10G for ML model
    // inference": FP32 35 TFLOPS, TF32 tensor 35, FP16/BF16 tensor 70 (dense),
    // 24 GB GDDR6 at 600 GB/s. They agree with 80 SMs at 1,710 MHz (what CUDA
    // reports on G5) at GA102's GeForce-class tensor rate. The PCIe generation
    // is the A10's (AWS prints none).
    {.key = "a10g", .name = "A10G", .vendor = "nvidia",
     .names = {"NVIDIA A10G"}, .family = "a10g", .memory_gb = 24,
     .sm_count = 80, .compute_major = 8, .compute_minor = 6,
     .memory_bytes = gib(24), .vector = {.fp32 = tflops(35)},
     .matrix = {.tf32 = tflops(35), .fp16 = tflops(70), .bf16 = tflops(70)},
     .memory_bandwidth_bytes_per_s = gbPerS(600), .host_link = pcie4,
     .source = "no vendor datasheet (AWS part); Baseten, \"NVIDIA A10 vs A10G for ML model "
               "inference\", https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/"},
    // A40: FP32 37.4; TF32 74.8 | 149.6*; BF16 (FP32 accumulate) 149.7 | 299.4*;
    // FP16 149.7 | 299.4* (printed "with FP16 accumulate"; the professional
    // GA102 runs FP32 accumulate at the same rate, as its BF16 line shows);
    // 48 GB GDDR6 at 696 GB/s; NVLink bridge 112.5 GB/s both directions; PCIe Gen4.
    {.key = "a40", .name = "A40", .vendor = "nvidia",
     .names = {"NVIDIA A40"}, .family = "a40", .memory_gb = 48,
     .sm_count = 84, .compute_major = 8, .compute_minor = 6,
     .memory_bytes = gib(48), .vector = {.fp32 = tflops(37.4)},
     .matrix = {.tf32 = tflops(74.8), .fp16 = tflops(149.7), .bf16 = tflops(149.7)},
     .memory_bandwidth_bytes_per_s = gbPerS(696), .host_link = pcie4,
     .peer_link = Link{LinkKind::kNvlink3, gbPerS(112.5) / 2, true},
     .max_power_w = 300,
     .source = "NVIDIA A40 GPU Accelerator datasheet and product brief PB-09976-001, "
               "https://www.nvidia.com/en-us/data-center/a40/"},
    // GeForce RTX 3090 (GA102 whitepaper, appendix table): FP32 35.6; TF32
    // 35.6 | 71*; FP16 and BF16 with FP32 accumulate 71 | 142* (FP16
    // accumulate would be 142 | 284*); 24 GB GDDR6X at 936 GB/s; NVLink bridge
    // 112.5 GB/s both directions; PCIe Gen4.
    {.key = "rtx-3090", .name = "GeForce RTX 3090", .vendor = "nvidia",
     .names = {"NVIDIA GeForce RTX 3090"}, .family = "3090", .memory_gb = 24,
     .sm_count = 82, .compute_major = 8, .compute_minor = 6,
     .memory_bytes = gib(24), .vector = {.fp32 = tflops(35.6)},
     .matrix = {.tf32 = tflops(35.6), .fp16 = tflops(71), .bf16 = tflops(71)},
     .memory_bandwidth_bytes_per_s = gbPerS(936), .host_link = pcie4,
     .peer_link = Link{LinkKind::kNvlink3, gbPerS(112.5) / 2, true},
     .max_power_w = 350,
     .source = "NVIDIA Ampere GA102 GPU Architecture whitepaper, "
               "https://www.nvidia.com/content/PDF/"
               "nvidia-ampere-ga-102-gpu-architecture-whitepaper-v2.pdf"},
    // RTX A6000: datasheet FP32 38.7 TFLOPS, "Tensor performance 309.7 TFLOPS"
    // (FP16, with sparsity: 154.8 dense); TF32 77.4 and BF16 154.8 dense from
    // the GA102 whitepaper's RTX A6000 column; 48 GB GDDR6 at 768 GB/s; NVLink
    // bridge 112.5 GB/s both directions; PCIe Gen4.
    {.key = "rtx-a6000", .name = "RTX A6000", .vendor = "nvidia",
     .names = {"NVIDIA RTX A6000"}, .family = "a6000", .memory_gb = 48,
     .sm_count = 84, .compute_major = 8, .compute_minor = 6,
     .memory_bytes = gib(48), .vector = {.fp32 = tflops(38.7)},
     .matrix = {.tf32 = tflops(77.4), .fp16 = tflops(154.8), .bf16 = tflops(154.8)},
     .memory_bandwidth_bytes_per_s = gbPerS(768), .host_link = pcie4,
     .peer_link = Link{LinkKind::kNvlink3, gbPerS(112.5) / 2, true},
     .max_power_w = 300,
     .source = "NVIDIA RTX A6000 datasheet; NVIDIA Ampere GA102 GPU Architecture whitepaper, "
               "https://www.nvidia.com/content/PDF/"
               "nvidia-ampere-ga-102-gpu-architecture-whitepaper-v2.pdf"},

    // --- Ampere GA100 (compute capability 8.0) ---------------------------------
    // A30: FP64 5.2; FP64 Tensor 10.3; FP32 10.3; TF32 82 | 165*; BF16 165 |
    // 330*; FP16 165 | 330*; 24 GB HBM2 at 933 GB/s; NVLink bridge 200 GB/s
    // (two GPUs); PCIe Gen4 64 GB/s.
    {.key = "a30", .name = "A30", .vendor = "nvidia",
     .names = {"NVIDIA A30"}, .family = "a30", .memory_gb = 24,
     .sm_count = 56, .compute_major = 8, .compute_minor = 0,
     .memory_bytes = gib(24), .vector = {.fp64 = tflops(5.2), .fp32 = tflops(10.3)},
     .matrix = {.fp64 = tflops(10.3), .tf32 = tflops(82), .fp16 = tflops(165),
                .bf16 = tflops(165)},
     .memory_bandwidth_bytes_per_s = gbPerS(933), .host_link = pcie4,
     .peer_link = Link{LinkKind::kNvlink3, gbPerS(200) / 2, true},
     .max_power_w = 165,
     .source = "NVIDIA A30 Tensor Core GPU datasheet, "
               "https://www.nvidia.com/en-us/data-center/products/a30-gpu/"},
    // A100, all four: FP64 9.7; FP64 Tensor 19.5; FP32 19.5; TF32 156 | 312*;
    // BF16 312 | 624*; FP16 312 | 624*. Bandwidth: 40GB 1,555 GB/s (both
    // forms; the datasheet's earlier edition and the A100 40GB PCIe product
    // brief PB-10137-001), 80GB PCIe 1,935 GB/s, 80GB SXM 2,039 GB/s. NVLink
    // 600 GB/s both directions (SXM4 built in; PCIe cards through an NVLink
    // bridge for two GPUs); PCIe Gen4 64 GB/s.
    {.key = "a100-pcie-40gb", .name = "A100 PCIe 40GB", .vendor = "nvidia",
     .names = {"NVIDIA A100-PCIE-40GB"}, .family = "a100", .form = "pcie", .memory_gb = 40,
     .sm_count = 108, .compute_major = 8, .compute_minor = 0,
     .memory_bytes = gib(40), .vector = {.fp64 = tflops(9.7), .fp32 = tflops(19.5)},
     .matrix = {.fp64 = tflops(19.5), .tf32 = tflops(156), .fp16 = tflops(312),
                .bf16 = tflops(312)},
     .memory_bandwidth_bytes_per_s = gbPerS(1555), .host_link = pcie4,
     .peer_link = Link{LinkKind::kNvlink3, gbPerS(600) / 2, true},
     .max_power_w = 250,
     .source = "NVIDIA A100 40GB PCIe GPU Accelerator product brief PB-10137-001; "
               "NVIDIA A100 Tensor Core GPU datasheet, "
               "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
               "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf"},
    // The SXM4 40 GB board also reports its board name: NVIDIA's driver lists
    // "NVIDIA A100-PG509-200" for PCI id 20B0 10DE 1450, and 20B0 is the
    // device id of "NVIDIA A100-SXM4-40GB" (open-gpu-kernel-modules README,
    // "Compatible GPUs"); the shared traces that report it show 108 SMs and
    // 39.4-39.6 GiB, a 40 GB part.
    {.key = "a100-sxm4-40gb", .name = "A100 SXM4 40GB", .vendor = "nvidia",
     .names = {"NVIDIA A100-SXM4-40GB"}, .boards = {"PG509-200", "A100-PG509-200"},
     .family = "a100", .form = "sxm4", .memory_gb = 40,
     .sm_count = 108, .compute_major = 8, .compute_minor = 0,
     .memory_bytes = gib(40), .vector = {.fp64 = tflops(9.7), .fp32 = tflops(19.5)},
     .matrix = {.fp64 = tflops(19.5), .tf32 = tflops(156), .fp16 = tflops(312),
                .bf16 = tflops(312)},
     .memory_bandwidth_bytes_per_s = gbPerS(1555), .host_link = pcie4,
     .peer_link = Link{LinkKind::kNvlink3, gbPerS(600) / 2},
     .max_power_w = 400,
     .source = kA100Source},
    {.key = "a100-pcie-80gb", .name = "A100 PCIe 80GB", .vendor = "nvidia",
     .names = {"NVIDIA A100 80GB PCIe"}, .family = "a100", .form = "pcie", .memory_gb = 80,
     .sm_count = 108, .compute_major = 8, .compute_minor = 0,
     .memory_bytes = gib(80), .vector = {.fp64 = tflops(9.7), .fp32 = tflops(19.5)},
     .matrix = {.fp64 = tflops(19.5), .tf32 = tflops(156), .fp16 = tflops(312),
                .bf16 = tflops(312)},
     .memory_bandwidth_bytes_per_s = gbPerS(1935), .host_link = pcie4,
     .peer_link = Link{LinkKind::kNvlink3, gbPerS(600) / 2, true},
     .max_power_w = 300,
     .source = kA100Source},
    // The SXM4 80 GB board: "NVIDIA PG509-210" for PCI id 20B2 10DE 1625, and
    // 20B2 is "NVIDIA A100-SXM4-80GB" (same README table).
    {.key = "a100-sxm4-80gb", .name = "A100 SXM4 80GB", .vendor = "nvidia",
     .names = {"NVIDIA A100-SXM4-80GB"}, .boards = {"PG509-210", "A100-PG509-210"},
     .family = "a100", .form = "sxm4", .memory_gb = 80,
     .sm_count = 108, .compute_major = 8, .compute_minor = 0,
     .memory_bytes = gib(80), .vector = {.fp64 = tflops(9.7), .fp32 = tflops(19.5)},
     .matrix = {.fp64 = tflops(19.5), .tf32 = tflops(156), .fp16 = tflops(312),
                .bf16 = tflops(312)},
     .memory_bandwidth_bytes_per_s = gbPerS(2039), .host_link = pcie4,
     .peer_link = Link{LinkKind::kNvlink3, gbPerS(600) / 2},
     .max_power_w = 400,
     .source = kA100Source},

    // --- Ada Lovelace (compute capability 8.9) ---------------------------------
    // L4: FP32 30.3; TF32 120*; FP16 242*; BF16 242*; FP8 485* (all printed
    // with sparsity only: halved here); 24 GB GDDR6 at 300 GB/s; PCIe Gen4 x16 64 GB/s.
    {.key = "l4", .name = "L4", .vendor = "nvidia",
     .names = {"NVIDIA L4"}, .family = "l4", .memory_gb = 24,
     .sm_count = 58, .compute_major = 8, .compute_minor = 9,
     .memory_bytes = gib(24), .vector = {.fp32 = tflops(30.3)},
     .matrix = {.tf32 = tflops(120) / 2, .fp16 = tflops(242) / 2, .bf16 = tflops(242) / 2,
                .fp8 = tflops(485) / 2},
     .memory_bandwidth_bytes_per_s = gbPerS(300), .host_link = pcie4,
     .max_power_w = 72,
     .source = "NVIDIA L4 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/l4/"},
    // L40: FP32 90.5; TF32 90.5 | 181*; BF16 181.05 | 362.1*; FP16 181.05 |
    // 362.1*; FP8 362 | 724*; 48 GB GDDR6 at 864 GB/s; PCIe Gen4 x16 64 GB/s; no NVLink.
    {.key = "l40", .name = "L40", .vendor = "nvidia",
     .names = {"NVIDIA L40"}, .family = "l40", .memory_gb = 48,
     .sm_count = 142, .compute_major = 8, .compute_minor = 9,
     .memory_bytes = gib(48), .vector = {.fp32 = tflops(90.5)},
     .matrix = {.tf32 = tflops(90.5), .fp16 = tflops(181.05), .bf16 = tflops(181.05),
                .fp8 = tflops(362)},
     .memory_bandwidth_bytes_per_s = gbPerS(864), .host_link = pcie4,
     .max_power_w = 300,
     .source = "NVIDIA L40 GPU datasheet, https://www.nvidia.com/en-us/data-center/l40/"},
    // L40S: FP32 91.6; TF32 183 | 366*; BF16 362.05 | 733*; FP16 362.05 |
    // 733*; FP8 733 | 1,466*; 48 GB GDDR6 at 864 GB/s; PCIe Gen4 x16 64 GB/s; no NVLink.
    {.key = "l40s", .name = "L40S", .vendor = "nvidia",
     .names = {"NVIDIA L40S"}, .family = "l40s", .memory_gb = 48,
     .sm_count = 142, .compute_major = 8, .compute_minor = 9,
     .memory_bytes = gib(48), .vector = {.fp32 = tflops(91.6)},
     .matrix = {.tf32 = tflops(183), .fp16 = tflops(362.05), .bf16 = tflops(362.05),
                .fp8 = tflops(733)},
     .memory_bandwidth_bytes_per_s = gbPerS(864), .host_link = pcie4,
     .max_power_w = 350,
     .source = "NVIDIA L40S GPU datasheet, https://www.nvidia.com/en-us/data-center/l40s/"},
    // GeForce RTX 4090 (Ada whitepaper, appendix table): FP32 82.6; TF32 82.6
    // | 165.2*; FP16 and BF16 with FP32 accumulate 165.2 | 330.4*; FP8 with
    // FP32 accumulate 330.3 | 660.6*; 24 GB GDDR6X at 1,008 GB/s; PCIe Gen4; no NVLink.
    {.key = "rtx-4090", .name = "GeForce RTX 4090", .vendor = "nvidia",
     .names = {"NVIDIA GeForce RTX 4090"}, .family = "4090", .memory_gb = 24,
     .sm_count = 128, .compute_major = 8, .compute_minor = 9,
     .memory_bytes = gib(24), .vector = {.fp32 = tflops(82.6)},
     .matrix = {.tf32 = tflops(82.6), .fp16 = tflops(165.2), .bf16 = tflops(165.2),
                .fp8 = tflops(330.3)},
     .memory_bandwidth_bytes_per_s = gbPerS(1008), .host_link = pcie4,
     .max_power_w = 450,
     .source = "NVIDIA Ada GPU Architecture whitepaper, "
               "https://images.nvidia.com/aem-dam/Solutions/geforce/ada/"
               "nvidia-ada-gpu-architecture.pdf"},

    // --- Hopper (compute capability 9.0) ---------------------------------------
    // H100 PCIe: FP64 26; FP64 Tensor 51; FP32 51; TF32 756*; BF16 1,513*;
    // FP16 1,513*; FP8 3,026* (halved); 80 GB at 2 TB/s; NVLink bridge
    // 600 GB/s; PCIe Gen5 128 GB/s.
    {.key = "h100-pcie", .name = "H100 PCIe", .vendor = "nvidia",
     .names = {"NVIDIA H100 PCIe"}, .family = "h100", .form = "pcie", .memory_gb = 80,
     .sm_count = 114, .compute_major = 9, .compute_minor = 0,
     .memory_bytes = gib(80), .vector = {.fp64 = tflops(26), .fp32 = tflops(51)},
     .matrix = {.fp64 = tflops(51), .tf32 = tflops(756) / 2, .fp16 = tflops(1513) / 2,
                .bf16 = tflops(1513) / 2, .fp8 = tflops(3026) / 2},
     .memory_bandwidth_bytes_per_s = gbPerS(2000), .host_link = pcie5,
     .peer_link = Link{LinkKind::kNvlink4, gbPerS(600) / 2, true},
     .max_power_w = 350,
     .source = kH100Source},
    // H100 NVL (per GPU): FP64 30; FP64 Tensor 60; FP32 60; TF32 835*; BF16
    // 1,671*; FP16 1,671*; FP8 3,341* (halved); 94 GB at 3.9 TB/s; NVLink
    // bridge 600 GB/s; PCIe Gen5 128 GB/s.
    {.key = "h100-nvl", .name = "H100 NVL", .vendor = "nvidia",
     .names = {"NVIDIA H100 NVL"}, .family = "h100", .form = "nvl", .memory_gb = 94,
     .sm_count = 132, .compute_major = 9, .compute_minor = 0,
     .memory_bytes = gib(94), .vector = {.fp64 = tflops(30), .fp32 = tflops(60)},
     .matrix = {.fp64 = tflops(60), .tf32 = tflops(835) / 2, .fp16 = tflops(1671) / 2,
                .bf16 = tflops(1671) / 2, .fp8 = tflops(3341) / 2},
     .memory_bandwidth_bytes_per_s = gbPerS(3900), .host_link = pcie5,
     .peer_link = Link{LinkKind::kNvlink4, gbPerS(600) / 2, true},
     .max_power_w = 400,
     .source = kH100Source},
    // H100 SXM: FP64 34; FP64 Tensor 67; FP32 67; TF32 989*; BF16 1,979*;
    // FP16 1,979*; FP8 3,958* (halved); 80 GB HBM3 at 3.35 TB/s; NVLink
    // 900 GB/s; PCIe Gen5 128 GB/s. CUDA calls it "NVIDIA H100 80GB HBM3".
    {.key = "h100-sxm", .name = "H100 SXM", .vendor = "nvidia",
     .names = {"NVIDIA H100 80GB HBM3"}, .family = "h100", .form = "sxm5", .memory_gb = 80,
     .sm_count = 132, .compute_major = 9, .compute_minor = 0,
     .memory_bytes = gib(80), .vector = {.fp64 = tflops(34), .fp32 = tflops(67)},
     .matrix = {.fp64 = tflops(67), .tf32 = tflops(989) / 2, .fp16 = tflops(1979) / 2,
                .bf16 = tflops(1979) / 2, .fp8 = tflops(3958) / 2},
     .memory_bandwidth_bytes_per_s = gbPerS(3350), .host_link = pcie5,
     .peer_link = Link{LinkKind::kNvlink4, gbPerS(900) / 2},
     .max_power_w = 700,
     .source = kH100Source},
    // H200 NVL: FP64 30; FP64 Tensor 60; FP32 60; TF32 835*; BF16 1,671*;
    // FP16 1,671*; FP8 3,341* (halved); 141 GB HBM3e at 4.8 TB/s; NVLink
    // bridge (2- or 4-way) 900 GB/s; PCIe Gen5 128 GB/s.
    {.key = "h200-nvl", .name = "H200 NVL", .vendor = "nvidia",
     .names = {"NVIDIA H200 NVL"}, .family = "h200", .form = "nvl", .memory_gb = 141,
     .sm_count = 132, .compute_major = 9, .compute_minor = 0,
     .memory_bytes = gib(141), .vector = {.fp64 = tflops(30), .fp32 = tflops(60)},
     .matrix = {.fp64 = tflops(60), .tf32 = tflops(835) / 2, .fp16 = tflops(1671) / 2,
                .bf16 = tflops(1671) / 2, .fp8 = tflops(3341) / 2},
     .memory_bandwidth_bytes_per_s = gbPerS(4800), .host_link = pcie5,
     .peer_link = Link{LinkKind::kNvlink4, gbPerS(900) / 2, true},
     .max_power_w = 600,
     .source = kH200Source},
    // H200 SXM: compute as H100 SXM (FP64 34; FP64 Tensor 67; FP32 67; TF32
    // 989*; BF16/FP16 1,979*; FP8 3,958*, halved); 141 GB HBM3e at 4.8 TB/s;
    // NVLink 900 GB/s; PCIe Gen5 128 GB/s.
    {.key = "h200-sxm", .name = "H200 SXM", .vendor = "nvidia",
     .names = {"NVIDIA H200"}, .family = "h200", .form = "sxm5", .memory_gb = 141,
     .sm_count = 132, .compute_major = 9, .compute_minor = 0,
     .memory_bytes = gib(141), .vector = {.fp64 = tflops(34), .fp32 = tflops(67)},
     .matrix = {.fp64 = tflops(67), .tf32 = tflops(989) / 2, .fp16 = tflops(1979) / 2,
                .bf16 = tflops(1979) / 2, .fp8 = tflops(3958) / 2},
     .memory_bandwidth_bytes_per_s = gbPerS(4800), .host_link = pcie5,
     .peer_link = Link{LinkKind::kNvlink4, gbPerS(900) / 2},
     .max_power_w = 700,
     .source = kH200Source},
    // GH200's Hopper GPU, printed dense | sparse*: FP64 34; FP64 Tensor 67;
    // FP32 67; TF32 494 | 989*; BF16 990 | 1,979*; FP16 990 | 1,979*; FP8
    // 1,979 | 3,958*. Two memory versions: 96 GB HBM3 at 4 TB/s and 144 GB
    // HBM3e at 4.9 TB/s. The host link is NVLink-C2C, 900 GB/s both
    // directions; GPU to GPU (NVL2/NVL32 systems) NVLink 900 GB/s. The driver
    // names the HBM3 superchips by their CPU memory ("GH200 480GB", "GH200
    // 120GB") and the HBM3e one "GH200 144G HBM3e" (README table).
    {.key = "gh200-96gb", .name = "GH200 96GB HBM3", .vendor = "nvidia",
     .names = {"NVIDIA GH200 480GB", "NVIDIA GH200 120GB"}, .family = "gh200", .memory_gb = 96,
     .sm_count = 132, .compute_major = 9, .compute_minor = 0,
     .memory_bytes = gib(96), .vector = {.fp64 = tflops(34), .fp32 = tflops(67)},
     .matrix = {.fp64 = tflops(67), .tf32 = tflops(494), .fp16 = tflops(990),
                .bf16 = tflops(990), .fp8 = tflops(1979)},
     .memory_bandwidth_bytes_per_s = gbPerS(4000),
     .host_link = Link{LinkKind::kNvlinkC2c, gbPerS(900) / 2},
     .peer_link = Link{LinkKind::kNvlink4, gbPerS(900) / 2},
     .source = kGh200Source},
    {.key = "gh200-144gb", .name = "GH200 144GB HBM3e", .vendor = "nvidia",
     .names = {"NVIDIA GH200 144G HBM3e"}, .family = "gh200", .memory_gb = 144,
     .sm_count = 132, .compute_major = 9, .compute_minor = 0,
     .memory_bytes = gib(144), .vector = {.fp64 = tflops(34), .fp32 = tflops(67)},
     .matrix = {.fp64 = tflops(67), .tf32 = tflops(494), .fp16 = tflops(990),
                .bf16 = tflops(990), .fp8 = tflops(1979)},
     .memory_bandwidth_bytes_per_s = gbPerS(4900),
     .host_link = Link{LinkKind::kNvlinkC2c, gbPerS(900) / 2},
     .peer_link = Link{LinkKind::kNvlink4, gbPerS(900) / 2},
     .source = kGh200Source},

    // --- Blackwell (compute capability 10.0) -----------------------------------
    // B200 as in HGX B200, per GPU: FP8/FP6 Tensor 9 PFLOPS; FP16/BF16 4.5
    // PFLOPS; TF32 2.2 PFLOPS (Tensor Core figures with sparsity: halved);
    // FP32 75 TFLOPS; FP64/FP64 Tensor 37 TFLOPS; 180 GB HBM3e at 7.7 TB/s;
    // NVLink 5 1.8 TB/s both directions; PCIe Gen5 128 GB/s.
    {.key = "b200", .name = "B200", .vendor = "nvidia",
     .names = {"NVIDIA B200"}, .family = "b200", .memory_gb = 180,
     .sm_count = 148, .compute_major = 10, .compute_minor = 0,
     .memory_bytes = gib(180), .vector = {.fp64 = tflops(37), .fp32 = tflops(75)},
     .matrix = {.fp64 = tflops(37), .tf32 = tflops(2200) / 2, .fp16 = tflops(4500) / 2,
                .bf16 = tflops(4500) / 2, .fp8 = tflops(9000) / 2},
     .memory_bandwidth_bytes_per_s = gbPerS(7700), .host_link = pcie5,
     .peer_link = Link{LinkKind::kNvlink5, gbPerS(1800) / 2},
     .max_power_w = 1000,
     .source = "NVIDIA HGX platform technical specifications (HGX B200, per GPU), "
               "https://www.nvidia.com/en-us/data-center/hgx/"},

    // --- AMD CDNA 2 (gfx90a: HIP reports 9.0) ----------------------------------
    // One row per graphics compute die: ROCm shows each of a package's two
    // GCDs as a device with half the CUs and memory, so the datasheet's
    // package figures are halved. MI250 package: 208 CUs; FP64 vector 45.3,
    // FP64 matrix 90.5, FP32 vector 45.3, FP32 matrix 90.5, FP16 and BF16
    // 362.1 TFLOPS (dense: CDNA 2 has no sparsity); 128 GB HBM2e at
    // 3.2768 TB/s; 6 Infinity Fabric links of 100 GB/s (both directions,
    // 50 GB/s each way: ROCm's MI250 microarchitecture page), three per GCD.
    // The ROCm page gives the same per-GCD figures (104 CUs, 22.6 TFLOPS FP64
    // vector, 1.6 TB/s).
    {.key = "mi250", .name = "MI250 (one GCD)", .vendor = "amd",
     .names = {"AMD Instinct MI250"}, .family = "mi250", .form = "oam", .memory_gb = 64,
     .sm_count = 104, .compute_major = 9, .compute_minor = 0, .devices_per_package = 2,
     .memory_bytes = gib(128) / 2,
     .vector = {.fp64 = tflops(45.3) / 2, .fp32 = tflops(45.3) / 2},
     .matrix = {.fp64 = tflops(90.5) / 2, .fp32 = tflops(90.5) / 2,
                .fp16 = tflops(362.1) / 2, .bf16 = tflops(362.1) / 2},
     .memory_bandwidth_bytes_per_s = gbPerS(3276.8) / 2, .host_link = pcie4,
     .peer_link = Link{LinkKind::kInfinityFabric, 6 * gbPerS(50) / 2},
     .source = "AMD Instinct MI250 accelerator data sheet, "
               "https://www.amd.com/en/products/accelerators/instinct/mi200/mi250.html; "
               "ROCm \"AMD Instinct MI250 microarchitecture\", "
               "https://rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi250.html"},
    // MI250X package: 220 CUs; FP64 vector 47.9, FP64 matrix 95.7, FP32
    // vector 47.9, FP32 matrix 95.7, FP16 and BF16 383 TFLOPS; 128 GB HBM2e
    // at 3.2768 TB/s; 8 Infinity Fabric links of 50 GB/s each way, four per GCD.
    {.key = "mi250x", .name = "MI250X (one GCD)", .vendor = "amd",
     .names = {"AMD Instinct MI250X"}, .family = "mi250x", .form = "oam", .memory_gb = 64,
     .sm_count = 110, .compute_major = 9, .compute_minor = 0, .devices_per_package = 2,
     .memory_bytes = gib(128) / 2,
     .vector = {.fp64 = tflops(47.9) / 2, .fp32 = tflops(47.9) / 2},
     .matrix = {.fp64 = tflops(95.7) / 2, .fp32 = tflops(95.7) / 2,
                .fp16 = tflops(383) / 2, .bf16 = tflops(383) / 2},
     .memory_bandwidth_bytes_per_s = gbPerS(3276.8) / 2, .host_link = pcie4,
     .peer_link = Link{LinkKind::kInfinityFabric, 8 * gbPerS(50) / 2},
     .source = "AMD Instinct MI250X accelerator data sheet, "
               "https://www.amd.com/en/products/accelerators/instinct/mi200/mi250x.html; "
               "ROCm \"AMD Instinct MI250 microarchitecture\", "
               "https://rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi250.html"},

    // --- AMD CDNA 3 (gfx942: HIP reports 9.4) ----------------------------------
    // MI300X (one device in the default SPX partition mode): 304 CUs; FP64
    // vector 81.7, FP64 matrix 163.4, FP32 vector 163.4, FP32 matrix 163.4,
    // TF32 653.7, FP16 1,307.4, BF16 1,307.4, FP8 2,614.9 TFLOPS (dense; AMD
    // prints sparsity separately); 192 GB HBM3 at 5.3 TB/s; 7 Infinity Fabric
    // links of 128 GB/s both directions (448 GB/s each way in all); PCIe Gen5.
    {.key = "mi300x", .name = "MI300X", .vendor = "amd",
     .names = {"AMD Instinct MI300X"}, .family = "mi300x", .form = "oam", .memory_gb = 192,
     .sm_count = 304, .compute_major = 9, .compute_minor = 4,
     .memory_bytes = gib(192), .vector = {.fp64 = tflops(81.7), .fp32 = tflops(163.4)},
     .matrix = {.fp64 = tflops(163.4), .fp32 = tflops(163.4), .tf32 = tflops(653.7),
                .fp16 = tflops(1307.4), .bf16 = tflops(1307.4), .fp8 = tflops(2614.9)},
     .memory_bandwidth_bytes_per_s = gbPerS(5300), .host_link = pcie5,
     .peer_link = Link{LinkKind::kInfinityFabric, 7 * gbPerS(128) / 2},
     .max_power_w = 750,
     .source = "AMD Instinct MI300X platform data sheet, "
               "https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/"
               "amd-instinct-mi300x-platform-data-sheet.pdf; ROCm \"AMD Instinct MI300 "
               "series microarchitecture\", "
               "https://rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi300.html"},
};
// clang-format on

}  // namespace

std::string_view toText(Precision precision) {
  switch (precision) {
#define DAMSCOPE_PRECISION_TEXT(value, text) \
  case Precision::value:                     \
    return text;
    DAMSCOPE_PRECISIONS(DAMSCOPE_PRECISION_TEXT)
#undef DAMSCOPE_PRECISION_TEXT
  }
  return "?";
}

std::optional<Precision> precisionFromText(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
#define DAMSCOPE_PRECISION_PARSE(value, name) \
  if (lower == name) return Precision::value;
  DAMSCOPE_PRECISIONS(DAMSCOPE_PRECISION_PARSE)
#undef DAMSCOPE_PRECISION_PARSE
  return std::nullopt;
}

std::string_view toText(LinkKind kind) {
  switch (kind) {
#define DAMSCOPE_LINK_KIND_TEXT(value, text) \
  case LinkKind::value:                      \
    return text;
    DAMSCOPE_LINK_KINDS(DAMSCOPE_LINK_KIND_TEXT)
#undef DAMSCOPE_LINK_KIND_TEXT
  }
  return "?";
}

std::optional<double> PrecisionPeaks::of(Precision precision) const {
  switch (precision) {
    case Precision::kFp64:
      return fp64;
    case Precision::kFp32:
      return fp32;
    case Precision::kTf32:
      return tf32;
    case Precision::kFp16:
      return fp16;
    case Precision::kBf16:
      return bf16;
    case Precision::kFp8:
      return fp8;
  }
  return std::nullopt;
}

std::optional<double> DeviceSpec::peakFlopsPerS(Precision precision) const {
  std::optional<double> v = vector.of(precision);
  std::optional<double> m = matrix.of(precision);
  if (v && m) return std::max(*v, *m);
  return m ? m : v;
}

std::optional<double> DeviceSpec::ridgeFlopsPerByte(Precision precision) const {
  std::optional<double> peak = peakFlopsPerS(precision);
  if (!peak || memory_bandwidth_bytes_per_s <= 0) return std::nullopt;
  return *peak / memory_bandwidth_bytes_per_s;
}

std::span<const DeviceSpec> deviceSpecs() {
  return kSpecs;
}

}  // namespace damscope
