// The NVTX annotations: see annotations.h.
#include "reference_workloads/gpt2/train/annotations.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <vector>

#if DAMSCOPE_GPT2_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

namespace damscope::gpt2 {

std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string opMessage(OpSite site, int layer, const ModelConfig& config, StepShape shape,
                      size_t param_floats, AttentionForm attention) {
  const OpSiteInfo info = opSiteInfo(site);
  const OpCost cost = opSiteCost(site, config, shape, param_floats, attention);
  std::string m = "{\"op\":\"" + std::string(info.op) + "\"";
  if (layer >= 0) m += ",\"layer\":" + std::to_string(layer);
  if (!info.name.empty()) m += ",\"name\":\"" + std::string(info.name) + "\"";
  m +=
      ",\"flops\":" + std::to_string(cost.flops) + ",\"bytes\":" + std::to_string(cost.bytes) + "}";
  return m;
}

std::string collectiveMessage(const char* collective, int bucket, size_t bytes, int ranks) {
  return "{\"collective\":" + jsonString(collective) + ",\"bucket\":" + std::to_string(bucket) +
         ",\"bytes\":" + std::to_string(bytes) + ",\"ranks\":" + std::to_string(ranks) + "}";
}

std::string modelMessage(const ModelDescription& a) {
  const ModelConfig& c = *a.config;
  char device[160];
  // TFLOP/s and GB/s with decimal prefixes, as the analyzer reads them.
  std::snprintf(device, sizeof device, ",\"peak_tflops\":%.6g,\"bandwidth_gbs\":%.6g}",
                a.peak_flops_per_s / 1e12, a.bandwidth_bytes_per_s / 1e9);
  const std::string cores =
      a.device_kind == "cpu" ? ",\"cores\":" + std::to_string(a.cores) : std::string();
  const int64_t tokens = int64_t{a.shape.batch} * a.shape.seq;
  return "{\"model\":\"gpt2\",\"config\":" + jsonString(c.name) +
         ",\"params\":" + std::to_string(a.params) + ",\"layers\":" + std::to_string(c.layers) +
         ",\"d_model\":" + std::to_string(c.d_model) + ",\"heads\":" + std::to_string(c.heads) +
         ",\"seq_len\":" + std::to_string(a.shape.seq) + ",\"vocab\":" + std::to_string(c.vocab) +
         ",\"batch\":" + std::to_string(a.shape.batch) +
         ",\"tokens_per_step\":" + std::to_string(tokens) +
         ",\"precision\":" + jsonString(a.precision) + ",\"ranks\":" + std::to_string(a.ranks) +
         ",\"device\":{\"kind\":" + jsonString(a.device_kind) +
         ",\"name\":" + jsonString(a.device_name) + cores + device + "}";
}

#if DAMSCOPE_GPT2_NVTX

namespace {

nvtxEventAttributes_t asciiAttributes(const char* message) {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = message;
  return a;
}

uint32_t osThreadId() {
  return static_cast<uint32_t>(syscall(SYS_gettid));
}

constexpr const char* kPhaseNames[] = {"step", "data", "forward", "backward", "optimizer"};

}  // namespace

struct Annotations::State {
  nvtxDomainHandle_t domain = nullptr;
  nvtxEventAttributes_t phases[5];
  nvtxEventAttributes_t load_batch;
  nvtxEventAttributes_t straggler_delay;
  nvtxEventAttributes_t checkpoint;
  nvtxEventAttributes_t warm_up;
  nvtxEventAttributes_t collective_unprepared;
  std::vector<std::string> collective_messages;  // one per bucket
  std::vector<nvtxEventAttributes_t> collectives;
  // Messages and their attributes, indexed site * (layers + 1) + (layer + 1).
  std::vector<std::string> op_messages;
  std::vector<nvtxEventAttributes_t> ops;
  int layer_slots = 1;
};

Annotations::Annotations() : state_(std::make_unique<State>()) {
  state_->domain = nvtxDomainCreateA("damscope");
  for (int i = 0; i < 5; ++i) state_->phases[i] = asciiAttributes(kPhaseNames[i]);
  state_->load_batch = asciiAttributes("load_batch");
  state_->straggler_delay = asciiAttributes("straggler_delay");
  state_->checkpoint = asciiAttributes("checkpoint");
  state_->warm_up = asciiAttributes("warm_up");
  state_->collective_unprepared = asciiAttributes("{\"collective\":\"all_reduce\"}");
}

Annotations::~Annotations() = default;

bool Annotations::compiledIn() {
  return true;
}

void Annotations::prepareOps(const ModelConfig& config, StepShape shape, size_t param_floats,
                             AttentionForm attention) {
  State& s = *state_;
  s.layer_slots = config.layers + 1;
  s.op_messages.assign(size_t(kNumOpSites) * s.layer_slots, std::string());
  s.ops.assign(s.op_messages.size(), nvtxEventAttributes_t{});
  for (int site = 0; site < kNumOpSites; ++site) {
    const auto op = static_cast<OpSite>(site);
    const bool per_layer = opSiteInfo(op).per_layer;
    for (int layer = -1; layer < config.layers; ++layer) {
      if (per_layer != (layer >= 0)) continue;
      const size_t i = size_t(site) * s.layer_slots + (layer + 1);
      s.op_messages[i] = opMessage(op, layer, config, shape, param_floats, attention);
    }
  }
  // Pointers into the strings only once they no longer move.
  for (size_t i = 0; i < s.ops.size(); ++i) s.ops[i] = asciiAttributes(s.op_messages[i].c_str());
}

OpTracer* Annotations::opTracer() {
  return this;
}

void Annotations::prepareCollectives(const std::vector<size_t>& bucket_bytes, int ranks) {
  State& s = *state_;
  s.collective_messages.clear();
  for (size_t b = 0; b < bucket_bytes.size(); ++b) {
    s.collective_messages.push_back(
        collectiveMessage("all_reduce", static_cast<int>(b), bucket_bytes[b], ranks));
  }
  s.collectives.clear();
  for (const std::string& m : s.collective_messages)
    s.collectives.push_back(asciiAttributes(m.c_str()));
}

CollectiveTracer* Annotations::collectiveTracer() {
  return this;
}

void Annotations::beginCollective(const char*, size_t, int bucket) {
  // The message was built for this bucket by prepareCollectives.
  const bool prepared = bucket >= 0 && static_cast<size_t>(bucket) < state_->collectives.size();
  nvtxDomainRangePushEx(state_->domain, prepared ? &state_->collectives[static_cast<size_t>(bucket)]
                                                 : &state_->collective_unprepared);
}

void Annotations::endCollective() {
  nvtxDomainRangePop(state_->domain);
}

void Annotations::pushStragglerDelay() {
  nvtxDomainRangePushEx(state_->domain, &state_->straggler_delay);
}

void Annotations::pushCheckpoint() {
  nvtxDomainRangePushEx(state_->domain, &state_->checkpoint);
}

void Annotations::pushWarmUp() {
  nvtxDomainRangePushEx(state_->domain, &state_->warm_up);
}

void Annotations::markModel(const std::string& json) {
  const nvtxEventAttributes_t a = asciiAttributes(json.c_str());
  nvtxDomainMarkEx(state_->domain, &a);
}

void Annotations::nameThisThread(const std::string& name) {
  nvtxNameOsThreadA(osThreadId(), name.c_str());
}

void Annotations::push(Phase phase) {
  nvtxDomainRangePushEx(state_->domain, &state_->phases[static_cast<int>(phase)]);
}

void Annotations::pushStep(int64_t step) {
  nvtxEventAttributes_t& a = state_->phases[static_cast<int>(Phase::kStep)];
  a.payloadType = NVTX_PAYLOAD_TYPE_INT64;
  a.payload.llValue = step;
  nvtxDomainRangePushEx(state_->domain, &a);
}

void Annotations::pop() {
  nvtxDomainRangePop(state_->domain);
}

void Annotations::beginOp(OpSite site, int layer) {
  nvtxDomainRangePushEx(state_->domain,
                        &state_->ops[size_t(site) * state_->layer_slots + (layer + 1)]);
}

void Annotations::endOp() {
  nvtxDomainRangePop(state_->domain);
}

void Annotations::workerStarted(int worker) {
  nameThisThread("loader-" + std::to_string(worker));
}

void Annotations::beginLoad() {
  nvtxDomainRangePushEx(state_->domain, &state_->load_batch);
}

void Annotations::endLoad() {
  nvtxDomainRangePop(state_->domain);
}

#else  // NVTX compiled out: the same interface, doing nothing.

struct Annotations::State {};
Annotations::Annotations() = default;
Annotations::~Annotations() = default;
bool Annotations::compiledIn() {
  return false;
}
void Annotations::prepareOps(const ModelConfig&, StepShape, size_t, AttentionForm) {}
OpTracer* Annotations::opTracer() {
  return nullptr;
}
void Annotations::prepareCollectives(const std::vector<size_t>&, int) {}
CollectiveTracer* Annotations::collectiveTracer() {
  return nullptr;
}
void Annotations::beginCollective(const char*, size_t, int) {}
void Annotations::endCollective() {}
void Annotations::pushStragglerDelay() {}
void Annotations::pushCheckpoint() {}
void Annotations::pushWarmUp() {}
void Annotations::markModel(const std::string&) {}
void Annotations::nameThisThread(const std::string&) {}
void Annotations::push(Phase) {}
void Annotations::pushStep(int64_t) {}
void Annotations::pop() {}
void Annotations::beginOp(OpSite, int) {}
void Annotations::endOp() {}
void Annotations::workerStarted(int) {}
void Annotations::beginLoad() {}
void Annotations::endLoad() {}

#endif

}  // namespace damscope::gpt2
