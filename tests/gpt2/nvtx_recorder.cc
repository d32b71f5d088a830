// A minimal NVTX injection for the trainer's annotation tests: loaded by
// NVTX through NVTX_INJECTION64_PATH (nvtx3/nvtxDetail/nvtxInit.h), it keeps
// every domain push/pop, mark and thread name, and writes them at exit to
// the file named by GPT2_NVTX_LOG, one event per line, tab-separated:
//   push <tid> <domain> <message> <payload or ->
//   pop  <tid> <domain>
//   mark <tid> <domain> <message>
//   name <tid> <thread name>
// Only what the trainer uses is handled (ASCII messages, domain ranges and
// marks, nvtxNameOsThreadA); damscope's own collector is the full recorder.
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Log {
  std::mutex mutex;
  std::vector<std::string> lines;
  std::deque<std::string> domains;  // a domain handle points at its name here
  ~Log() {
    const char* path = std::getenv("GPT2_NVTX_LOG");
    if (!path) return;
    if (FILE* f = std::fopen(path, "w")) {
      for (const std::string& l : lines) std::fprintf(f, "%s\n", l.c_str());
      std::fclose(f);
    }
  }
};

Log& log() {
  static Log l;
  return l;
}

void add(std::string line) {
  std::lock_guard lock(log().mutex);
  log().lines.push_back(std::move(line));
}

std::string tid() {
  return std::to_string(syscall(SYS_gettid));
}

std::string domainName(nvtxDomainHandle_t d) {
  return d ? *reinterpret_cast<const std::string*>(d) : std::string("(default)");
}

std::string message(const nvtxEventAttributes_t* a) {
  if (!a || a->messageType != NVTX_MESSAGE_TYPE_ASCII || !a->message.ascii) return "(other)";
  return a->message.ascii;
}

std::string payload(const nvtxEventAttributes_t* a) {
  if (a && a->payloadType == NVTX_PAYLOAD_TYPE_INT64) return std::to_string(a->payload.llValue);
  return "-";
}

nvtxDomainHandle_t NVTX_API domainCreateA(const char* name) {
  std::lock_guard lock(log().mutex);
  log().domains.emplace_back(name ? name : "");
  return reinterpret_cast<nvtxDomainHandle_t>(&log().domains.back());
}
int NVTX_API domainPushEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  add("push\t" + tid() + "\t" + domainName(d) + "\t" + message(a) + "\t" + payload(a));
  return 0;
}
int NVTX_API domainPop(nvtxDomainHandle_t d) {
  add("pop\t" + tid() + "\t" + domainName(d));
  return 0;
}
void NVTX_API domainMarkEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  add("mark\t" + tid() + "\t" + domainName(d) + "\t" + message(a));
}
void NVTX_API nameOsThreadA(uint32_t id, const char* name) {
  add("name\t" + std::to_string(id) + "\t" + (name ? name : ""));
}

template <typename Fn>
void set(NvtxFunctionTable table, unsigned int size, unsigned int cbid, Fn fn) {
  if (cbid < size && table[cbid]) *table[cbid] = reinterpret_cast<NvtxFunctionPointer>(fn);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    const void* (*get_export_table)(uint32_t)) {
  const auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (!callbacks) return 0;
  NvtxFunctionTable core = nullptr, core2 = nullptr;
  unsigned int core_size = 0, core2_size = 0;
  if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &core_size) ||
      !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &core2_size)) {
    return 0;
  }
  nvtxNameOsThreadA_impl_fntype name = &nameOsThreadA;
  nvtxDomainCreateA_impl_fntype create = &domainCreateA;
  nvtxDomainRangePushEx_impl_fntype push = &domainPushEx;
  nvtxDomainRangePop_impl_fntype pop = &domainPop;
  nvtxDomainMarkEx_impl_fntype mark = &domainMarkEx;
  set(core, core_size, NVTX_CBID_CORE_NameOsThreadA, name);
  set(core2, core2_size, NVTX_CBID_CORE2_DomainCreateA, create);
  set(core2, core2_size, NVTX_CBID_CORE2_DomainRangePushEx, push);
  set(core2, core2_size, NVTX_CBID_CORE2_DomainRangePop, pop);
  set(core2, core2_size, NVTX_CBID_CORE2_DomainMarkEx, mark);
  return 1;
}
