// CSV export of a table model (csv.hpp).
#include "csv.hpp"

#include <QSaveFile>

namespace idb::gui {

namespace {

QString field(QString text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
      !text.contains(QLatin1Char('\n')) && !text.contains(QLatin1Char('\r')))
    return text;
  text.replace(QLatin1String("\""), QLatin1String("\"\""));
  return QLatin1Char('"') + text + QLatin1Char('"');
}

} // namespace

QString toCsv(const QAbstractItemModel &model, bool row_headers) {
  QStringList line;
  if (row_headers) line << QStringLiteral("category");
  const int columns = model.columnCount();
  for (int c = 0; c < columns; ++c)
    line << field(model.headerData(c, Qt::Horizontal).toString());
  QString out = line.join(QLatin1Char(',')) + QLatin1Char('\n');
  for (int r = 0; r < model.rowCount(); ++r) {
    line.clear();
    if (row_headers) line << field(model.headerData(r, Qt::Vertical).toString());
    for (int c = 0; c < columns; ++c)
      line << field(model.index(r, c).data().toString());
    out += line.join(QLatin1Char(',')) + QLatin1Char('\n');
  }
  return out;
}

bool writeCsv(const QAbstractItemModel &model, const QString &path, QString &error,
              bool row_headers) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  file.write(toCsv(model, row_headers).toUtf8());
  if (!file.commit()) {
    error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

} // namespace idb::gui
