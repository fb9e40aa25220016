// Any table model as CSV (RFC 4180): the horizontal headers, then every row's display
// text; fields with a comma, quote or line break are quoted. Used for every CSV export.
#pragma once

#include <QAbstractItemModel>
#include <QString>

namespace idb::gui {

// The top-level rows of `model` as CSV text.
QString toCsv(const QAbstractItemModel &model);

// Writes toCsv(model) to `path`; false with `error` set when the file cannot be written.
bool writeCsv(const QAbstractItemModel &model, const QString &path, QString &error);

} // namespace idb::gui
