// The wait states of the node chosen in the tree: per pattern the time its activations
// waited, how many did and the share of the node's time, and in a summary run how the
// waiting spread over the ranks; or a line saying why there are none.
#pragma once

#include "wait_data.hpp"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace idb::gui {

class WaitPanel : public QWidget {
  Q_OBJECT
public:
  explicit WaitPanel(QWidget *parent = nullptr);

  void setTable(const WaitTable &table);
  QString title() const;
  // The patterns shown, one row each.
  int rowCount() const;
  // The text of cell (row, column), for tests.
  QString cell(int row, int column) const;

private:
  QLabel *title_;
  QTableWidget *table_;
};

} // namespace idb::gui
