// The diagnosis panel: see diagnosis_panel.h.
#include "gui/panels/diagnosis_panel.h"

#include <algorithm>

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QPainter>
#include <QPainterPath>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

#include "analyzer/report/result_words.h"
#include "analyzer/report/text_format.h"
#include "gui/models/figure_scope.h"
#include "gui/models/findings_model.h"
#include "gui/models/palette.h"
#include "gui/models/qt_text.h"
#include "gui/panels/elided_label.h"
#include "gui/panels/scorecard_bar.h"

namespace damscope {
namespace {

// Severity colours: the conventional red / amber / blue-grey of issue
// trackers, mid-tones that read on light and dark windows.
QColor severityColor(int severity) {
  switch (static_cast<Severity>(severity)) {
    case Severity::kHigh:
      return QColor(0xd6, 0x45, 0x3d);
    case Severity::kMedium:
      return QColor(0xe0, 0x9b, 0x2d);
    case Severity::kLow:
      return QColor(0x6c, 0x8e, 0xbf);
  }
  return QColor(Qt::gray);
}

QString severityWord(int severity) {
  return qtString(toText(static_cast<Severity>(severity))).toUpper();
}

// A finding as a card: a severity strip and badge, the title in bold, the
// recommendation word-wrapped, and the gain and evidence count below.
class FindingDelegate : public QStyledItemDelegate {
 public:
  explicit FindingDelegate(QListView* view) : QStyledItemDelegate(view), view_(view) {}

  void paint(QPainter* p, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override {
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = option.palette;
    // Flush left with the panel's headings; the gap between cards is kOuter.
    const QRect card = option.rect.adjusted(0, kOuter / 2, -2, -kOuter / 2);
    const bool selected = option.state & QStyle::State_Selected;
    const bool hover = option.state & QStyle::State_MouseOver;
    QColor background = pal.color(QPalette::Base);
    if (selected) {
      background = pal.color(QPalette::Highlight);
      background.setAlpha(60);
    } else if (hover) {
      background = pal.color(QPalette::AlternateBase);
    }
    QPainterPath outline;
    outline.addRoundedRect(QRectF(card).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    p->fillPath(outline, background);
    const int severity = index.data(FindingsModel::SeverityRole).toInt();
    const QColor strip = severityColor(severity);
    // The severity strip is the card's left edge, inside its rounded outline.
    p->save();
    p->setClipPath(outline);
    p->fillRect(QRect(card.left(), card.top(), 5, card.height()), strip);
    p->restore();
    p->setPen(QPen(pal.color(QPalette::Mid), 1));
    p->setBrush(Qt::NoBrush);
    p->drawPath(outline);
    p->setPen(Qt::NoPen);

    const Layout l = layout(option, index, card.width());
    int y = card.top() + kInner;
    const int x = card.left() + kInner + 5;
    // Severity badge, then the title beside it.
    p->setFont(l.small_bold);
    const QRect badge(x, y + (l.title_line - l.badge.height()) / 2, l.badge.width(),
                      l.badge.height());
    p->setBrush(strip);
    p->drawRoundedRect(badge, 3, 3);
    p->setPen(textOn(strip));
    p->drawText(badge, Qt::AlignCenter, l.badge_text);
    p->setFont(l.title_font);
    p->setPen(pal.color(QPalette::Text));
    p->drawText(QRect(badge.right() + 8, y, l.text_width - badge.width() - 8, l.title_height),
                Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, l.title);
    y += l.title_height + 4;
    p->setFont(option.font);
    p->drawText(QRect(x, y, l.text_width, l.recommendation_height),
                Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, l.recommendation);
    y += l.recommendation_height + 4;
    p->setFont(l.small);
    p->setPen(pal.color(QPalette::PlaceholderText));
    p->drawText(QRect(x, y, l.text_width, l.footer_height),
                Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, l.footer);
    p->restore();
  }

  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
    const int width = std::max(240, view_->viewport()->width()) - 2;
    const Layout l = layout(option, index, width);
    return {width,
            l.title_height + l.recommendation_height + l.footer_height + 8 + 2 * kInner + kOuter};
  }

 private:
  static constexpr int kOuter = 8;   // around a card
  static constexpr int kInner = 10;  // inside a card

  struct Layout {
    QFont title_font, small, small_bold;
    QString badge_text, title, recommendation, footer;
    QSize badge;
    int text_width = 0, title_line = 0, title_height = 0, recommendation_height = 0,
        footer_height = 0;
  };

  Layout layout(const QStyleOptionViewItem& option, const QModelIndex& index,
                int card_width) const {
    Layout l;
    l.title_font = option.font;
    l.title_font.setBold(true);
    l.title_font.setPointSizeF(option.font.pointSizeF() * 1.1);
    l.small = option.font;
    l.small.setPointSizeF(option.font.pointSizeF() * 0.9);
    l.small_bold = l.small;
    l.small_bold.setBold(true);
    l.text_width = std::max(100, card_width - 2 * kInner - 5);
    l.badge_text = severityWord(index.data(FindingsModel::SeverityRole).toInt());
    const QFontMetrics badge_fm(l.small_bold);
    l.badge = QSize(badge_fm.horizontalAdvance(l.badge_text) + 12, badge_fm.height() + 2);
    l.title = index.data(FindingsModel::TitleRole).toString();
    l.recommendation = index.data(FindingsModel::RecommendationRole).toString();
    const int events = index.siblingAtColumn(FindingsModel::kEvidence).data().toInt();
    l.footer = index.data(FindingsModel::GainRole).toString();
    if (!l.footer.isEmpty()) l.footer[0] = l.footer[0].toUpper();
    // The ops behind the evidence on one line, cut where it ends, so that a
    // card grows by a line at most (three in view at 1600x1000, issue 31 §5);
    // the Event dock names each event's op in full.
    const QString behind = index.data(FindingsModel::BehindRole).toString();
    if (!behind.isEmpty()) {
      l.footer = QFontMetrics(l.small).elidedText(QObject::tr("Behind it: %1").arg(behind),
                                                  Qt::ElideRight, l.text_width) +
                 '\n' + l.footer;
    }
    l.footer += events == 1 ? QObject::tr("  ·  1 evidence event — click to show it")
                : events > 1
                    ? QObject::tr("  ·  %1 evidence events — click to show them").arg(events)
                    : QObject::tr("  ·  no evidence on the timeline");
    const QFontMetrics title_fm(l.title_font);
    l.title_line = title_fm.height();
    const int title_width = l.text_width - l.badge.width() - 8;
    l.title_height =
        title_fm.boundingRect(QRect(0, 0, title_width, 10000), Qt::TextWordWrap, l.title).height();
    l.recommendation_height =
        QFontMetrics(option.font)
            .boundingRect(QRect(0, 0, l.text_width, 10000), Qt::TextWordWrap, l.recommendation)
            .height();
    l.footer_height =
        QFontMetrics(l.small)
            .boundingRect(QRect(0, 0, l.text_width, 10000), Qt::TextWordWrap, l.footer)
            .height();
    return l;
  }

  QListView* view_;
};

QLabel* makeLabel(QWidget* parent, double scale, bool bold, bool wrap = true) {
  auto* label = new QLabel(parent);
  QFont f = label->font();
  f.setPointSizeF(f.pointSizeF() * scale);
  f.setBold(bold);
  label->setFont(f);
  label->setWordWrap(wrap);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

}  // namespace

DiagnosisPanel::DiagnosisPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(16, 14, 16, 12);
  layout->setSpacing(8);

  scope_ = makeLabel(this, 0.95, true);
  scope_->setForegroundRole(QPalette::Highlight);
  scope_->hide();
  layout->addWidget(scope_);
  // The verdict's pill and its sentence share a line: the findings below
  // need the height (three of them in view at 1600x1000, issue 31 §5).
  verdict_ = makeLabel(this, 1.6, true, false);
  sentence_ = makeLabel(this, 1.1, false);
  context_ = new ElidedLabel(this);
  QFont context_font = context_->font();
  context_font.setPointSizeF(context_font.pointSizeF() * 0.95);
  context_->setFont(context_font);
  context_->setObjectName(QStringLiteral("diagnosisContext"));
  context_->setForegroundRole(QPalette::PlaceholderText);
  // The device's name comes from the trace: the line gives way to the panel
  // rather than widening it (and the window) with a long one, ends in "…"
  // where it is cut, and the tooltip has the whole line.
  context_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  auto* verdict_row = new QHBoxLayout;
  verdict_row->setSpacing(12);
  verdict_row->addWidget(verdict_, 0, Qt::AlignVCenter);
  verdict_row->addWidget(sentence_, 1, Qt::AlignVCenter);
  layout->addLayout(verdict_row);
  layout->addWidget(context_);

  auto* figures = new QWidget(this);
  figures_ = new QGridLayout(figures);
  figures_->setContentsMargins(0, 2, 0, 2);
  figures_->setHorizontalSpacing(24);
  figures_->setVerticalSpacing(2);
  layout->addWidget(figures);

  scorecard_title_ = makeLabel(this, 1.0, true);
  layout->addWidget(scorecard_title_);
  bar_ = new ScorecardBar(this);
  layout->addWidget(bar_);
  layout->addSpacing(2);

  findings_title_ = makeLabel(this, 1.0, true);
  layout->addWidget(findings_title_);
  findings_ = new FindingsModel(this);
  view_ = new QListView(this);
  view_->setModel(findings_);
  view_->setItemDelegate(new FindingDelegate(view_));
  view_->setResizeMode(QListView::Adjust);
  view_->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
  view_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // cards wrap to the width
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setMouseTracking(true);
  view_->setFrameShape(QFrame::NoFrame);
  view_->viewport()->setAutoFillBackground(false);
  view_->setMinimumHeight(160);
  layout->addWidget(view_, 1);

  connect(view_, &QListView::clicked, this, [this](const QModelIndex& index) {
    emit eventsRequested(index.data(FindingsModel::EventsRole).value<EventRefs>());
  });
  connect(view_, &QListView::activated, this, [this](const QModelIndex& index) {
    emit eventsRequested(index.data(FindingsModel::EventsRole).value<EventRefs>());
  });
  setRun(nullptr, 0);
}

DiagnosisPanel::~DiagnosisPanel() = default;

void DiagnosisPanel::clearFigures() {
  while (QLayoutItem* item = figures_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
}

void DiagnosisPanel::setRun(std::shared_ptr<const AnalysedRun> run, int rank) {
  run_ = std::move(run);
  rank_ = rank;
  window_result_.reset();
  scope_->hide();
  findings_->setRun(run_, rank);
  showResult(shown());
}

void DiagnosisPanel::setWindowResult(std::shared_ptr<const RankResult> result,
                                     const QString& window) {
  window_result_ = std::move(result);
  scope_->setText(tr("Only the window %1 of this rank (clear it in the tool bar)").arg(window));
  scope_->setVisible(window_result_ != nullptr);
  if (window_result_) {
    findings_->setResult(window_result_, rank_);
  } else {
    findings_->setRun(run_, rank_);
  }
  showResult(shown());
}

const RankResult* DiagnosisPanel::shown() const {
  if (window_result_) return window_result_.get();
  if (run_ && rank_ >= 0 && static_cast<size_t>(rank_) < run_->run.ranks.size()) {
    return &run_->run.ranks[static_cast<size_t>(rank_)];
  }
  return nullptr;
}

void DiagnosisPanel::showResult(const RankResult* r) {
  clearFigures();
  if (!r) {
    verdict_->setText(tr("No run open"));
    verdict_->setStyleSheet({});
    sentence_->setText(tr("Open a run.db, a Kineto trace or an nsys export to see its diagnosis."));
    context_->setFullText({});
    bar_->setScorecard(std::nullopt);
    scorecard_title_->setText(tr("Where the step time goes"));
    scorecard_title_->setToolTip({});
    bar_->setToolTip({});
    findings_title_->setText(tr("Findings"));
    return;
  }
  const Verdict verdict = r->verdict();
  if (verdict == Verdict::kNone) {
    verdict_->setText(tr("No verdict"));
    verdict_->setStyleSheet({});
    sentence_->setText(
        tr("There was no %1 work in the analysed window to judge.").arg(qtString(deviceWord(*r))));
  } else {
    const QColor colour = verdictColor(verdict);
    verdict_->setText(
        qtString(toText(verdict)).replace(0, 1, qtString(toText(verdict)).left(1).toUpper()));
    // A pill in the verdict's colour, text in black or white to match.
    verdict_->setStyleSheet(QStringLiteral("QLabel { background: %1; color: %2; border-radius: 6px;"
                                           " padding: 3px 12px; }")
                                .arg(colour.name(), textOn(colour).name()));
    verdict_->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Preferred);
    QString sentence = qtString(verdictLabel(verdict, r->device_kind));
    if (!sentence.isEmpty()) sentence[0] = sentence[0].toUpper();
    // Why: the stall share and its largest part, the same words as the
    // text summary's and the report's (result_words.h).
    sentence_->setText(
        sentence +
        (r->verdict_may_be_off ? tr(" (so much of the trace was lost that this may be off)")
                               : QString()) +
        QStringLiteral(".\n") + qtString(sentenceCase(stallWords(*r))) + QStringLiteral("."));
  }
  QStringList context;
  if (const std::string device = deviceLabel(*r); !device.empty()) {
    context << qtName(device);
  }
  if (const std::string steps = stepsLine(*r); !steps.empty()) context << qtName(steps);
  context_->setFullText(context.join(QStringLiteral("  ·  ")));

  const std::vector<KeyFigure> figures = keyFigures(*r, {});
  // Two or three tiles a row: the dock is narrow, and a tile's detail line
  // (MFU's says where its peak came from) needs the width to stay readable.
  const int kColumns = figures.size() <= 4 ? 2 : 3;
  for (size_t i = 0; i < figures.size(); ++i) {
    auto* tile = new QWidget;
    auto* tile_layout = new QVBoxLayout(tile);
    tile_layout->setContentsMargins(0, 2, 0, 2);
    tile_layout->setSpacing(0);
    auto* label = makeLabel(tile, 0.85, false);
    label->setForegroundRole(QPalette::PlaceholderText);
    label->setText(QString::fromStdString(figures[i].label).toUpper());
    auto* value = makeLabel(tile, 1.3, true);
    value->setText(QString::fromStdString(figures[i].value));
    auto* detail = makeLabel(tile, 0.85, false);
    detail->setText(QString::fromStdString(figures[i].detail));
    detail->setForegroundRole(QPalette::PlaceholderText);
    // What the figure counts over: the statistics beside it may count more.
    const QString scope = keyFigureScope(*r, figures[i].label);
    tile->setToolTip(scope.isEmpty() ? QString::fromStdString(figures[i].detail) : scope);
    tile_layout->addWidget(label);
    tile_layout->addWidget(value);
    tile_layout->addWidget(detail);
    tile_layout->addStretch(1);
    figures_->addWidget(tile, static_cast<int>(i) / kColumns, static_cast<int>(i) % kColumns);
  }
  for (int c = 0; c < 4; ++c) figures_->setColumnStretch(c, c < kColumns ? 1 : 0);

  bar_->setScorecard(r->scorecard ? std::optional<Scorecard>(r->scorecard->run) : std::nullopt);
  scorecard_title_->setText(tr("Where the step time goes: %1").arg(analysedStepsWords(*r)));
  scorecard_title_->setToolTip(scorecardScope(*r));
  bar_->setToolTip(scorecardScope(*r));
  const int n = findings_->rowCount();
  findings_title_->setText(n == 0 ? tr("Findings: none — no rule fired")
                                  : tr("Findings (%1), most important first").arg(n));
}

}  // namespace damscope
