// Where the step band's labels go: see step_labels.h.
#include "gui/timeline/step_labels.h"

#include <QObject>

namespace damscope {

std::vector<StepLabel> layoutStepLabels(std::span<const StepExtent> steps,
                                        const QFontMetricsF& metrics) {
  std::vector<StepLabel> out;
  double free_from = -1e300;  // where the next label may start
  for (size_t i = 0; i < steps.size(); ++i) {
    const StepExtent& step = steps[i];
    const double room = step.x1 - step.x0 - 2 * kStepLabelPaddingPx;
    const QString forms[] = {QObject::tr("step %1").arg(step.number), QString::number(step.number)};
    for (const QString& text : forms) {
      const double width = metrics.horizontalAdvance(text);
      if (width > room) continue;
      const double x0 = (step.x0 + step.x1 - width) / 2;
      if (x0 < free_from) continue;  // a shorter form, centred, starts later
      out.push_back({x0, x0 + width, text, i});
      free_from = x0 + width + kStepLabelGapPx;
      break;
    }
  }
  return out;
}

}  // namespace damscope
