// CSV export of a table model (csv.hpp).
#include "csv.hpp"

#include "roles.hpp"

#include "idb/output_file.hpp"

namespace idb::gui {

namespace {

// Quoted when it holds a comma, quote or line break, or starts or ends with a space (the
// rule of `idb`'s CSV, so the two write the same bytes).
QString field(QString text) {
  bool edge =
      !text.isEmpty() && (text.front() == QLatin1Char(' ') || text.back() == QLatin1Char(' '));
  if (!edge && !text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
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
  // What an export writes: kExportRole where a model gives it, else what is shown.
  auto text = [](const QVariant &exported, const QVariant &shown) {
    return exported.isValid() ? exported.toString() : shown.toString();
  };
  for (int c = 0; c < columns; ++c)
    line << field(text(model.headerData(c, Qt::Horizontal, kExportRole),
                       model.headerData(c, Qt::Horizontal)));
  QString out = line.join(QLatin1Char(',')) + QLatin1Char('\n');
  for (int r = 0; r < model.rowCount(); ++r) {
    line.clear();
    if (row_headers) line << field(model.headerData(r, Qt::Vertical).toString());
    for (int c = 0; c < columns; ++c) {
      const QModelIndex at = model.index(r, c);
      line << field(text(at.data(kExportRole), at.data()));
    }
    out += line.join(QLatin1Char(',')) + QLatin1Char('\n');
  }
  return out;
}

QString toCsv(const std::vector<std::string> &columns,
              const std::vector<std::vector<std::string>> &rows) {
  QString out;
  auto line = [&out](const std::vector<std::string> &cells) {
    QStringList fields;
    for (const std::string &cell : cells)
      fields << field(QString::fromStdString(cell));
    out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
  };
  line(columns);
  for (const auto &row : rows)
    line(row);
  return out;
}

bool writeBytes(const QByteArray &bytes, const QString &path, QString &error) {
  std::string why = files::write_output_file(
      path.toStdString(), std::string(bytes.constData(), std::size_t(bytes.size())));
  if (why.empty()) return true;
  error = QString::fromStdString(why);
  return false;
}

bool writeText(const QString &text, const QString &path, QString &error) {
  return writeBytes(text.toUtf8(), path, error);
}

bool writeCsv(const QAbstractItemModel &model, const QString &path, QString &error,
              bool row_headers) {
  return writeText(toCsv(model, row_headers), path, error);
}

} // namespace idb::gui
