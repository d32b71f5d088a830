// The GUI's colours for what a colour encodes — the D·A·M axes, gap causes and
// kernel classes — taken from the report's palette (analyzer/report/
// report_charts.h), so a colour means the same thing in the GUI, the HTML
// report and every legend. The hues are mid-tones chosen to read on both light
// and dark window palettes; text drawn on them uses textOn().
#pragma once

#include <QColor>

#include "analyzer/analyses/kernel_categories.h"
#include "analyzer/analyses/scorecard.h"
#include "analyzer/analyses/idle_gaps.h"

namespace damscope {

QColor axisColor(Axis axis);
QColor causeColor(GapCause cause);
QColor categoryColor(KernelCategory category);

// Black or white, whichever reads better on `fill` (WCAG relative luminance,
// https://www.w3.org/TR/WCAG21/#dfn-relative-luminance, threshold 0.179 where
// the contrast ratios against black and white are equal).
QColor textOn(const QColor& fill);

}  // namespace damscope
