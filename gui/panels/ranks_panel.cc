// The ranks panel: see ranks_panel.h.
#include "gui/panels/ranks_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "gui/models/ranks_model.h"

namespace damscope {

RanksPanel::RanksPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(10, 10, 10, 10);
  layout->setSpacing(8);
  notes_ = new QLabel(this);
  notes_->setWordWrap(true);
  notes_->setTextFormat(Qt::RichText);
  notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(notes_);
  model_ = new RanksModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(RanksModel::SortRole);
  view_ = new QTableView(this);
  view_->setModel(proxy_);
  view_->setSortingEnabled(true);
  view_->sortByColumn(RanksModel::kRank, Qt::AscendingOrder);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->verticalHeader()->hide();
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  // The verdict is a sentence: shown whole, never elided (its column takes
  // its width; the table scrolls sideways before it clips).
  view_->setTextElideMode(Qt::ElideNone);
  view_->setWordWrap(false);
  view_->setToolTip(tr("Double-click a rank to open its timeline"));
  layout->addWidget(view_, 1);
  connect(view_, &QTableView::activated, this, [this](const QModelIndex& index) {
    if (index.isValid()) emit rankRequested(proxy_->mapToSource(index).row());
  });
  setRun(nullptr, 0);
}

void RanksPanel::setRun(std::shared_ptr<const AnalysedRun> run, int) {
  QStringList notes;
  if (!run) {
    notes << tr("No run open.");
  } else if (run->run.ranks.size() < 2) {
    notes << tr("One rank: open several rank files of one job together to compare them.");
  }
  if (run) {
    for (const std::string& note : rankNotes(*run)) notes << QString::fromStdString(note);
  }
  // One item per note, so each warning reads on its own.
  QString html = QStringLiteral("<ul style=\"margin-left: 0px; -qt-list-indent: 1;\">");
  for (const QString& note : notes) html += "<li>" + note.toHtmlEscaped() + "</li>";
  notes_->setText(html + "</ul>");
  notes_->setVisible(!notes.isEmpty());
  model_->setRun(std::move(run));
}

}  // namespace damscope
