// Table numbers (number_format.hpp).
#include "number_format.hpp"

#include <algorithm>
#include <cmath>

namespace idb::gui {

TimeUnit time_unit(const std::vector<double> &seconds) {
  double largest = 0;
  bool any = false;
  for (double v : seconds)
    if (std::isfinite(v)) {
      largest = std::max(largest, std::fabs(v));
      any = true;
    }
  TimeUnit unit;
  if (!any) return {QString(), 1e9, 3};
  if (largest < 1) unit = {QStringLiteral("ms"), 1e3, 3};
  if (largest * 1e3 < 1) unit = {QStringLiteral("µs"), 1e6, 3};
  if (largest * 1e6 < 1) unit = {QStringLiteral("ns"), 1e9, 3};
  double shown = largest * unit.per_second;
  if (shown >= 1) unit.decimals = std::clamp(3 - int(std::floor(std::log10(shown))), 0, 3);
  return unit;
}

QString format_time(double seconds, const TimeUnit &unit) {
  if (std::isnan(seconds)) return {};
  const double value = seconds * unit.per_second;
  const double step = std::pow(10.0, -unit.decimals);
  if (value != 0 && std::fabs(value) < step / 2)
    return (value < 0 ? QStringLiteral(">-") : QStringLiteral("<")) +
           QString::number(step, 'f', unit.decimals);
  return QString::number(value, 'f', unit.decimals);
}

QString format_count(double count) {
  if (std::isnan(count)) return {};
  QString digits = QString::number(qint64(std::llround(std::fabs(count))));
  for (int at = int(digits.size()) - 3; at > 0; at -= 3)
    digits.insert(at, QLatin1Char(','));
  return count < 0 ? QLatin1Char('-') + digits : digits;
}

} // namespace idb::gui
