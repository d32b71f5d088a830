// The trainer's NVTX annotations (DESIGN.md, "Workload annotations";
// docs/gpt2-trainer.md lists every message). All in one NVTX domain,
// "damscope", pushed and popped on the thread that does the work:
//   ranges on the training thread   step (payload: the 0-based step), data,
//                                   forward, backward, optimizer, and one per
//                                   op call whose message is JSON:
//     {"op":"matmul_fwd","layer":3,"name":"qkv","flops":N,"bytes":N}
//     ("layer" only for ops inside a block, "name" only where an op occurs
//     more than once per block or step: qkv, attn_proj, fc, fc_proj,
//     lm_head, ln1, ln2, lnf, attn, mlp)
//   ranges on loader threads        load_batch (making one batch)
//   ranges where collectives run     one per gradient bucket's all-reduce
//     {"collective":"all_reduce","bucket":3,"bytes":N,"ranks":2}
//     (the MPI thread "comm" on the CPU; the NCCL enqueue on a GPU)
//   a range on the training thread  straggler_delay (--straggler-ms)
//   a range on the training thread  checkpoint (--checkpoint-every, inside
//                                   the step)
//   a range on the training thread  warm_up (the CUDA warm-up pass, before
//                                   the first step; no op ranges inside)
//   one mark, before the first step the model annotation
//     {"model":"gpt2","config":..,"params":..,"layers":..,"d_model":..,
//      "heads":..,"seq_len":..,"vocab":..,"batch":..,"tokens_per_step":..,
//      "precision":"fp32","ranks":..,"device":{"kind":"cpu","name":..,
//      "cores":..,"peak_tflops":..,"bandwidth_gbs":..}}
//     (kind "gpu" and no "cores" on the CUDA backend)
//     (the keys analyzer/analyses/model_annotation.h reads)
//   thread names (nvtxNameOsThreadA) "train", "loader-0", "loader-1", "comm"
// Nothing is formatted per call: every message is built once, at start-up
// (the op costs depend only on the config, B and T), and a call only pushes
// or pops a prepared nvtxEventAttributes_t. Without an NVTX injection
// (NVTX_INJECTION64_PATH unset) each push/pop is a call through a no-op
// function pointer. Built without the NVTX headers (no CUDA toolkit), every
// method is empty and opTracer() is null.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reference_workloads/gpt2/data/loader.h"
#include "reference_workloads/gpt2/dist/communicator.h"
#include "reference_workloads/gpt2/model/activations.h"
#include "reference_workloads/gpt2/model/config.h"
#include "reference_workloads/gpt2/model/op_sites.h"
#include "reference_workloads/gpt2/model/op_tracer.h"

namespace damscope::gpt2 {

// The JSON message of one op site at one layer (-1 outside the blocks).
std::string opMessage(OpSite site, int layer, const ModelConfig& config, StepShape shape,
                      size_t param_floats, AttentionForm attention);

struct ModelDescription {
  const ModelConfig* config = nullptr;
  StepShape shape;
  int64_t params = 0;               // parameterCount
  std::string device_kind = "cpu";  // "cpu" or "gpu"
  std::string device_name;
  std::string precision = "fp32";
  int ranks = 1;
  int cores = 0;  // compute threads (CPU)
  double peak_flops_per_s = 0;
  double bandwidth_bytes_per_s = 0;
};
std::string modelMessage(const ModelDescription& a);

// A JSON string literal (quotes included) for any text.
std::string jsonString(const std::string& text);

enum class Phase { kStep, kData, kForward, kBackward, kOptimizer };

// The message of one bucket's all-reduce.
std::string collectiveMessage(const char* collective, int bucket, size_t bytes, int ranks);

class Annotations final : public OpTracer, public LoaderObserver, public CollectiveTracer {
 public:
  Annotations();
  ~Annotations() override;
  // Whether this build has NVTX (false: every method is empty).
  static bool compiledIn();

  // Builds the messages of every (site, layer) for this run; call once before
  // the first beginOp.
  void prepareOps(const ModelConfig& config, StepShape shape, size_t param_floats,
                  AttentionForm attention);
  // The tracer to give the model: this, or null when NVTX is compiled out.
  OpTracer* opTracer();

  // Builds the all-reduce messages of every bucket (sizes in bytes); call
  // once before the first collective.
  void prepareCollectives(const std::vector<size_t>& bucket_bytes, int ranks);
  // The tracer to give the communicator: this, or null when NVTX is compiled out.
  CollectiveTracer* collectiveTracer();

  void markModel(const std::string& json);
  void nameThisThread(const std::string& name);
  void push(Phase phase);
  void pushStep(int64_t step);
  void pushStragglerDelay();
  void pushCheckpoint();
  void pushWarmUp();
  void pop();

  void beginOp(OpSite site, int layer) override;
  void endOp() override;

  void beginCollective(const char* collective, size_t bytes, int bucket) override;
  void endCollective() override;
  void nameThread(const char* name) override { nameThisThread(name); }

  void workerStarted(int worker) override;
  void beginLoad() override;
  void endLoad() override;

 private:
  struct State;  // the NVTX handles and prepared attributes
  std::unique_ptr<State> state_;
};

}  // namespace damscope::gpt2
