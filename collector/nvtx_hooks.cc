// The NVTX handlers: see nvtx_hooks.h. Signatures are NVTX's *_impl_fntype
// (nvtxDetail/nvtxTypes.h); every handler is noexcept and returns quickly.
#define NVTX_NO_IMPL  // types only: the implementation lives in the application
#include "collector/nvtx_hooks.h"

#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <cwchar>
#include <string>

#include "collector/nvtx_registry.h"
#include "collector/text_encoding.h"

namespace damscope::collector {
namespace {

std::atomic<bool> g_recording{false};

// The calling thread's slot. initial-exec TLS is a plain %fs-relative load;
// the default model for a dlopen'ed library would call __tls_get_addr on
// every NVTX call.
__thread NvtxThreadSlot* t_slot __attribute__((tls_model("initial-exec"))) = nullptr;

pthread_key_t g_exit_key;
pthread_once_t g_exit_key_once = PTHREAD_ONCE_INIT;

void onThreadExit(void* slot) {
  NvtxRegistry::retire(static_cast<NvtxThreadSlot*>(slot));
}
void createExitKey() {
  pthread_key_create(&g_exit_key, &onThreadExit);
}

NvtxThreadSlot* slot() noexcept {
  if (NvtxThreadSlot* s = t_slot) return s;
  const auto tid = static_cast<int64_t>(syscall(SYS_gettid));
  NvtxThreadSlot* s = NvtxRegistry::instance().claimSlot(tid);
  if (!s) return nullptr;
  t_slot = s;
  // Retire the slot when the thread exits, so a later thread can reuse it.
  pthread_once(&g_exit_key_once, &createExitKey);
  pthread_setspecific(g_exit_key, s);
  return s;
}

inline int64_t nowNs() noexcept {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

inline bool recording() noexcept {
  return g_recording.load(std::memory_order_relaxed);
}

// The message of an event, as it will be copied into the ring.
struct Message {
  const void* bytes = nullptr;
  size_t size = 0;
};

Message ascii(const char* text, NvtxEventHeader& h) noexcept {
  if (!text) return {};
  h.message_kind = NvtxMessageKind::kAscii;
  return {text, std::strlen(text)};
}

Message wide(const wchar_t* text, NvtxEventHeader& h) noexcept {
  if (!text) return {};
  h.message_kind = NvtxMessageKind::kWide;
  return {text, std::wcslen(text) * sizeof(wchar_t)};
}

// Reads an nvtxEventAttributes_t. Only fields inside the caller's declared
// `size` are read, so older, shorter versions of the struct are safe.
Message attributes(const nvtxEventAttributes_t* a, NvtxEventHeader& h) noexcept {
  if (!a) return {};
  const size_t size = a->size;
  auto has = [&](size_t end_offset) { return size >= end_offset; };
  if (has(offsetof(nvtxEventAttributes_t, color) + sizeof(a->color)) &&
      a->colorType == NVTX_COLOR_ARGB) {
    h.flags |= NvtxEventHeader::kHasColor;
    h.color = a->color;
  }
  if (has(offsetof(nvtxEventAttributes_t, category) + sizeof(a->category)) && a->category != 0) {
    h.flags |= NvtxEventHeader::kHasCategory;
    h.category = a->category;
  }
  if (has(offsetof(nvtxEventAttributes_t, payload) + sizeof(a->payload)) &&
      a->payloadType >= NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 &&
      a->payloadType <= NVTX_PAYLOAD_TYPE_FLOAT) {
    h.payload_kind = static_cast<NvtxPayloadKind>(a->payloadType);
    std::memcpy(&h.payload, &a->payload, sizeof(h.payload));
  }
  if (!has(offsetof(nvtxEventAttributes_t, message) + sizeof(a->message))) return {};
  switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
      return ascii(a->message.ascii, h);
    case NVTX_MESSAGE_TYPE_UNICODE:
      return wide(a->message.unicode, h);
    case NVTX_MESSAGE_TYPE_REGISTERED:
      h.message_kind = NvtxMessageKind::kRegistered;
      h.registered = a->message.registered;
      return {};
    default:
      return {};
  }
}

// Room kept free for the pops of the ranges open on the thread (a pop is a
// bare header), plus one: see NvtxRing::push.
inline size_t popReserve(const NvtxThreadSlot* s) noexcept {
  return (static_cast<size_t>(s->depth) + 1) * sizeof(NvtxEventHeader);
}

inline bool emit(NvtxThreadSlot* s, NvtxEventHeader& h, Message m, size_t reserve = 0) noexcept {
  return s->ring.push(h, m.bytes, m.size, reserve);
}

// --- Push/pop ranges ---------------------------------------------------------

template <typename MakeMessage>
int push(const void* domain, MakeMessage&& make) noexcept {
  if (!recording()) return 0;
  NvtxThreadSlot* s = slot();
  if (!s) return -1;
  NvtxEventHeader h;
  h.type = NvtxEventType::kPush;
  h.domain = domain;
  const Message m = make(h);
  h.ts = nowNs();
  // A dropped push drops its pop too (bit per depth, up to 64 levels), so
  // the writer never closes the wrong range.
  const bool kept = emit(s, h, m, popReserve(s));
  if (s->depth < 64) {
    const uint64_t bit = uint64_t{1} << s->depth;
    s->dropped_pushes = kept ? (s->dropped_pushes & ~bit) : (s->dropped_pushes | bit);
  }
  return s->depth++;
}

int pop(const void* domain) noexcept {
  if (!recording()) return 0;
  NvtxThreadSlot* s = slot();
  if (!s) return -1;
  if (s->depth > 0) --s->depth;
  if (s->depth < 64 && (s->dropped_pushes >> s->depth) & 1) {
    s->dropped_pushes &= ~(uint64_t{1} << s->depth);
    return s->depth;
  }
  NvtxEventHeader h;
  h.type = NvtxEventType::kPop;
  h.domain = domain;
  h.ts = nowNs();
  emit(s, h, {});
  return s->depth;
}

int NVTX_API rangePushA(const char* message) noexcept {
  return push(nullptr, [&](NvtxEventHeader& h) { return ascii(message, h); });
}
int NVTX_API rangePushW(const wchar_t* message) noexcept {
  return push(nullptr, [&](NvtxEventHeader& h) { return wide(message, h); });
}
int NVTX_API rangePushEx(const nvtxEventAttributes_t* a) noexcept {
  return push(nullptr, [&](NvtxEventHeader& h) { return attributes(a, h); });
}
int NVTX_API domainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* a) noexcept {
  return push(domain, [&](NvtxEventHeader& h) { return attributes(a, h); });
}
int NVTX_API rangePop() noexcept {
  return pop(nullptr);
}
int NVTX_API domainRangePop(nvtxDomainHandle_t domain) noexcept {
  return pop(domain);
}

// --- Start/end ranges --------------------------------------------------------

template <typename MakeMessage>
nvtxRangeId_t start(const void* domain, MakeMessage&& make) noexcept {
  if (!recording()) return 0;
  NvtxThreadSlot* s = slot();
  if (!s) return 0;
  NvtxEventHeader h;
  h.type = NvtxEventType::kStart;
  h.domain = domain;
  // Unique in the process without a shared counter: the slot's index in the
  // high bits, the slot's own count in the low 40.
  h.id = ((s->index + 1) << 40) | (++s->next_range & ((uint64_t{1} << 40) - 1));
  const Message m = make(h);
  h.ts = nowNs();
  emit(s, h, m, popReserve(s));
  return h.id;
}

void end(const void* domain, nvtxRangeId_t id) noexcept {
  if (!recording()) return;
  NvtxThreadSlot* s = slot();
  if (!s) return;
  NvtxEventHeader h;
  h.type = NvtxEventType::kEnd;
  h.domain = domain;
  h.id = id;
  h.ts = nowNs();
  emit(s, h, {});
}

nvtxRangeId_t NVTX_API rangeStartA(const char* message) noexcept {
  return start(nullptr, [&](NvtxEventHeader& h) { return ascii(message, h); });
}
nvtxRangeId_t NVTX_API rangeStartW(const wchar_t* message) noexcept {
  return start(nullptr, [&](NvtxEventHeader& h) { return wide(message, h); });
}
nvtxRangeId_t NVTX_API rangeStartEx(const nvtxEventAttributes_t* a) noexcept {
  return start(nullptr, [&](NvtxEventHeader& h) { return attributes(a, h); });
}
nvtxRangeId_t NVTX_API domainRangeStartEx(nvtxDomainHandle_t domain,
                                          const nvtxEventAttributes_t* a) noexcept {
  return start(domain, [&](NvtxEventHeader& h) { return attributes(a, h); });
}
void NVTX_API rangeEnd(nvtxRangeId_t id) noexcept {
  end(nullptr, id);
}
void NVTX_API domainRangeEnd(nvtxDomainHandle_t domain, nvtxRangeId_t id) noexcept {
  end(domain, id);
}

// --- Marks -------------------------------------------------------------------

template <typename MakeMessage>
void mark(const void* domain, MakeMessage&& make) noexcept {
  if (!recording()) return;
  NvtxThreadSlot* s = slot();
  if (!s) return;
  NvtxEventHeader h;
  h.type = NvtxEventType::kMark;
  h.domain = domain;
  const Message m = make(h);
  h.ts = nowNs();
  emit(s, h, m, popReserve(s));
}

void NVTX_API markA(const char* message) noexcept {
  mark(nullptr, [&](NvtxEventHeader& h) { return ascii(message, h); });
}
void NVTX_API markW(const wchar_t* message) noexcept {
  mark(nullptr, [&](NvtxEventHeader& h) { return wide(message, h); });
}
void NVTX_API markEx(const nvtxEventAttributes_t* a) noexcept {
  mark(nullptr, [&](NvtxEventHeader& h) { return attributes(a, h); });
}
void NVTX_API domainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* a) noexcept {
  mark(domain, [&](NvtxEventHeader& h) { return attributes(a, h); });
}

// --- Naming (kept while dormant) ---------------------------------------------

template <typename MakeMessage>
void naming(NvtxEventType type, const void* domain, uint64_t id, MakeMessage&& make) noexcept {
  NvtxThreadSlot* s = slot();
  if (!s) return;
  NvtxEventHeader h;
  h.type = type;
  h.domain = domain;
  h.id = id;
  const Message m = make(h);
  h.ts = nowNs();
  emit(s, h, m);
}

void NVTX_API nameOsThreadA(uint32_t tid, const char* name) noexcept {
  naming(NvtxEventType::kNameThread, nullptr, tid,
         [&](NvtxEventHeader& h) { return ascii(name, h); });
}
void NVTX_API nameOsThreadW(uint32_t tid, const wchar_t* name) noexcept {
  naming(NvtxEventType::kNameThread, nullptr, tid,
         [&](NvtxEventHeader& h) { return wide(name, h); });
}
void NVTX_API nameCategoryA(uint32_t category, const char* name) noexcept {
  naming(NvtxEventType::kNameCategory, nullptr, category,
         [&](NvtxEventHeader& h) { return ascii(name, h); });
}
void NVTX_API nameCategoryW(uint32_t category, const wchar_t* name) noexcept {
  naming(NvtxEventType::kNameCategory, nullptr, category,
         [&](NvtxEventHeader& h) { return wide(name, h); });
}
void NVTX_API domainNameCategoryA(nvtxDomainHandle_t domain, uint32_t category,
                                  const char* name) noexcept {
  naming(NvtxEventType::kNameCategory, domain, category,
         [&](NvtxEventHeader& h) { return ascii(name, h); });
}
void NVTX_API domainNameCategoryW(nvtxDomainHandle_t domain, uint32_t category,
                                  const wchar_t* name) noexcept {
  naming(NvtxEventType::kNameCategory, domain, category,
         [&](NvtxEventHeader& h) { return wide(name, h); });
}

// Wide names of domains and registered strings are converted here, once, so
// the registry holds UTF-8 only.
std::string toUtf8(const wchar_t* text) {
  return text ? utf8FromWide(text, std::wcslen(text)) : std::string();
}

// Registration may allocate: it happens once per name. An allocation failure
// must not escape into the application, so it yields a null handle, which
// NVTX treats as the default domain / an unusable string.
nvtxDomainHandle_t NVTX_API domainCreateA(const char* name) noexcept {
  try {
    return reinterpret_cast<nvtxDomainHandle_t>(
        const_cast<NvtxDomain*>(NvtxRegistry::instance().domain(name ? name : "")));
  } catch (...) {
    return nullptr;
  }
}
nvtxDomainHandle_t NVTX_API domainCreateW(const wchar_t* name) noexcept {
  try {
    return reinterpret_cast<nvtxDomainHandle_t>(
        const_cast<NvtxDomain*>(NvtxRegistry::instance().domain(toUtf8(name))));
  } catch (...) {
    return nullptr;
  }
}
void NVTX_API domainDestroy(nvtxDomainHandle_t) noexcept {
  // Events already queued still name the domain, so its node is kept.
}
nvtxStringHandle_t NVTX_API domainRegisterStringA(nvtxDomainHandle_t domain,
                                                  const char* text) noexcept {
  try {
    return reinterpret_cast<nvtxStringHandle_t>(
        const_cast<NvtxString*>(NvtxRegistry::instance().registerString(
            reinterpret_cast<const NvtxDomain*>(domain), text ? text : "")));
  } catch (...) {
    return nullptr;
  }
}
nvtxStringHandle_t NVTX_API domainRegisterStringW(nvtxDomainHandle_t domain,
                                                  const wchar_t* text) noexcept {
  try {
    return reinterpret_cast<nvtxStringHandle_t>(
        const_cast<NvtxString*>(NvtxRegistry::instance().registerString(
            reinterpret_cast<const NvtxDomain*>(domain), toUtf8(text))));
  } catch (...) {
    return nullptr;
  }
}

// --- Installation ------------------------------------------------------------

template <typename Fn>
void set(NvtxFunctionTable table, unsigned int size, unsigned int cbid, Fn fn) {
  if (cbid < size && table[cbid]) *table[cbid] = reinterpret_cast<NvtxFunctionPointer>(fn);
}

}  // namespace

bool installNvtxHooks(NvtxExportTableGetter get_export_table) noexcept {
  if (!get_export_table) return false;
  const auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (!callbacks || callbacks->struct_size < sizeof(NvtxExportTableCallbacks) ||
      !callbacks->GetModuleFunctionTable) {
    return false;
  }
  NvtxFunctionTable core = nullptr, core2 = nullptr;
  unsigned int core_size = 0, core2_size = 0;
  if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &core_size) || !core) {
    return false;
  }
  // The function types are NVTX's own; assigning through them checks that
  // every handler has exactly the signature NVTX will call it with.
  nvtxMarkEx_impl_fntype mark_ex = &markEx;
  nvtxMarkA_impl_fntype mark_a = &markA;
  nvtxMarkW_impl_fntype mark_w = &markW;
  nvtxRangeStartEx_impl_fntype start_ex = &rangeStartEx;
  nvtxRangeStartA_impl_fntype start_a = &rangeStartA;
  nvtxRangeStartW_impl_fntype start_w = &rangeStartW;
  nvtxRangeEnd_impl_fntype end_fn = &rangeEnd;
  nvtxRangePushEx_impl_fntype push_ex = &rangePushEx;
  nvtxRangePushA_impl_fntype push_a = &rangePushA;
  nvtxRangePushW_impl_fntype push_w = &rangePushW;
  nvtxRangePop_impl_fntype pop_fn = &rangePop;
  nvtxNameCategoryA_impl_fntype category_a = &nameCategoryA;
  nvtxNameCategoryW_impl_fntype category_w = &nameCategoryW;
  nvtxNameOsThreadA_impl_fntype thread_a = &nameOsThreadA;
  nvtxNameOsThreadW_impl_fntype thread_w = &nameOsThreadW;
  set(core, core_size, NVTX_CBID_CORE_MarkEx, mark_ex);
  set(core, core_size, NVTX_CBID_CORE_MarkA, mark_a);
  set(core, core_size, NVTX_CBID_CORE_MarkW, mark_w);
  set(core, core_size, NVTX_CBID_CORE_RangeStartEx, start_ex);
  set(core, core_size, NVTX_CBID_CORE_RangeStartA, start_a);
  set(core, core_size, NVTX_CBID_CORE_RangeStartW, start_w);
  set(core, core_size, NVTX_CBID_CORE_RangeEnd, end_fn);
  set(core, core_size, NVTX_CBID_CORE_RangePushEx, push_ex);
  set(core, core_size, NVTX_CBID_CORE_RangePushA, push_a);
  set(core, core_size, NVTX_CBID_CORE_RangePushW, push_w);
  set(core, core_size, NVTX_CBID_CORE_RangePop, pop_fn);
  set(core, core_size, NVTX_CBID_CORE_NameCategoryA, category_a);
  set(core, core_size, NVTX_CBID_CORE_NameCategoryW, category_w);
  set(core, core_size, NVTX_CBID_CORE_NameOsThreadA, thread_a);
  set(core, core_size, NVTX_CBID_CORE_NameOsThreadW, thread_w);

  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &core2_size) && core2) {
    nvtxDomainMarkEx_impl_fntype domain_mark = &domainMarkEx;
    nvtxDomainRangeStartEx_impl_fntype domain_start = &domainRangeStartEx;
    nvtxDomainRangeEnd_impl_fntype domain_end = &domainRangeEnd;
    nvtxDomainRangePushEx_impl_fntype domain_push = &domainRangePushEx;
    nvtxDomainRangePop_impl_fntype domain_pop = &domainRangePop;
    nvtxDomainNameCategoryA_impl_fntype domain_category_a = &domainNameCategoryA;
    nvtxDomainNameCategoryW_impl_fntype domain_category_w = &domainNameCategoryW;
    nvtxDomainRegisterStringA_impl_fntype register_a = &domainRegisterStringA;
    nvtxDomainRegisterStringW_impl_fntype register_w = &domainRegisterStringW;
    nvtxDomainCreateA_impl_fntype create_a = &domainCreateA;
    nvtxDomainCreateW_impl_fntype create_w = &domainCreateW;
    nvtxDomainDestroy_impl_fntype destroy = &domainDestroy;
    set(core2, core2_size, NVTX_CBID_CORE2_DomainMarkEx, domain_mark);
    set(core2, core2_size, NVTX_CBID_CORE2_DomainRangeStartEx, domain_start);
    set(core2, core2_size, NVTX_CBID_CORE2_DomainRangeEnd, domain_end);
    set(core2, core2_size, NVTX_CBID_CORE2_DomainRangePushEx, domain_push);
    set(core2, core2_size, NVTX_CBID_CORE2_DomainRangePop, domain_pop);
    set(core2, core2_size, NVTX_CBID_CORE2_DomainNameCategoryA, domain_category_a);
    set(core2, core2_size, NVTX_CBID_CORE2_DomainNameCategoryW, domain_category_w);
    set(core2, core2_size, NVTX_CBID_CORE2_DomainRegisterStringA, register_a);
    set(core2, core2_size, NVTX_CBID_CORE2_DomainRegisterStringW, register_w);
    set(core2, core2_size, NVTX_CBID_CORE2_DomainCreateA, create_a);
    set(core2, core2_size, NVTX_CBID_CORE2_DomainCreateW, create_w);
    set(core2, core2_size, NVTX_CBID_CORE2_DomainDestroy, destroy);
  }
  return true;
}

void setNvtxRecording(bool on) noexcept {
  g_recording.store(on, std::memory_order_release);
}
bool nvtxRecording() noexcept {
  return g_recording.load(std::memory_order_acquire);
}

}  // namespace damscope::collector
