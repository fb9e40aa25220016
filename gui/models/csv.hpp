// Any table model as CSV (RFC 4180): the horizontal headers, then every row's display
// text; fields with a comma, quote or line break are quoted. Used for every CSV export.
#pragma once

#include <QAbstractItemModel>
#include <QString>

namespace idb::gui {

// The top-level rows of `model` as CSV text. With `row_headers` the vertical headers come
// first in each row, under the title "category" (the chart data's probes).
QString toCsv(const QAbstractItemModel &model, bool row_headers = false);

// Writes toCsv(model, row_headers) to `path`; false with `error` set when the file cannot
// be written.
bool writeCsv(const QAbstractItemModel &model, const QString &path, QString &error,
              bool row_headers = false);

} // namespace idb::gui
