// Figures as every panel writes them, and the one way a figure that does not
// exist is written: an en dash with the reason in its tooltip, never "0 ns"
// or "-0.0 %", which read as measurements (issue 31 §1; Nsight Systems and
// Perfetto leave such cells empty, a dash says it on purpose).
//
// A percentage that rounds to zero from below is written "0.0 %": a share
// has no sign, and "-0.0 %" is a rounding artefact of a subtraction.
#pragma once

#include <optional>

#include <QString>

namespace damscope {

// A cell's text and its tooltip (empty: none); `missing` says the figure
// does not exist and `tooltip` says why.
struct FigureText {
  QString text;
  QString tooltip;
  bool missing = false;
  bool operator==(const FigureText&) const = default;
};

// The text of a figure that does not exist.
QString missingText();
// The missing figure, `why` in its tooltip ("no collectives to compare").
FigureText missingFigure(const QString& why);

// "12.3 %", `decimals` after the point; never "-0.0 %".
QString percentText(double pct, int decimals = 1);
// "1.2 ms" (formatDuration's units).
QString durationText(double ns);

// The figure when there is one, else missingFigure(why).
FigureText percentFigure(std::optional<double> pct, const QString& why, int decimals = 1);
FigureText durationFigure(std::optional<double> ns, const QString& why);

}  // namespace damscope
