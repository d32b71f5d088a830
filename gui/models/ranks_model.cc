// The ranks model: see ranks_model.h.
#include "gui/models/ranks_model.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "analyzer/report/result_words.h"
#include "analyzer/report/text_format.h"
#include "gui/models/figure_text.h"
#include "gui/models/operation_stats_model.h"
#include "gui/models/qt_text.h"

namespace damscope {

RanksModel::RanksModel(QObject* parent) : QAbstractTableModel(parent) {}

void RanksModel::setRun(std::shared_ptr<const AnalysedRun> run, int) {
  beginResetModel();
  run_ = std::move(run);
  steps_.clear();
  if (run_) {
    for (const RankResult& r : run_->run.ranks) {
      for (const StepResult& s : r.steps) steps_.push_back(s.number);
    }
    std::sort(steps_.begin(), steps_.end());
    steps_.erase(std::unique(steps_.begin(), steps_.end()), steps_.end());
  }
  endResetModel();
}

QColor RanksModel::stragglerBackground() {
  return QColor(220, 50, 47, 90);
}

int RanksModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !run_ ? 0 : static_cast<int>(run_->run.ranks.size());
}

int RanksModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kFixedColumnCount + static_cast<int>(steps_.size());
}

const RankComparison* RanksModel::comparisonOf(int row) const {
  const auto& cross = run_->run.cross_rank;
  return static_cast<size_t>(row) < cross.size() ? &cross[static_cast<size_t>(row)] : nullptr;
}

std::optional<int64_t> RanksModel::stepDur(int row, int64_t number) const {
  for (const StepResult& s : run_->run.ranks[static_cast<size_t>(row)].steps) {
    if (s.number == number) return s.dur;
  }
  return std::nullopt;
}

namespace {

std::string fileName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// The figures every panel writes (figure_text.h): a dash where there is none,
// and the median rank's "0.0 %", not "-0.0 %".
const QString kNone = missingText();

QString pctText(double v) { return percentText(v); }

}  // namespace

QVariant RanksModel::display(int row, int column) const {
  const RankResult& r = run_->run.ranks[static_cast<size_t>(row)];
  const RankComparison* c = comparisonOf(row);
  switch (column) {
    case kRank:
      return r.rank ? QString::number(*r.rank) : QString::number(row);
    case kFile:
      return r.source.empty() ? kNone : qtName(fileName(r.source));
    case kDevice: {
      const std::string label = deviceLabel(r);
      return label.empty() ? kNone : qtName(label);
    }
    case kMedianStep:
      return c ? qtString(formatDuration(static_cast<double>(c->median_step_ns))) : kNone;
    case kSlowerThanMedian:
      return c ? pctText(c->slower_than_median_pct) : kNone;
    case kStraggler:
      return c ? (c->straggler ? tr("straggler") : tr("no")) : kNone;
    case kCollectiveSkew:
      return c && c->collectives > 0
                 ? QStringLiteral("%1 / %2").arg(
                       qtString(formatDuration(static_cast<double>(c->median_start_skew_ns))),
                       qtString(formatDuration(static_cast<double>(c->max_start_skew_ns))))
                 : kNone;
    case kLastToStart:
      return c && c->collectives > 0 ? pctText(c->last_to_start_pct) : kNone;
    case kVerdict:
      return r.verdict() == Verdict::kNone
                 ? kNone
                 : QString::fromUtf8(toText(r.verdict()).data(),
                                     static_cast<qsizetype>(toText(r.verdict()).size()));
    default: {
      const auto dur = stepDur(row, steps_[static_cast<size_t>(column - kFixedColumnCount)]);
      return dur ? qtString(formatDuration(static_cast<double>(*dur))) : kNone;
    }
  }
}

QString RanksModel::missingWhy(int row, int column) const {
  switch (column) {
    case kFile:
      return tr("No file: the run was not read from one");
    case kDevice:
      return tr("No device did work on this rank");
    case kVerdict:
      return tr("No device work in the analysed window to judge");
    case kCollectiveSkew:
    case kLastToStart:
      if (comparisonOf(row)) return tr("No collective was matched across the ranks");
      break;
    default:
      if (column >= kFixedColumnCount) return tr("This rank has no step of that number");
      break;
  }
  return run_->run.ranks.size() < 2 ? tr("One rank: nothing to compare it with")
                                    : tr("This rank has no analysed steps to compare");
}

QVariant RanksModel::sortKey(int row, int column) const {
  const RankComparison* c = comparisonOf(row);
  switch (column) {
    case kRank:
      return row;
    case kFile:
    case kDevice:
    case kVerdict:
      return display(row, column);
    case kMedianStep:
      return c ? static_cast<qlonglong>(c->median_step_ns) : qlonglong{-1};
    case kSlowerThanMedian:
      return c ? c->slower_than_median_pct : -1.0;
    case kStraggler:
      return c ? int{c->straggler} : -1;
    case kCollectiveSkew:
      return c && c->collectives > 0 ? static_cast<qlonglong>(c->median_start_skew_ns)
                                     : qlonglong{-1};
    case kLastToStart:
      return c && c->collectives > 0 ? c->last_to_start_pct : -1.0;
    default: {
      const auto dur = stepDur(row, steps_[static_cast<size_t>(column - kFixedColumnCount)]);
      return static_cast<qlonglong>(dur.value_or(-1));
    }
  }
}

QVariant RanksModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
    return {};
  }
  const RankComparison* c = comparisonOf(index.row());
  const bool straggler = c && c->straggler;
  switch (role) {
    case Qt::DisplayRole:
      return display(index.row(), index.column());
    case SortRole:
      return sortKey(index.row(), index.column());
    case StragglerRole:
      return straggler;
    case Qt::BackgroundRole:
      return straggler ? QVariant(stragglerBackground()) : QVariant();
    case Qt::TextAlignmentRole:
      return index.column() == kFile || index.column() == kDevice || index.column() == kVerdict
                 ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                 : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
      if (display(index.row(), index.column()) == kNone) {
        return missingWhy(index.row(), index.column());
      }
      if (index.column() == kCollectiveSkew) {
        return tr("Start skew of matched collectives: median / max");
      }
      if (index.column() == kVerdict) return display(index.row(), kVerdict);
      return qtNameTooltip(run_->run.ranks[static_cast<size_t>(index.row())].source);
    default:
      return {};
  }
}

QVariant RanksModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
      section >= columnCount()) {
    return QAbstractTableModel::headerData(section, orientation, role);
  }
  switch (section) {
    case kRank:
      return tr("Rank");
    case kFile:
      return tr("File");
    case kDevice:
      return tr("Device");
    case kMedianStep:
      return tr("Median step");
    case kSlowerThanMedian:
      return tr("Slower than median");
    case kStraggler:
      return tr("Straggler");
    case kCollectiveSkew:
      return tr("Collective skew (median / max)");
    case kLastToStart:
      return tr("Last to start");
    case kVerdict:
      return tr("Verdict");
    default:
      return tr("Step %1").arg(steps_[static_cast<size_t>(section - kFixedColumnCount)]);
  }
}

std::vector<std::string> rankNotes(const AnalysedRun& run) {
  std::vector<std::string> out;
  const std::vector<RankResult>& ranks = run.run.ranks;
  for (const std::string& note : run.run.cross_rank_notes) {
    std::string text;
    size_t at = 0;
    // Each "rank N" the note names, followed by the file of the rank that
    // trace numbers N (the first, if several claim it).
    for (size_t hit; (hit = note.find("rank ", at)) != std::string::npos;) {
      size_t end = hit + 5;
      while (end < note.size() && std::isdigit(static_cast<unsigned char>(note[end]))) ++end;
      text.append(note, at, end - at);
      at = end;
      if (end == hit + 5 || (hit > 0 && std::isalpha(static_cast<unsigned char>(note[hit - 1])))) {
        continue;
      }
      const int32_t number = std::stoi(note.substr(hit + 5, end - hit - 5));
      for (size_t i = 0; i < ranks.size(); ++i) {
        if (ranks[i].rank.value_or(static_cast<int32_t>(i)) != number) continue;
        const std::string file = fileName(ranks[i].source);
        if (!file.empty() && note.find(file) == std::string::npos) text += " (" + file + ")";
        break;
      }
    }
    text.append(note, at, std::string::npos);
    out.push_back(std::move(text));
  }
  return out;
}

}  // namespace damscope
