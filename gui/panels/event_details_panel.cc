// The event-details panel: see event_details_panel.h.
#include "gui/panels/event_details_panel.h"

#include <algorithm>

#include <QGridLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QVBoxLayout>

#include "gui/models/qt_text.h"

namespace damscope {

EventDetailsPanel::EventDetailsPanel(QWidget* parent) : QWidget(parent) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(10, 8, 10, 8);
  layout->setSpacing(6);
  placeholder_ = new QLabel(tr("Click an event on the timeline to see its details."), body);
  placeholder_->setWordWrap(true);
  placeholder_->setForegroundRole(QPalette::PlaceholderText);
  layout->addWidget(placeholder_);
  name_ = new QLabel(body);
  name_->setWordWrap(true);
  name_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont bold = name_->font();
  bold.setBold(true);
  name_->setFont(bold);
  layout->addWidget(name_);
  grid_ = new QGridLayout;
  grid_->setHorizontalSpacing(12);
  grid_->setVerticalSpacing(3);
  layout->addLayout(grid_);
  layout->addStretch(1);
  scroll->setWidget(body);
  outer->addWidget(scroll);
  fill();
}

void EventDetailsPanel::setRun(std::shared_ptr<const AnalysedRun> run, int) {
  run_ = std::move(run);
  lines_.clear();
  fill();
}

void EventDetailsPanel::showEvent(const EventRef& event) {
  lines_ = run_ ? eventDetails(event, *run_) : EventDetailLines{};
  fill();
}

int EventDetailsPanel::groupsFor(int width) const {
  return std::clamp(width / kGroupWidthPx, 1, 3);
}

void EventDetailsPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  if (groupsFor(event->size().width()) != groups_) fill();
}

QLabel* EventDetailsPanel::valueLabel(const QString& key) const {
  if (key == QStringLiteral("Name")) return name_->isVisible() ? name_ : nullptr;
  for (int i = 0; i < grid_->count(); ++i) {
    auto* label = qobject_cast<QLabel*>(grid_->itemAt(i)->widget());
    if (!label || label->property("key").toString() != key) continue;
    int row = 0, column = 0, rows = 0, columns = 0;
    grid_->getItemPosition(i, &row, &column, &rows, &columns);
    if (QLayoutItem* value = grid_->itemAtPosition(row, column + 1)) {
      return qobject_cast<QLabel*>(value->widget());
    }
  }
  return nullptr;
}

void EventDetailsPanel::showLines(const EventDetailLines& lines) {
  lines_ = lines;
  fill();
}

void EventDetailsPanel::fill() {
  while (QLayoutItem* item = grid_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  groups_ = groupsFor(width());
  placeholder_->setVisible(lines_.empty());
  EventDetailLines rest;
  name_->clear();
  for (const auto& line : lines_) {
    if (line.first == "Name") {
      name_->setText(qtNameTooltip(line.second));
    } else {
      rest.push_back(line);
    }
  }
  name_->setVisible(!name_->text().isEmpty());
  // Column-major: a group reads top to bottom, as a form does.
  const int per_group =
      static_cast<int>((rest.size() + static_cast<size_t>(groups_) - 1) / static_cast<size_t>(groups_));
  for (size_t i = 0; i < rest.size(); ++i) {
    const int row = per_group > 0 ? static_cast<int>(i) % per_group : 0;
    const int group = per_group > 0 ? static_cast<int>(i) / per_group : 0;
    auto* label = new QLabel(qtString(rest[i].first));
    label->setProperty("key", qtString(rest[i].first));
    label->setForegroundRole(QPalette::PlaceholderText);
    label->setAlignment(Qt::AlignRight | Qt::AlignTop);
    auto* text = new QLabel(qtNameTooltip(rest[i].second));
    text->setWordWrap(true);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    grid_->addWidget(label, row, 2 * group);
    grid_->addWidget(text, row, 2 * group + 1);
  }
  for (int c = 0; c < 6; ++c) grid_->setColumnStretch(c, c % 2 == 1 && c / 2 < groups_ ? 1 : 0);
}

}  // namespace damscope
