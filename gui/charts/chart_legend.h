// A chart's legend as a widget under the plot: each entry a mark in its
// series' colour and its name written whole, the entries flowed into as many
// rows as the width needs (text_layout.h). Qt Charts 6.4's own legend keeps
// one row or one column and cuts names short ("atten…", "exposed commu…")
// in the charts' usual 500 px; the charts hide it and fill this one.
#pragma once

#include <vector>

#include <QColor>
#include <QString>
#include <QWidget>

namespace damscope {

struct LegendEntry {
  enum class Mark { kSwatch, kDisc, kLine };
  QColor colour;
  QString text;
  Mark mark = Mark::kSwatch;
};

class ChartLegend : public QWidget {
  Q_OBJECT
 public:
  explicit ChartLegend(QWidget* parent = nullptr);

  // No entries hides the legend.
  void setEntries(std::vector<LegendEntry> entries);
  const std::vector<LegendEntry>& entries() const { return entries_; }

  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<QRect> layout(int width) const;

  std::vector<LegendEntry> entries_;
};

}  // namespace damscope
