// The scope of a figure in words: see figure_scope.h.
#include "gui/models/figure_scope.h"

#include <QObject>

namespace damscope {
namespace {

// "1 step", "5 steps".
QString stepCount(int64_t n) {
  return n == 1 ? QObject::tr("1 step") : QObject::tr("%1 steps").arg(n);
}

}  // namespace

std::optional<TimeWindow> scopeWindow(const RankResult& rank, FigureScope scope) {
  if (scope == FigureScope::kWholeTrace || !rank.window.start_ns || !rank.window.end_ns) {
    return std::nullopt;
  }
  // The analysed range's end is the last analysed GPU operation's end; an
  // operation starting exactly there is not in it, as TimeWindow is [start, end).
  return TimeWindow{*rank.window.start_ns, *rank.window.end_ns};
}

QString scopeWords(const RankResult& rank, FigureScope scope) {
  const auto steps = static_cast<int>(rank.steps.size());
  if (scope == FigureScope::kWholeTrace) {
    return steps > 0 ? QObject::tr("the whole trace (%1)").arg(stepCount(steps))
                     : QObject::tr("the whole trace");
  }
  const auto analysed = static_cast<int>(rank.window.step_count);
  QString words = analysedStepsWords(rank);
  if (analysed > 0 && rank.window.cut && steps > analysed) {
    words += QObject::tr(" (the last of %1 steps is cut off, as HTA does)").arg(steps);
  }
  return words;
}

QString analysedStepsWords(const RankResult& rank) {
  const int64_t analysed = rank.window.step_count;
  if (analysed == 0) return QObject::tr("the analysed span (no steps found)");
  return analysed == 1 ? QObject::tr("the analysed step")
                       : QObject::tr("the %1 analysed steps").arg(analysed);
}

QString keyFigureScope(const RankResult& rank, std::string_view label) {
  const QString steps = scopeWords(rank, FigureScope::kAnalysedSteps);
  if (label == "Step time" || label == "Throughput") return QObject::tr("Over %1.").arg(steps);
  if (label == "MFU" || label == "HFU") {
    return QObject::tr("The FLOPs of %1 over their wall time and the device's peak.").arg(steps);
  }
  if (label.ends_with("utilization")) {
    // gpu_utilization.h: TensorBoard's range, its steps when there are some,
    // else the whole span.
    return rank.utilization.steps_used > 0
               ? QObject::tr("Time with a kernel running over the wall time from the first to "
                             "the last of %1 (TensorBoard's range); not a share of the kernels' "
                             "time (Statistics).")
                     .arg(stepCount(rank.utilization.steps_used))
               : QObject::tr("Time with a kernel running over the trace's span (no steps to "
                             "measure); not a share of the kernels' time (Statistics).");
  }
  if (label.ends_with("idle")) {
    return QObject::tr("Idle time of the primary device from the first to the last GPU "
                       "operation of %1.")
        .arg(steps);
  }
  return {};
}

QString scorecardScope(const RankResult& rank) {
  return QObject::tr("Shares of the wall time of %1: each instant counted once, under one axis "
                     "(busy before idle). A kernel axis is time with kernels running, not "
                     "the kernels' share of GPU time (Statistics).")
      .arg(scopeWords(rank, FigureScope::kAnalysedSteps));
}

}  // namespace damscope
