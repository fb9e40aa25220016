// Tables as CSV (RFC 4180): any table model (the horizontal headers, then every row's
// display text), or rows of text cells; fields with a comma, quote, line break or an edge
// space are quoted. Used for every CSV export.
#pragma once

#include <QAbstractItemModel>
#include <QByteArray>
#include <QString>

#include <string>
#include <vector>

namespace idb::gui {

// The top-level rows of `model` as CSV text. With `row_headers` the vertical headers come
// first in each row, under the title "category" (the chart data's probes).
QString toCsv(const QAbstractItemModel &model, bool row_headers = false);

// A table of text cells as CSV: the column titles, then the rows.
QString toCsv(const std::vector<std::string> &columns,
              const std::vector<std::vector<std::string>> &rows);

// Writes `bytes` to `path` whole (idb::files::write_output_file: a temporary file renamed
// over it; a target that is not a regular file, /dev/null, written in place); false with
// `error` ("cannot write PATH: REASON") when the file cannot be written.
bool writeBytes(const QByteArray &bytes, const QString &path, QString &error);

// writeBytes of `text` as UTF-8.
bool writeText(const QString &text, const QString &path, QString &error);

// Writes toCsv(model, row_headers) to `path`; false with `error` set when the file cannot
// be written.
bool writeCsv(const QAbstractItemModel &model, const QString &path, QString &error,
              bool row_headers = false);

} // namespace idb::gui
