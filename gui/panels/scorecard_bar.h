// The D·A·M scorecard as one stacked horizontal bar: each axis a segment as
// wide as its share of the analysed step time, in the axis's colour
// (palette.h), its percentage written inside only where the text fits, and a
// legend below that wraps to the widget's width. It only paints what
// setScorecard gave it.
#pragma once

#include <optional>

#include <QWidget>

#include "analyzer/analyses/scorecard.h"

namespace damscope {

class ScorecardBar : public QWidget {
  Q_OBJECT

 public:
  explicit ScorecardBar(QWidget* parent = nullptr);

  // Empty: the bar says there is no GPU work to judge.
  void setScorecard(const std::optional<Scorecard>& card);
  const std::optional<Scorecard>& scorecard() const { return card_; }

  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  // Legend entries laid out in rows within `width`; returns the height used.
  int layoutLegend(int width, std::vector<QRect>* rects) const;
  std::vector<Axis> legendAxes() const;

  std::optional<Scorecard> card_;
};

}  // namespace damscope
