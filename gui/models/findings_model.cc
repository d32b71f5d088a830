// The findings model: see findings_model.h.
#include "gui/models/findings_model.h"

#include "analyzer/report/result_words.h"
#include "gui/models/figure_text.h"

namespace damscope {

FindingsModel::FindingsModel(QObject* parent) : QAbstractTableModel(parent) {}

void FindingsModel::setRun(std::shared_ptr<const AnalysedRun> run, int rank) {
  if (!run || rank < 0 || static_cast<size_t>(rank) >= run->run.ranks.size()) {
    setResult(nullptr, rank);
    return;
  }
  // Shares ownership of the run, pointing at its rank's result.
  const RankResult* result = &run->run.ranks[static_cast<size_t>(rank)];
  setResult(std::shared_ptr<const RankResult>(std::move(run), result), rank);
}

void FindingsModel::setResult(std::shared_ptr<const RankResult> result, int rank) {
  beginResetModel();
  result_ = std::move(result);
  rank_ = rank;
  findings_ = result_ ? &result_->findings.findings : nullptr;
  endResetModel();
}

int FindingsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !findings_ ? 0 : static_cast<int>(findings_->size());
}

int FindingsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

namespace {

QString severityText(Severity s) {
  switch (s) {
    case Severity::kHigh:
      return QStringLiteral("High");
    case Severity::kMedium:
      return QStringLiteral("Medium");
    case Severity::kLow:
      return QStringLiteral("Low");
  }
  return {};
}

QString gainText(const Finding& f) {
  return f.max_gain_pct ? percentText(*f.max_gain_pct) : missingText();
}

}  // namespace

QVariant FindingsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
    return {};
  }
  const Finding& f = (*findings_)[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case kSeverity:
          return severityText(f.severity);
        case kTitle:
          return QString::fromStdString(f.title);
        case kRecommendation:
          return QString::fromStdString(f.recommendation);
        case kMaxGain:
          return gainText(f);
        case kEvidence:
          return static_cast<int>(eventsOfFinding(f, rank_).size());
      }
      return {};
    case Qt::ToolTipRole:
      if (index.column() != kMaxGain) return QString::fromStdString(f.recommendation);
      if (const std::string path = projectionWords(f); !path.empty()) {
        return QString::fromStdString(gainWords(f) + "; " + path);
      }
      return QString::fromStdString(gainWords(f));
    case SortRole:
      switch (index.column()) {
        case kSeverity:
          return static_cast<int>(f.severity);
        case kMaxGain:
          return f.max_gain_pct.value_or(-1.0);
        case kEvidence:
          return static_cast<int>(eventsOfFinding(f, rank_).size());
        default:
          return data(index, Qt::DisplayRole);
      }
    case EventsRole:
      return QVariant::fromValue(eventsOfFinding(f, rank_));
    case SeverityRole:
      return static_cast<int>(f.severity);
    case TitleRole:
      return QString::fromStdString(f.title);
    case RecommendationRole:
      return QString::fromStdString(f.recommendation);
    case GainRole:
      return QString::fromStdString(gainWords(f));

    case BehindRole:
      return QString::fromStdString(
          originWords(f, 3, [](std::string_view name) { return std::string(name); }));
    default:
      return {};
  }
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
    return QAbstractTableModel::headerData(section, orientation, role);
  }
  switch (section) {
    case kSeverity:
      return tr("Severity");
    case kTitle:
      return tr("Finding");
    case kRecommendation:
      return tr("Recommendation");
    case kMaxGain:
      return tr("Max gain");
    case kEvidence:
      return tr("Evidence");
  }
  return {};
}

}  // namespace damscope
