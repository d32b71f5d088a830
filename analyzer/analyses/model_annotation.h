// The workload's description of itself: one NVTX mark in domain "damscope"
// whose message is a JSON object (DESIGN.md "Workload annotations";
// docs/collector.md), e.g.
//   {"model":"gpt2","params":124439808,"layers":12,"d_model":768,"heads":12,
//    "seq_len":1024,"vocab":50257,"tokens_per_step":524288,"batch":8,"precision":"bf16",
//    "device":{"kind":"cpu","peak_tflops":1.2,"bandwidth_gbs":40}}
// Steps read the tokens and samples per step from it (throughput), MFU the
// parameter count and shapes, the memory estimate the sizes, the roofline a
// device peak the workload measured itself.
//
// Parsed once, here, by AnalysisInput::build; analyses read the struct, never
// the JSON. Every field is optional: a workload says what it knows. The first
// JSON object in domain "damscope" that is not an op-cost annotation (which
// has an "op" key) is the model annotation; values of the wrong type or out of
// range (negative counts, non-finite numbers) are left unknown, and a later
// annotation that disagrees with the first is reported, not merged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/tables.h"

namespace damscope {

struct AnnotatedDevice {
  std::optional<std::string> kind;  // "gpu" | "cpu"
  std::optional<std::string> name;
  std::optional<double> peak_flops_per_s;       // from "peak_tflops"
  std::optional<double> bandwidth_bytes_per_s;  // from "bandwidth_gbs"
  bool operator==(const AnnotatedDevice&) const = default;
};

struct ModelAnnotation {
  int64_t range_id = kNullInt;  // ranges row of the mark; kNullInt: no annotation
  std::optional<std::string> model;
  std::optional<double> params;
  std::optional<int64_t> layers;
  std::optional<int64_t> d_model;
  std::optional<int64_t> heads;
  std::optional<int64_t> seq_len;
  std::optional<int64_t> vocab;
  std::optional<double> tokens_per_step;
  std::optional<double> samples_per_step;
  std::optional<int64_t> batch;          // sequences per micro-batch on this rank
  std::optional<std::string> precision;  // "fp32", "tf32", "bf16", "fp16", "fp8"
  AnnotatedDevice device;
  std::vector<std::string> notes;  // what was ignored, and why

  bool present() const { return !isNull(range_id); }
  bool operator==(const ModelAnnotation&) const = default;
};

// One op's cost annotation: a range in domain "damscope" whose message is a
// JSON object with an "op" key, e.g.
//   {"op":"matmul_fwd","layer":3,"name":"qkv","flops":1.2e9,"bytes":4.7e6}
// The CPU device's kernels are named from it (cpu_device_work.h), and kernel
// work takes its counts (kernel_work.h). Parsed here, once per message.
struct OpAnnotation {
  std::string op;    // "" when "op" is not a string
  std::string name;  // "" when absent
  std::optional<double> flops;  // positive and finite, else unknown
  std::optional<double> bytes;
};

// Empty when `message` is not a JSON object with an "op" key.
std::optional<OpAnnotation> parseOpAnnotation(std::string_view message);

// A collective's annotation: a range in domain "damscope" whose message is a
// JSON object with a "collective" key, around the collective where it runs
// (the trainer's MPI thread on a CPU run, the NCCL enqueue on a GPU run), e.g.
//   {"collective":"all_reduce","bucket":3,"bytes":1048576,"ranks":2}
// On a CPU run it is the cpu device's communication (cpu_device_work.h).
struct CollectiveAnnotation {
  std::string collective;       // "all_reduce"; never empty
  std::optional<double> bytes;  // per rank, positive and finite, else unknown
};

// Empty when `message` is not a JSON object with a non-empty "collective" string.
std::optional<CollectiveAnnotation> parseCollectiveAnnotation(std::string_view message);

// What a person (and the cpu device's kernels table) calls an annotated
// range: "matmul_fwd(qkv)" for {"op":"matmul_fwd","name":"qkv",...},
// "all_reduce" for {"collective":"all_reduce",...}; empty when the message
// is neither annotation.
std::string annotationName(std::string_view message);

// Finds and parses the model annotation among the trace's ranges.
ModelAnnotation readModelAnnotation(const TraceTables& tables);

}  // namespace damscope
