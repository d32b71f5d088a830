// Axes the GUI's charts share, styled from the window's palette so they read
// in light and dark themes: a step axis that labels at most ~16 steps however
// many there are (a category axis would print every label on top of the
// next), and a value axis from 0 with round ticks.
#pragma once

#include <string>
#include <vector>

#include <QPalette>
#include <QString>

class QAbstractAxis;
class QCategoryAxis;
class QValueAxis;

namespace damscope {

// Text, grid and title colours from `pal`.
void styleAxis(QAbstractAxis* axis, const QPalette& pal);

// Bars sit at x = 0 .. labels.size() - 1; the axis spans [-0.5, n - 0.5] and
// labels every k-th bar with labels[i].
QCategoryAxis* stepAxis(const std::vector<std::string>& labels, const QPalette& pal);

// 0 .. a round value at or above `max` (at least `floor`), with "nice" ticks.
QValueAxis* valueAxisFromZero(double max, const QString& title, const QPalette& pal,
                              double floor = 1);

}  // namespace damscope
