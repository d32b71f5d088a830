// The GUI's colours for what a colour encodes — the D·A·M axes, gap causes and
// kernel classes — taken from the report's palette (analyzer/report/
// report_charts.h), so a colour means the same thing in the GUI, the HTML
// report and every legend. Kernel classes and the axes/causes are two
// palettes that never share a hue family (analyzer/report/vocabulary.h names
// their sources; sameHueFamily() is the rule a test holds them to). Text drawn
// on them uses textOn().
//
// The timeline's other colours live here too, so no widget picks a colour:
// what a copy, memset, API call or sync is drawn in, a range's hue, the step
// band's stripes and the counter plots' fill.
#pragma once

#include <cstddef>
#include <cstdint>

#include <QColor>

#include "analyzer/analyses/idle_gaps.h"
#include "analyzer/analyses/kernel_categories.h"
#include "analyzer/analyses/scorecard.h"
#include "gui/models/event_ref.h"

namespace damscope {

QColor axisColor(Axis axis);
QColor causeColor(GapCause cause);
QColor categoryColor(KernelCategory category);
// The verdict pill's colour: the report's verdictColour (vocabulary.h).
QColor verdictColor(Verdict verdict);

// Whether two colours belong to one hue family, so that a reader could take
// one for the other: both chromatic with hues less than kHueFamilyDegrees
// apart (one step of a 12-hue colour wheel), or both neutral (HSL saturation
// under kNeutralSaturation, where hue means nothing) with lightnesses less
// than kNeutralLightnessStep apart.
inline constexpr double kHueFamilyDegrees = 30;
inline constexpr double kNeutralSaturation = 0.12;
inline constexpr double kNeutralLightnessStep = 0.25;
bool sameHueFamily(const QColor& a, const QColor& b);

// A fold of many events drawn as one box lays down the ink its events would:
// its colour at an alpha equal to its busy fraction (the share of its span
// its events cover, as box-filtering the events into its pixels would give),
// but never under kMinFoldAlpha so that a sparse fold still shows. A fold 0.3 %
// busy is drawn at 15 % opacity, one 60 % busy at 60 %, a solid one solid.
inline constexpr double kMinFoldAlpha = 0.15;
double foldAlpha(double busy_fraction);
QColor foldColor(const QColor& fill, double busy_fraction);

// The fill of an event that has no colour of its own: copies and memsets in
// blue-greys (data moved, not computed), runtime API calls in sand, syncs in
// a muted red (a thread or stream waiting). Kernels (categoryColor), ranges
// (rangeColor) and gaps (causeColor) are coloured by what they are; for
// those kinds this answers a neutral grey.
QColor eventKindColor(EventKind kind);
// A stable mid-tone hue per range name (its string id), so that the repeats of
// one op read alike and neighbouring ops differ (Knuth's multiplicative hash
// spreads consecutive ids over the hue circle).
QColor rangeColor(int32_t name_id);
// The step band's fill for the step at `index`: two greys in turn.
QColor stepBandColor(size_t index);
// A counter plot's area (drawn translucent, outlined darker).
QColor counterColor();
// Where records were lost (TimelineRows::lost): a dark neutral, drawn as a
// crosshatch over the rows and a solid bar under the ruler. Neutral, so it
// takes no hue from either palette; crosshatched, so it is not read as a
// fold (single hatch) or an event (solid).
QColor lostRecordsColor();
// The selected event's double outline: a dark ring outside a light one, so
// that one of the two contrasts with any fill (as Perfetto outlines its
// selected slice). Highlighted events (evidence) are outlined in the same
// two colours, dashed (TimelinePainter::paintEvidence).
QColor selectionOuterColor();
QColor selectionInnerColor();

// Black or white, whichever reads better on `fill` (WCAG relative luminance,
// https://www.w3.org/TR/WCAG21/#dfn-relative-luminance, threshold 0.179 where
// the contrast ratios against black and white are equal).
QColor textOn(const QColor& fill);

}  // namespace damscope
