// A small histogram of event durations with log-spaced bins, for the runs of
// one statistics row (a request of ML users of Tracy: see a kernel's spread,
// not only its mean). The bins are computed by durationBins(), a pure
// function; the widget only paints them.
#pragma once

#include <cstdint>
#include <vector>

#include <QString>
#include <QWidget>

namespace damscope {

struct DurationBins {
  double min_ns = 0;  // lower edge of the first bin
  double max_ns = 0;  // upper edge of the last bin
  std::vector<int64_t> counts;  // bin i covers [min·r^i, min·r^(i+1)), r = (max/min)^(1/n)
};

// `bins` log-spaced bins from the shortest to the longest duration (a zero
// duration counts as 1 ns); all durations equal: one bin. Empty input: no bins.
DurationBins durationBins(std::vector<int64_t> durs_ns, int bins = 30);

class DurationHistogram : public QWidget {
  Q_OBJECT

 public:
  explicit DurationHistogram(QWidget* parent = nullptr);

  // `title` names what is shown ("volta_sgemm_128x64_nn, 9 runs").
  void setDurations(const QString& title, std::vector<int64_t> durs_ns);
  const DurationBins& bins() const { return bins_; }

  QSize sizeHint() const override { return {480, 130}; }
  QSize minimumSizeHint() const override { return {200, 110}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QString title_;
  DurationBins bins_;
};

}  // namespace damscope
