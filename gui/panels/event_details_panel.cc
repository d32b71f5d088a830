// The event-details panel: see event_details_panel.h.
#include "gui/panels/event_details_panel.h"

#include <QFormLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace damscope {

EventDetailsPanel::EventDetailsPanel(QWidget* parent) : QWidget(parent) {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(10, 10, 10, 10);
  placeholder_ = new QLabel(tr("Click an event on the timeline to see its details."), body);
  placeholder_->setWordWrap(true);
  placeholder_->setForegroundRole(QPalette::PlaceholderText);
  layout->addWidget(placeholder_);
  form_ = new QFormLayout;
  form_->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
  form_->setRowWrapPolicy(QFormLayout::WrapLongRows);
  form_->setHorizontalSpacing(12);
  form_->setVerticalSpacing(4);
  layout->addLayout(form_);
  layout->addStretch(1);
  scroll->setWidget(body);
  outer->addWidget(scroll);
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

void EventDetailsPanel::showLines(const EventDetailLines& lines) {
  lines_ = lines;
  fill();
}

void EventDetailsPanel::fill() {
  while (form_->rowCount() > 0) form_->removeRow(0);
  placeholder_->setVisible(lines_.empty());
  for (const auto& [key, value] : lines_) {
    auto* label = new QLabel(QString::fromStdString(key));
    label->setForegroundRole(QPalette::PlaceholderText);
    auto* text = new QLabel(QString::fromStdString(value));
    text->setWordWrap(true);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (key == "Name") {
      QFont bold = text->font();
      bold.setBold(true);
      text->setFont(bold);
    }
    form_->addRow(label, text);
  }
}

}  // namespace damscope
