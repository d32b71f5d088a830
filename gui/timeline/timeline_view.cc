// The timeline with its search bar: see timeline_view.h.
#include "gui/timeline/timeline_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

#include "gui/timeline/stacked_rows.h"
#include "gui/timeline/timeline_widget.h"

namespace damscope {
namespace {

// A label that elides its text from the left when it does not fit, instead
// of clipping it mid-word at its edge.
class HintLabel : public QLabel {
 public:
  HintLabel(const QString& text, QWidget* parent) : QLabel(text, parent) {}

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    p.setPen(palette().color(foregroundRole()));
    p.drawText(contentsRect(), static_cast<int>(alignment()),
               fontMetrics().elidedText(text(), Qt::ElideLeft, contentsRect().width()));
  }
};

size_t eventsIn(const TraceTables& t) {
  return t.kernels.size() + t.memcpys.size() + t.memsets.size() + t.api_calls.size() +
         t.ranges.size() + t.syncs.size() + t.counters.size();
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(8, 4, 8, 4);
  search_ = new QLineEdit(this);
  search_->setPlaceholderText("Find an event by name (Ctrl+F)");
  search_->setClearButtonEnabled(true);
  search_->setMinimumWidth(260);
  search_->setMaximumWidth(360);
  auto* previous = new QPushButton("◀", this);
  auto* next = new QPushButton("▶", this);
  previous->setToolTip("Previous match (Shift+F3)");
  next->setToolTip("Next match (Enter, F3)");
  for (QPushButton* b : {previous, next}) b->setMaximumWidth(32);
  status_ = new QLabel(this);
  auto* fit = new QPushButton("Fit", this);
  fit->setToolTip("Show the whole run (Home, F)");
  auto* hint = new HintLabel(
      "wheel or W/S: zoom · drag or A/D: pan · Shift+drag: analyse a window · Alt+←: back · "
      "?: every key",
      this);
  hint->setToolTip(
      "Wheel, W/S or +/-: zoom at the pointer · drag, A/D or ←/→: pan · Home or F: fit · "
      "Alt+← / Alt+→: back / forward in the zoom history · Shift+drag: analyse a window · "
      "Esc: clear the selection and the window · right- or Ctrl+drag: zoom to a range · "
      "click: an event's details · ?: every key");
  hint->setForegroundRole(QPalette::PlaceholderText);
  // A reminder, not a control: it gives way (elided from the left, so "?:
  // every key" stays) rather than narrow the diagnosis dock beside the timeline.
  hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  hint->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  bar->addWidget(search_);
  bar->addWidget(previous);
  bar->addWidget(next);
  bar->addWidget(status_);
  bar->addWidget(hint, 1);
  bar->addWidget(fit);
  layout->addLayout(bar);

  timeline_ = new TimelineWidget(this);
  layout->addWidget(timeline_, 1);

  connect(search_, &QLineEdit::returnPressed, this, [this] { find(true); });
  connect(next, &QPushButton::clicked, this, [this] { find(true); });
  connect(previous, &QPushButton::clicked, this, [this] { find(false); });
  connect(fit, &QPushButton::clicked, timeline_, &TimelineWidget::fit);
  connect(timeline_, &TimelineWidget::eventSelected, this, &TimelineView::eventSelected);
  auto* find_key = new QShortcut(QKeySequence::Find, this);
  find_key->setContext(Qt::WindowShortcut);
  connect(find_key, &QShortcut::activated, this, &TimelineView::focusSearch);
  auto* next_key = new QShortcut(QKeySequence(Qt::Key_F3), this);
  next_key->setContext(Qt::WindowShortcut);
  connect(next_key, &QShortcut::activated, this, [this] { find(true); });
  auto* previous_key = new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3), this);
  previous_key->setContext(Qt::WindowShortcut);
  connect(previous_key, &QShortcut::activated, this, [this] { find(false); });
}

TimelineView::~TimelineView() = default;

void TimelineView::setRun(const std::shared_ptr<const AnalysedRun>& run, int rank) {
  ready_ = false;
  pending_events_.clear();
  status_->clear();
  const bool stacked = run && rank == TimelineWidget::kAllRanks && run->tables.size() > 1;
  size_t events = 0;
  if (stacked) {
    for (const TraceTables& t : run->tables) events += eventsIn(t);
  } else if (run && rank >= 0 && static_cast<size_t>(rank) < run->tables.size()) {
    events = eventsIn(run->tables[static_cast<size_t>(rank)]);
  }
  if (events < kBuildOnWorkerEvents) {
    builds_.abandon();  // a build still running is for another run or rank
    timeline_->setRun(run, rank);
    shown();
    return;
  }
  status_->setText("Building the timeline…");
  builds_.run(
      [this, run, rank, stacked](const JobTracker::Job& job) {
        // The bar needs a hundred steps at most: only 1 % more is posted.
        auto last = std::make_shared<double>(-1.0);
        const Progress progress(
            [this, id = job.id, last](const ProgressUpdate& u) {
              if (u.fraction - *last < 0.01) return;
              *last = u.fraction;
              QMetaObject::invokeMethod(
                  this,
                  [this, id, fraction = u.fraction] {
                    if (builds_.isCurrent(id)) emit buildProgressed(fraction);
                  },
                  Qt::QueuedConnection);
            },
            &job.cancel);
        return stacked ? buildJobTimelineData(*run, progress)
                       : buildTimelineData(*run, rank, progress);
      },
      [this, run, rank](const std::shared_ptr<const TimelineData>& data) {
        timeline_->setData(run, rank, data);
        shown();
      });
}

void TimelineView::shown() {
  // A stacked view says which clock its ranks are on (rank_alignment.h).
  const TimelineData* data = timeline_->data();
  clock_text_ = data && !data->rows.groups.empty()
                    ? QString("%1 ranks %2")
                          .arg(data->rows.groups.size())
                          .arg(QString::fromStdString(data->rows.alignment))
                    : QString();
  status_->setText(clock_text_);
  status_->setToolTip(clock_text_);
  ready_ = true;
  if (!pending_events_.empty()) timeline_->showEvents(std::exchange(pending_events_, {}));
  emit ready();
}

void TimelineView::showEvents(const EventRefs& events) {
  if (!ready_) {
    pending_events_ = events;
    return;
  }
  timeline_->showEvents(events);
}

QString TimelineView::searchStatus() const {
  return status_->text();
}

void TimelineView::focusSearch() {
  search_->setFocus(Qt::ShortcutFocusReason);
  search_->selectAll();
}

void TimelineView::find(bool forward) {
  const QString text = search_->text().trimmed();
  if (text.isEmpty()) return;
  const bool found = forward ? timeline_->findNext(text) : timeline_->findPrevious(text);
  if (!found) {
    status_->setText(QString("no event named “%1”").arg(text));
    return;
  }
  const std::optional<size_t> index = timeline_->matchIndex();
  status_->setText(QString("%1 of %2")
                       .arg(index ? QString::number(*index + 1) : QString("–"))
                       .arg(timeline_->search().matches().size()));
}

}  // namespace damscope
