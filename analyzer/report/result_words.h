// The words and figures every human-facing rendering of a result shares (the
// text summary, the HTML and Markdown reports): a percentage, a FLOP rate,
// where MFU's inputs came from, what a finding can gain. One phrasing per
// figure, so the terminal and the report say the same thing.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/result/analysis_result.h"

namespace damscope {

// "GPU", or "CPU" on a CPU run: what the device is called in every sentence.
std::string_view deviceWord(const RankResult& rank);
// "GPU 0 Tesla V100-DGXS-32GB", "CPU AMD EPYC"; empty when no device did work.
std::string deviceLabel(const RankResult& rank);

std::string percent(double v);  // "41.3 %"; "n/a" when not finite
std::string percent(const std::optional<double>& v);
std::string flopRate(double flops_per_s);  // "312.0 TFLOP/s"
std::string flopCount(double flops);       // "777.6 GFLOP", "1.23 TFLOP"

std::string_view flopsSourceWords(FlopsSource source);          // "the model annotation"
std::string_view precisionSourceWords(PrecisionSource source);  // "from kernel names"
std::string_view metricSourceWords(MetricSource source);        // "estimated from shapes"
// Where the verdict's compute/memory split came from: "from op shapes on
// 92.1 %, from kernel names on 7.9 % of computation kernel time".
std::string boundSourceWords(const RooflineReport& roofline);
// Why the verdict is what it is, from the run's scorecard: "the GPU is
// starved: stalls take 76.0 % of the step (threshold 20 %); the largest is
// data stall at 41.2 %", or "... is fed: ...; compute-bound kernels take
// 71.0 %". When the largest stall is idle the trace does not explain, it
// says so and names the largest known stall next. Empty without a scorecard.
std::string stallWords(const RankResult& rank);
// An op's place on the roofline: "memory-bound, 41.0 % of its ceiling", or "".
std::string opRooflineWords(const OpRow& op);

// "saves at most 12.3 % of step time", or why no bound is stated.
std::string gainWords(const Finding& finding);
// What freeing the finding's cause does to the critical path (critical_path.h):
// "38.7 % of the critical path: without it the median step takes ≈ 111.3 ms
// (now 179.7 ms)"; "" when the finding has no projection.
std::string projectionWords(const Finding& finding);
// A critical path's composition, largest first, parts under 0.05 % left out:
// "data 38.0 %, kernel 36.2 %, cpu 25.1 %, kernel gap 0.8 %".
std::string pathCompositionWords(const CriticalPath& path);
// The analysed steps that have a critical path, in time order.
std::vector<const StepResult*> stepsWithPaths(const RankResult& rank);

// Exposed communication split (cross_rank.h RankComparison): "(waiting for
// other ranks 12.0 %, transfer 6.7 %)", or with one rank "(waiting for other
// ranks versus transfer: needs the other ranks' traces)".
std::string communicationSplitWords(const RankResult& rank);

// What a document lists of a longer list: the first `max` items, and how
// many it leaves to the full tables ("3 more ..."). One selection for every
// rendering: the findings of a rank (the rule engine orders them most
// important first) and the evidence of a finding (in the order it gives).
template <typename T>
struct Shown {
  std::span<const T> items;
  size_t more = 0;
};
Shown<Finding> shownFindings(const RankResult& rank, size_t max);
Shown<EvidenceItem> shownEvidence(const Finding& finding, size_t max);

// The ops behind a finding's evidence: one per (op, module) that its
// kernels, copies and calls name (EvidenceItem::op, ::module), most items
// first, then by op and module. What "which op or layer is it?" asks of a
// finding.
struct EvidenceOrigin {
  std::string op;      // "" where only the module is known
  std::string module;  // ""
  size_t items = 0;
};
std::vector<EvidenceOrigin> evidenceOrigins(const Finding& finding);
// "aten::mm in Linear_0 ×6, aten::addmm ×3, 2 more": the first `max`
// origins, each name passed through `name` (the rendering's escaping);
// empty when no evidence names an op or a module.
std::string originWords(const Finding& finding, size_t max,
                        const std::function<std::string(std::string_view)>& name);

// "12 steps (ProfilerStep#3 .. ProfilerStep#14); avg step 61.2 ms, 4,096 tokens/s".
std::string stepsLine(const RankResult& rank);

// "the bf16 peak of A100 SXM4 40GB (312.0 TFLOP/s, precision from kernel names)".
std::string peakWords(const MfuReport& mfu);

}  // namespace damscope

namespace damscope {

// The headline figures of a rank, in the order a reader wants them: step
// time, throughput, MFU, GPU utilisation, GPU idle. Unknown ones are left out,
// except MFU, which says why it is missing and how to supply it (`remedies`,
// as noteText takes them).
struct KeyFigure {
  std::string label;   // "MFU"
  std::string value;   // "41.3 %"
  std::string detail;  // "40-55 %: well-tuned large-model training"
};
std::vector<KeyFigure> keyFigures(const RankResult& rank,
                                  const std::array<std::string, kRemedyCount>& remedies);

// A note with the front end's way to supply what it lacks appended.
std::string noteText(const AnalysisNote& note,
                     const std::array<std::string, kRemedyCount>& remedies);

}  // namespace damscope
