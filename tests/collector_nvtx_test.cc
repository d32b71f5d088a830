// NVTX events -> ranges (nvtx_assembler.h), driven with events as the hooks
// queue them: nesting and parents written before their parent closes,
// per-domain pops, start/end ranges across threads and ends drained before
// their start, marks, what a window cuts off, and step counting. Then the
// hooks themselves, installed into a stand-in NVTX instance.
#define NVTX_NO_IMPL
#include <gtest/gtest.h>
#include <nvtx3/nvToolsExt.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "collector/capture_writer.h"
#include "collector/nvtx_assembler.h"
#include "collector/nvtx_hooks.h"
#include "collector/nvtx_registry.h"
#include "collector/trace_finalizer.h"
#include "tests/test_support.h"
#include "trace/trace_reader.h"

namespace damscope::collector {
namespace {

using damscope::testing::TempDir;

class Assembler : public ::testing::Test {
 protected:
  void SetUp() override {
    CaptureFileOptions options;
    options.path = dir_.file("nvtx.db");
    auto capture = CaptureWriter::create(options);
    ASSERT_TRUE(capture.ok());
    capture_ = std::move(capture).value();
    capture_->setMeta("collector.finalized", "0");
    assembler_ = std::make_unique<NvtxAssembler>(*capture_, names_, kWindowStart);
    assembler_->setStepObserver(
        [this](int64_t start, int64_t end) { steps_.push_back(end - start); });
  }

  void send(int64_t tid, NvtxEventType type, int64_t ts, const std::string& message = "",
            const void* domain = nullptr, uint64_t id = 0) {
    NvtxEventHeader h;
    h.type = type;
    h.ts = ts;
    h.domain = domain;
    h.id = id;
    if (!message.empty()) h.message_kind = NvtxMessageKind::kAscii;
    h.message_bytes = static_cast<uint32_t>(message.size());
    assembler_->onEvent(tid, h, reinterpret_cast<const uint8_t*>(message.data()));
  }

  TraceTables finish(int64_t end_ns) {
    assembler_->closeAll(end_ns);
    EXPECT_TRUE(capture_->finish().ok());
    EXPECT_TRUE(finalizeTraceFile(dir_.file("nvtx.db")).ok());
    auto trace = readTrace(dir_.file("nvtx.db"));
    EXPECT_TRUE(trace.ok());
    return trace.ok() ? std::move(trace).value() : TraceTables();
  }

  static int64_t find(const TraceTables& t, const std::string& name) {
    for (size_t i = 0; i < t.ranges.size(); ++i) {
      if (t.strings.get(t.ranges.name[i]) == name) return static_cast<int64_t>(i);
    }
    ADD_FAILURE() << "no range " << name;
    return -1;
  }

  static constexpr int64_t kWindowStart = 1000;
  TempDir dir_;
  NvtxNames names_;
  std::unique_ptr<CaptureWriter> capture_;
  std::unique_ptr<NvtxAssembler> assembler_;
  std::vector<int64_t> steps_;
};

TEST_F(Assembler, ChildrenWrittenBeforeTheirParentGetItsId) {
  send(1, NvtxEventType::kPush, 1000, "step");
  send(1, NvtxEventType::kPush, 1100, "forward");
  send(1, NvtxEventType::kPush, 1200, "matmul");
  send(1, NvtxEventType::kPop, 1300);    // matmul
  ASSERT_TRUE(capture_->commit().ok());  // matmul is on disk before forward closes
  send(1, NvtxEventType::kMark, 1350, "checkpoint");
  send(1, NvtxEventType::kPop, 1400);  // forward
  ASSERT_TRUE(capture_->commit().ok());
  send(1, NvtxEventType::kPop, 2000);  // step
  const TraceTables t = finish(3000);
  const int64_t step = find(t, "step"), forward = find(t, "forward"), matmul = find(t, "matmul"),
                mark = find(t, "checkpoint");
  EXPECT_TRUE(isNull(t.ranges.parent_id[step]));
  EXPECT_EQ(t.ranges.parent_id[forward], step);
  EXPECT_EQ(t.ranges.parent_id[matmul], forward);
  EXPECT_EQ(t.ranges.parent_id[mark], forward);
  EXPECT_EQ(t.ranges.depth[step], 0);
  EXPECT_EQ(t.ranges.depth[matmul], 2);
  EXPECT_EQ(t.ranges.depth[mark], 2);
  EXPECT_EQ(t.ranges.dur[step], 1000);
  EXPECT_EQ(t.ranges.dur[matmul], 100);
  EXPECT_EQ(steps_, (std::vector<int64_t>{1000}));
}

TEST_F(Assembler, PopsCloseTheInnermostRangeOfTheirOwnDomain) {
  const NvtxDomain* a = NvtxRegistry::instance().domain("assembler-test-a");
  const NvtxDomain* b = NvtxRegistry::instance().domain("assembler-test-b");
  send(1, NvtxEventType::kPush, 1000, "A", a);
  send(1, NvtxEventType::kPush, 1100, "B", b);
  send(1, NvtxEventType::kPop, 1200, "", a);  // closes A although B is inner
  send(1, NvtxEventType::kPop, 1300, "", b);
  const TraceTables t = finish(2000);
  const int64_t ra = find(t, "A"), rb = find(t, "B");
  EXPECT_EQ(t.ranges.dur[ra], 200);
  EXPECT_EQ(t.ranges.dur[rb], 200);
  EXPECT_EQ(t.strings.get(t.ranges.domain[ra]), "assembler-test-a");
  EXPECT_EQ(t.strings.get(t.ranges.domain[rb]), "assembler-test-b");
  // B started inside A but outlived it: drawn below it, not its child.
  EXPECT_EQ(t.ranges.depth[rb], 1);
  EXPECT_TRUE(isNull(t.ranges.parent_id[rb]));
}

TEST_F(Assembler, StartEndRangesCrossThreadsAndEndsMayComeFirst) {
  const uint64_t io = 7, late = 8;
  send(1, NvtxEventType::kStart, 1000, "async_io", nullptr, io);
  send(2, NvtxEventType::kEnd, 1500, "", nullptr, io);  // another thread ends it
  // The end of `late` is drained (thread 3's ring) before its start (thread 1's).
  send(3, NvtxEventType::kEnd, 1900, "", nullptr, late);
  send(1, NvtxEventType::kStart, 1600, "prefetch", nullptr, late);
  send(2, NvtxEventType::kEnd, 1700, "", nullptr, 99);  // never started in the window
  const TraceTables t = finish(2000);
  const int64_t r_io = find(t, "async_io"), r_late = find(t, "prefetch");
  EXPECT_EQ(t.ranges.dur[r_io], 500);
  EXPECT_EQ(t.threads.tid[t.ranges.thread_id[r_io]], 1);
  EXPECT_EQ(t.ranges.dur[r_late], 300);
  EXPECT_EQ(t.threads.tid[t.ranges.thread_id[r_late]], 1);
  EXPECT_EQ(t.getStat(NvtxAssembler::kStatUnmatchedEnds), 1);
}

TEST_F(Assembler, WindowCutsAreCountedAndMarked) {
  send(1, NvtxEventType::kPush, 900, "before window");  // queued before the window: ignored
  send(1, NvtxEventType::kPush, 1000, "step");
  send(1, NvtxEventType::kPop, 1100);
  send(1, NvtxEventType::kPop, 1200);  // pops "before window": nothing to close
  send(1, NvtxEventType::kPush, 1300, "still open");
  send(2, NvtxEventType::kPush, 1400, "outer");
  send(2, NvtxEventType::kPush, 1500, "inner");
  const TraceTables t = finish(2000);
  EXPECT_EQ(t.getStat(NvtxAssembler::kStatUnmatchedPops), 1);
  EXPECT_EQ(t.getStat(NvtxAssembler::kStatOpenAtEnd), 3);
  const int64_t open = find(t, "still open"), inner = find(t, "inner"), outer = find(t, "outer");
  EXPECT_EQ(t.ranges.args[open], R"({"open_at_end":true})");
  EXPECT_EQ(t.ranges.dur[open], 700);
  EXPECT_EQ(t.ranges.parent_id[inner], outer);
  EXPECT_EQ(t.ranges.dur[inner], 500);
  for (size_t i = 0; i < t.ranges.size(); ++i)
    EXPECT_NE(t.strings.get(t.ranges.name[i]), "before window");
  EXPECT_EQ(steps_.size(), 1u);  // open ranges are not steps that ended
}

TEST_F(Assembler, NamingEventsNameThreadsAndCategories) {
  const NvtxDomain* d = NvtxRegistry::instance().domain("assembler-test-c");
  NvtxEventHeader name_thread;
  name_thread.type = NvtxEventType::kNameThread;
  name_thread.id = 4;
  name_thread.message_kind = NvtxMessageKind::kAscii;
  name_thread.message_bytes = 6;
  assembler_->onEvent(1, name_thread, reinterpret_cast<const uint8_t*>("loader"));
  NvtxEventHeader name_category = name_thread;
  name_category.type = NvtxEventType::kNameCategory;
  name_category.domain = d;
  name_category.id = 3;
  name_category.message_bytes = 8;
  assembler_->onEvent(1, name_category, reinterpret_cast<const uint8_t*>("backward"));
  NvtxEventHeader push;
  push.type = NvtxEventType::kPush;
  push.ts = 1000;
  push.domain = d;
  push.flags = NvtxEventHeader::kHasCategory;
  push.category = 3;
  push.payload_kind = NvtxPayloadKind::kUint32;
  push.payload = 0xFFFFFFFFu;
  assembler_->onEvent(4, push, nullptr);
  send(4, NvtxEventType::kPop, 1100, "", d);
  const TraceTables t = finish(2000);
  ASSERT_EQ(t.ranges.size(), 1u);
  EXPECT_TRUE(isNull(t.ranges.name[0]));  // a range without a message
  EXPECT_EQ(t.ranges.args[0], R"({"payload":4294967295,"category":"backward"})");
  EXPECT_EQ(t.strings.get(t.threads.name[t.ranges.thread_id[0]]), "loader");
}

// --- The hooks, installed into a stand-in NVTX instance -----------------------------

// What nvtxImpl.h provides to an injection: per-module tables of pointers to
// the implementation function pointers.
struct FakeNvtx {
  NvtxFunctionPointer core[NVTX_CBID_CORE_SIZE] = {};
  NvtxFunctionPointer core2[NVTX_CBID_CORE2_SIZE] = {};
  NvtxFunctionPointer* core_table[NVTX_CBID_CORE_SIZE + 1] = {};
  NvtxFunctionPointer* core2_table[NVTX_CBID_CORE2_SIZE + 1] = {};
  NvtxExportTableCallbacks callbacks{sizeof(NvtxExportTableCallbacks), &getModule};

  FakeNvtx() {
    for (int i = 1; i < NVTX_CBID_CORE_SIZE; ++i) core_table[i] = &core[i];
    for (int i = 1; i < NVTX_CBID_CORE2_SIZE; ++i) core2_table[i] = &core2[i];
  }
  static FakeNvtx* instance;
  static int NVTX_API getModule(NvtxCallbackModule module, NvtxFunctionTable* table,
                                unsigned int* size) {
    if (module == NVTX_CB_MODULE_CORE) {
      *table = instance->core_table, *size = NVTX_CBID_CORE_SIZE;
      return 1;
    }
    if (module == NVTX_CB_MODULE_CORE2) {
      *table = instance->core2_table, *size = NVTX_CBID_CORE2_SIZE;
      return 1;
    }
    return 0;
  }
  static const void* NVTX_API exportTable(uint32_t id) {
    return id == NVTX_ETID_CALLBACKS ? &instance->callbacks : nullptr;
  }
  template <typename Fn>
  Fn core2Fn(int cbid) {
    return reinterpret_cast<Fn>(core2[cbid]);
  }
  template <typename Fn>
  Fn coreFn(int cbid) {
    return reinterpret_cast<Fn>(core[cbid]);
  }
};
FakeNvtx* FakeNvtx::instance = nullptr;

TEST(NvtxHooks, InstalledHandlersQueueEventsOnlyWhileRecording) {
  FakeNvtx nvtx;
  FakeNvtx::instance = &nvtx;
  ASSERT_TRUE(installNvtxHooks(&FakeNvtx::exportTable));
  ASSERT_NE(nvtx.core[NVTX_CBID_CORE_RangePushA], nullptr);
  ASSERT_NE(nvtx.core2[NVTX_CBID_CORE2_DomainRangePushEx], nullptr);
  EXPECT_EQ(nvtx.core2[NVTX_CBID_CORE2_DomainResourceCreate], nullptr);  // left to NVTX

  auto push = nvtx.coreFn<nvtxRangePushA_impl_fntype>(NVTX_CBID_CORE_RangePushA);
  auto pop = nvtx.coreFn<nvtxRangePop_impl_fntype>(NVTX_CBID_CORE_RangePop);
  auto create = nvtx.core2Fn<nvtxDomainCreateA_impl_fntype>(NVTX_CBID_CORE2_DomainCreateA);
  auto domain_push =
      nvtx.core2Fn<nvtxDomainRangePushEx_impl_fntype>(NVTX_CBID_CORE2_DomainRangePushEx);
  auto domain_pop = nvtx.core2Fn<nvtxDomainRangePop_impl_fntype>(NVTX_CBID_CORE2_DomainRangePop);

  // Same name, same handle; the handle is the registry's node.
  nvtxDomainHandle_t d = create("hooks-test");
  EXPECT_EQ(d, create("hooks-test"));
  EXPECT_EQ(reinterpret_cast<const NvtxDomain*>(d)->name, "hooks-test");

  setNvtxRecording(false);
  EXPECT_EQ(push("dormant"), 0);
  EXPECT_EQ(pop(), 0);
  setNvtxRecording(true);
  EXPECT_EQ(push("outer"), 0);
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = "inner";
  a.payloadType = NVTX_PAYLOAD_TYPE_INT64;
  a.payload.llValue = -42;
  EXPECT_EQ(domain_push(d, &a), 1);
  EXPECT_EQ(domain_pop(d), 1);
  EXPECT_EQ(pop(), 0);
  setNvtxRecording(false);

  // This thread's ring holds exactly the four recorded events.
  const auto tid = static_cast<int64_t>(syscall(SYS_gettid));
  std::vector<std::string> seen;
  NvtxRegistry::instance().forEachSlot([&](NvtxThreadSlot& slot) {
    if (slot.tid.load() != tid) return;
    slot.ring.drain([&](const NvtxEventHeader& h, const uint8_t* m) {
      std::string what = std::to_string(static_cast<int>(h.type)) + ":" + nvtxMessageText(h, m);
      if (h.payload_kind == NvtxPayloadKind::kInt64) {
        what += ":" + std::to_string(static_cast<int64_t>(h.payload));
      }
      if (h.domain) what += "@" + static_cast<const NvtxDomain*>(h.domain)->name;
      seen.push_back(what);
    });
  });
  EXPECT_EQ(seen,
            (std::vector<std::string>{"0:outer", "0:inner:-42@hooks-test", "1:@hooks-test", "1:"}));
}

TEST(NvtxHooks, UnusableExportTablesAreRefused) {
  EXPECT_FALSE(installNvtxHooks(nullptr));
  EXPECT_FALSE(installNvtxHooks([](uint32_t) -> const void* { return nullptr; }));
}

}  // namespace
}  // namespace damscope::collector
