// NVTX events -> ranges: see nvtx_assembler.h.
#include "collector/nvtx_assembler.h"

#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "collector/nvtx_registry.h"
#include "collector/text_encoding.h"
#include "base/json_text.h"

namespace damscope::collector {
namespace {

// Ends seen before their start are remembered up to this many (each one is an
// end whose start lies before the window, or on a thread drained later).
constexpr size_t kMaxEarlyEnds = 1 << 16;

void appendPayload(std::string& out, const NvtxEventHeader& h) {
  char text[64];
  switch (h.payload_kind) {
    case NvtxPayloadKind::kUint64:
      std::snprintf(text, sizeof(text), "%" PRIu64, h.payload);
      break;
    case NvtxPayloadKind::kInt64:
      std::snprintf(text, sizeof(text), "%" PRId64, static_cast<int64_t>(h.payload));
      break;
    case NvtxPayloadKind::kUint32:
      std::snprintf(text, sizeof(text), "%" PRIu32, static_cast<uint32_t>(h.payload));
      break;
    case NvtxPayloadKind::kInt32:
      std::snprintf(text, sizeof(text), "%" PRId32,
                    static_cast<int32_t>(static_cast<uint32_t>(h.payload)));
      break;
    case NvtxPayloadKind::kDouble:
    case NvtxPayloadKind::kFloat: {
      double value;
      if (h.payload_kind == NvtxPayloadKind::kDouble) {
        std::memcpy(&value, &h.payload, sizeof(value));
      } else {
        float f;
        const auto bits = static_cast<uint32_t>(h.payload);
        std::memcpy(&f, &bits, sizeof(f));
        value = f;
      }
      // JSON has no NaN or infinity.
      if (std::isfinite(value)) {
        std::snprintf(text, sizeof(text), "%.17g", value);
      } else {
        std::snprintf(text, sizeof(text), "\"%s\"",
                      std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf"));
      }
      break;
    }
    case NvtxPayloadKind::kNone:
      return;
  }
  out += out.empty() ? "{" : ",";
  out += "\"payload\":";
  out += text;
}

}  // namespace

const std::string* NvtxNames::thread(int64_t tid) const {
  auto it = threads_.find(tid);
  return it == threads_.end() ? nullptr : &it->second;
}

const std::string* NvtxNames::category(const void* domain, uint32_t category) const {
  auto it = categories_.find({domain, category});
  return it == categories_.end() ? nullptr : &it->second;
}

std::string nvtxMessageText(const NvtxEventHeader& h, const uint8_t* message) {
  switch (h.message_kind) {
    case NvtxMessageKind::kAscii: {
      std::string text(reinterpret_cast<const char*>(message), h.message_bytes);
      if (h.flags & NvtxEventHeader::kTruncated) trimPartialUtf8(text);
      return text;
    }
    case NvtxMessageKind::kWide: {
      // Copied out because the ring gives no alignment guarantee for wchar_t.
      std::wstring units(h.message_bytes / sizeof(wchar_t), L'\0');
      std::memcpy(units.data(), message, units.size() * sizeof(wchar_t));
      return utf8FromWide(units.data(), units.size());
    }
    case NvtxMessageKind::kRegistered:
      return h.registered ? static_cast<const NvtxString*>(h.registered)->text : std::string();
    case NvtxMessageKind::kNone:
      return {};
  }
  return {};
}

bool applyNvtxNaming(const NvtxEventHeader& h, const uint8_t* message, NvtxNames& names) {
  if (h.type == NvtxEventType::kNameThread) {
    names.setThread(static_cast<int64_t>(h.id), nvtxMessageText(h, message));
    return true;
  }
  if (h.type == NvtxEventType::kNameCategory) {
    names.setCategory(h.domain, static_cast<uint32_t>(h.id), nvtxMessageText(h, message));
    return true;
  }
  return false;
}

bool isStepRangeName(std::string_view name) {
  auto lower_prefix = [&](std::string_view prefix) {
    if (name.size() < prefix.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i) {
      if (std::tolower(static_cast<unsigned char>(name[i])) != prefix[i]) return false;
    }
    return true;
  };
  auto digits_from = [&](size_t at) {
    if (at >= name.size()) return false;
    for (size_t i = at; i < name.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
    }
    return true;
  };
  if (name.rfind("ProfilerStep#", 0) == 0) return digits_from(13);
  if (!lower_prefix("step")) return false;
  if (name.size() == 4) return true;
  const char separator = name[4];
  if (separator != ' ' && separator != '#' && separator != '_' && separator != ':') return false;
  return digits_from(5);
}

NvtxAssembler::NvtxAssembler(CaptureWriter& capture, NvtxNames& names, int64_t window_start_ns)
    : capture_(capture), names_(names), window_start_ns_(window_start_ns) {
  nvtx_category_ = capture_.intern("nvtx");
  mark_category_ = capture_.intern("nvtx_mark");
}

StringId NvtxAssembler::domainName(const void* domain) {
  if (!domain) return kNoString;
  auto [it, added] = domain_names_.try_emplace(domain, kNoString);
  if (added) it->second = capture_.intern(static_cast<const NvtxDomain*>(domain)->name);
  return it->second;
}

std::string NvtxAssembler::argsFor(const NvtxEventHeader& h) {
  std::string args;
  appendPayload(args, h);
  if (h.flags & NvtxEventHeader::kHasCategory) {
    args += args.empty() ? "{" : ",";
    args += "\"category\":";
    if (const std::string* name = names_.category(h.domain, h.category)) {
      appendJsonString(args, *name);
    } else {
      args += std::to_string(h.category);
    }
  }
  if (h.flags & NvtxEventHeader::kHasColor) {
    char color[16];
    std::snprintf(color, sizeof(color), "\"#%08x\"", h.color);
    args += args.empty() ? "{" : ",";
    args += "\"color\":";
    args += color;
  }
  if (h.flags & NvtxEventHeader::kTruncated) {
    capture_.addStat(kStatTruncated, 1,
                     "NVTX messages longer than a quarter of the thread's ring, cut to fit; "
                     "their ranges carry \"truncated\": true");
    args += args.empty() ? "{" : ",";
    args += "\"truncated\":true";
  }
  if (!args.empty()) args += "}";
  return args;
}

NvtxAssembler::Open NvtxAssembler::makeOpen(const NvtxEventHeader& h, const uint8_t* message,
                                            ThreadState& thread) {
  Open o;
  o.ts = h.ts;
  o.domain = h.domain;
  o.start_end = h.type == NvtxEventType::kStart;
  o.id = h.id;
  const std::string text = nvtxMessageText(h, message);
  o.name = text.empty() ? kNoString : capture_.intern(text);
  o.args = argsFor(h);
  o.depth = static_cast<int32_t>(thread.open.size());
  return o;
}

void NvtxAssembler::setParent(int64_t child_id, int64_t parent_id) {
  RangeTable& ranges = capture_.batch().ranges;
  if (capture_.inBatch(ranges, child_id)) {
    ranges.parent_id[capture_.batchIndex(ranges, child_id)] = parent_id;
  } else {
    capture_.update(RangeTable::kSqlName, "parent_id", child_id, parent_id);
  }
}

void NvtxAssembler::close(int64_t tid, ThreadState& thread, size_t index, int64_t end_ns,
                          bool open_at_end) {
  Open o = std::move(thread.open[index]);
  thread.open.erase(thread.open.begin() + static_cast<std::ptrdiff_t>(index));
  RangeTable& ranges = capture_.batch().ranges;
  RangeTable::Row r;
  r.ts = o.ts;
  r.dur = end_ns > o.ts ? end_ns - o.ts : 0;
  r.thread_id = capture_.threadId(tid);
  r.category = nvtx_category_;
  r.domain = domainName(o.domain);
  r.name = o.name;
  r.depth = o.depth;
  r.args = std::move(o.args);
  if (open_at_end) {
    r.args = r.args.empty() ? "{\"open_at_end\":true}"
                            : r.args.substr(0, r.args.size() - 1) + ",\"open_at_end\":true}";
  }
  const int64_t id = capture_.nextId(ranges);
  ranges.append(r);
  // The range opened just before this one and still open contains it.
  if (index > 0) thread.open[index - 1].children.push_back(id);
  for (int64_t child : o.children) setParent(child, id);
  if (o.start_end) start_thread_.erase(o.id);
  if (step_observer_ && !open_at_end && isStepRangeName(capture_.batch().strings.get(o.name))) {
    step_observer_(o.ts, end_ns);
  }
}

void NvtxAssembler::onEvent(int64_t tid, const NvtxEventHeader& h, const uint8_t* message) {
  if (applyNvtxNaming(h, message, names_)) {
    if (h.type == NvtxEventType::kNameThread) {
      if (const std::string* name = names_.thread(static_cast<int64_t>(h.id))) {
        capture_.nameThread(static_cast<int64_t>(h.id), *name);
      }
    }
    return;
  }
  // Queued by a thread that saw recording on just before an earlier window
  // closed: not part of this window.
  if (h.ts < window_start_ns_) return;
  ThreadState& thread = threads_[tid];
  switch (h.type) {
    case NvtxEventType::kPush:
      thread.open.push_back(makeOpen(h, message, thread));
      break;
    case NvtxEventType::kStart: {
      thread.open.push_back(makeOpen(h, message, thread));
      start_thread_[h.id] = tid;
      if (auto early = early_ends_.find(h.id); early != early_ends_.end()) {
        const int64_t end_ns = early->second;
        early_ends_.erase(early);
        close(tid, thread, thread.open.size() - 1, end_ns, false);
      }
      break;
    }
    case NvtxEventType::kPop: {
      // NVTX keeps one push/pop stack per domain: pop the innermost push
      // range of this domain.
      for (size_t i = thread.open.size(); i-- > 0;) {
        if (!thread.open[i].start_end && thread.open[i].domain == h.domain) {
          close(tid, thread, i, h.ts, false);
          return;
        }
      }
      capture_.addStat(kStatUnmatchedPops, 1,
                       "NVTX pops without a push in the window (pushed before it opened); ignored");
      break;
    }
    case NvtxEventType::kEnd: {
      auto owner = start_thread_.find(h.id);
      if (owner != start_thread_.end()) {
        ThreadState& starter = threads_[owner->second];
        for (size_t i = starter.open.size(); i-- > 0;) {
          if (starter.open[i].start_end && starter.open[i].id == h.id) {
            close(owner->second, starter, i, h.ts, false);
            return;
          }
        }
      }
      // The start may sit in another thread's ring not drained yet.
      if (early_ends_.size() >= kMaxEarlyEnds) {
        capture_.addStat(kStatUnmatchedEnds, static_cast<int64_t>(early_ends_.size()),
                         "NVTX range ends without a start in the window; ignored");
        early_ends_.clear();
      }
      early_ends_[h.id] = h.ts;
      break;
    }
    case NvtxEventType::kMark: {
      RangeTable& ranges = capture_.batch().ranges;
      RangeTable::Row r;
      r.ts = h.ts;
      r.dur = 0;
      r.thread_id = capture_.threadId(tid);
      r.category = mark_category_;
      r.domain = domainName(h.domain);
      const std::string text = nvtxMessageText(h, message);
      if (!text.empty()) r.name = capture_.intern(text);
      r.depth = static_cast<int32_t>(thread.open.size());
      r.args = argsFor(h);
      const int64_t id = capture_.nextId(ranges);
      ranges.append(r);
      if (!thread.open.empty()) thread.open.back().children.push_back(id);
      break;
    }
    case NvtxEventType::kNameThread:
    case NvtxEventType::kNameCategory:
      break;
  }
}

void NvtxAssembler::closeAll(int64_t end_ns) {
  int64_t open_at_end = 0;
  for (auto& [tid, thread] : threads_) {
    while (!thread.open.empty()) {
      close(tid, thread, thread.open.size() - 1, end_ns, true);
      ++open_at_end;
    }
  }
  if (open_at_end > 0) {
    capture_.addStat(kStatOpenAtEnd, open_at_end,
                     "NVTX ranges still open when the window closed; stored up to its end "
                     "with \"open_at_end\": true");
  }
  if (!early_ends_.empty()) {
    capture_.addStat(kStatUnmatchedEnds, static_cast<int64_t>(early_ends_.size()),
                     "NVTX range ends without a start in the window; ignored");
    early_ends_.clear();
  }
}

}  // namespace damscope::collector
