// SVG charts of COALESCE and COMPARE (edf_svg.hpp). Rows run down the page with the probe's
// name on the left, so long descriptions stay readable; the value axis runs across, with
// ticks at 1, 2 or 5 times a power of ten.
#include "idb/edf_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace idb::edf {

namespace {

constexpr double kWidth = 960, kLabel = 330, kRight = 30, kTop = 70, kBottom = 50, kBar = 14;
const char *const kColours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};

std::string esc(const std::string &text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

std::string px(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", v);
  return text;
}

// The value axis: [low, high] widened to round ticks, mapped onto the plot's width.
struct Axis {
  double low = 0, high = 1, step = 1;
  double x(double v) const {
    return kLabel + (v - low) / (high - low) * (kWidth - kLabel - kRight);
  }
};

Axis axis_for(double low, double high) {
  low = std::min(low, 0.0);
  if (!(high > low)) high = low + 1;
  double raw = (high - low) / 6, power = std::pow(10, std::floor(std::log10(raw)));
  double step = power * (raw <= power ? 1 : raw <= 2 * power ? 2 : raw <= 5 * power ? 5 : 10);
  return {std::floor(low / step) * step, std::ceil(high / step) * step, step};
}

std::string row_name(const std::string &name, std::int32_t rank) {
  std::string label = name;
  if (label.size() > 44) {
    std::size_t cut = 43;
    while (cut > 0 && (static_cast<unsigned char>(label[cut]) & 0xC0) == 0x80)
      --cut; // not inside a UTF-8 sequence
    label = label.substr(0, cut) + "…";
  }
  return rank == kAllRanks ? label : label + " · rank " + std::to_string(rank);
}

void open_svg(std::ostringstream &out, double height, const std::string &title,
              const std::string &subtitle) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\""
      << px(height) << "\" viewBox=\"0 0 " << kWidth << ' ' << px(height)
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"16\" y=\"26\" font-size=\"16\" font-weight=\"bold\">" << esc(title)
      << "</text>\n<text x=\"16\" y=\"46\" fill=\"#555\">" << esc(subtitle) << "</text>\n";
}

// Grid lines and tick labels from `top` to `bottom`, and the unit under them.
void draw_axis(std::ostringstream &out, const Axis &a, double top, double bottom,
               const std::string &unit) {
  for (double v = a.low; v <= a.high + a.step / 2; v += a.step) {
    double x = a.x(v);
    out << "<line x1=\"" << px(x) << "\" y1=\"" << px(top - 6) << "\" x2=\"" << px(x) << "\" y2=\""
        << px(bottom) << "\" stroke=\"#ddd\"/>\n<text x=\"" << px(x) << "\" y=\"" << px(bottom + 16)
        << "\" text-anchor=\"middle\">" << num(std::fabs(v) < a.step / 1e9 ? 0 : v) << "</text>\n";
  }
  out << "<text x=\"" << px(a.x((a.low + a.high) / 2)) << "\" y=\"" << px(bottom + 36)
      << "\" text-anchor=\"middle\">" << esc(unit) << "</text>\n";
}

void draw_label(std::ostringstream &out, double y, const std::string &text) {
  out << "<text x=\"" << kLabel - 10 << "\" y=\"" << px(y + 4) << "\" text-anchor=\"end\">"
      << esc(text) << "</text>\n";
}

std::string unit_of(Metric v) {
  return std::string(analysis::metric_key(v)) + " (" + std::string(analysis::metric_unit(v)) + ")";
}

void draw_box(std::ostringstream &out, const Axis &a, const CoalesceRow &row, double y) {
  const Box &b = row.box;
  auto line = [&](double x1, double y1, double x2, double y2) {
    out << "<line x1=\"" << px(x1) << "\" y1=\"" << px(y1) << "\" x2=\"" << px(x2) << "\" y2=\""
        << px(y2) << "\" stroke=\"#333\"/>\n";
  };
  line(a.x(b.lower_whisker), y, a.x(b.q1), y);
  line(a.x(b.q3), y, a.x(b.upper_whisker), y);
  line(a.x(b.lower_whisker), y - 6, a.x(b.lower_whisker), y + 6);
  line(a.x(b.upper_whisker), y - 6, a.x(b.upper_whisker), y + 6);
  out << "<rect x=\"" << px(a.x(b.q1)) << "\" y=\"" << px(y - 9) << "\" width=\""
      << px(std::max(1.0, a.x(b.q3) - a.x(b.q1))) << "\" height=\"18\" fill=\"" << kColours[0]
      << "\" fill-opacity=\"0.35\" stroke=\"" << kColours[0] << "\"/>\n";
  out << "<line x1=\"" << px(a.x(b.median)) << "\" y1=\"" << px(y - 9) << "\" x2=\""
      << px(a.x(b.median)) << "\" y2=\"" << px(y + 9)
      << "\" stroke=\"#000\" stroke-width=\"2\"/>\n";
  for (const Outlier &o : row.outliers)
    out << "<circle cx=\"" << px(a.x(o.value)) << "\" cy=\"" << px(y)
        << "\" r=\"3.5\" fill=\"none\" "
        << "stroke=\"" << kColours[3] << "\"><title>" << esc(o.run) << ": " << num(o.value)
        << "</title></circle>\n";
}

// One entry's bar at height y: the mean, ± one deviation, '*' when significant.
void draw_bar(std::ostringstream &out, const Axis &a, const CompareCell &c,
              const std::string &entry, std::size_t e, double y) {
  if (!c.value) return;
  double v = *c.value, x0 = a.x(std::min(0.0, v)), x1 = a.x(std::max(0.0, v));
  out << "<rect x=\"" << px(x0) << "\" y=\"" << px(y + 1) << "\" width=\""
      << px(std::max(0.5, x1 - x0)) << "\" height=\"" << kBar - 2 << "\" fill=\"" << kColours[e % 8]
      << "\"><title>" << esc(entry) << ": " << num(v) << "</title></rect>\n";
  if (c.sdev > 0)
    out << "<line x1=\"" << px(a.x(v - c.sdev)) << "\" y1=\"" << px(y + kBar / 2) << "\" x2=\""
        << px(a.x(v + c.sdev)) << "\" y2=\"" << px(y + kBar / 2) << "\" stroke=\"#000\"/>\n";
  if (c.significant)
    out << "<text x=\"" << px(a.x(v + c.sdev) + 4) << "\" y=\"" << px(y + kBar - 3)
        << "\" font-weight=\"bold\">*</text>\n";
}

// "name: note", or the name alone.
std::string legend_text(const CompareResult &r, std::size_t e) {
  bool noted = e < r.notes.size() && !r.notes[e].empty();
  return noted ? r.entries[e] + ": " + r.notes[e] : r.entries[e];
}

} // namespace

std::string coalesce_svg(const CoalesceResult &result, const std::string &title) {
  constexpr double kRow = 30;
  double low = 0, high = 0;
  for (const CoalesceRow &r : result.rows) {
    low = std::min(low, r.box.min);
    high = std::max(high, r.box.max);
  }
  Axis a = axis_for(low, high);
  double bottom = kTop + kRow * double(std::max<std::size_t>(result.rows.size(), 1));
  std::ostringstream out;
  open_svg(out, bottom + kBottom, title,
           "COALESCE of " + std::to_string(result.runs.size()) +
               " runs: " + std::string(analysis::metric_key(result.value)) +
               " per run; box Q1–Q3, median, whiskers at 1.5 IQR, outliers as circles");
  draw_axis(out, a, kTop, bottom, unit_of(result.value));
  if (result.rows.empty()) draw_label(out, kTop + kRow / 2, "no probe has a value");
  for (std::size_t i = 0; i < result.rows.size(); ++i) {
    double y = kTop + kRow * (double(i) + 0.5);
    draw_label(out, y, row_name(result.rows[i].name, result.rows[i].rank));
    draw_box(out, a, result.rows[i], y);
  }
  out << "</svg>\n";
  return out.str();
}

std::string compare_svg(const CompareResult &result, const std::string &title) {
  std::size_t n = std::max<std::size_t>(result.entries.size(), 1);
  double group = kBar * double(n) + 12;
  double low = 0, high = 0;
  for (const CompareRow &r : result.rows)
    for (const CompareCell &c : r.cells)
      if (c.value) {
        low = std::min(low, *c.value - c.sdev);
        high = std::max(high, *c.value + c.sdev);
      }
  Axis a = axis_for(low, high);
  double top = kTop + 18 * double(n); // below the legend
  double bottom = top + group * double(std::max<std::size_t>(result.rows.size(), 1));
  std::ostringstream out;
  open_svg(out, bottom + kBottom, title,
           "COMPARE: " + std::string(analysis::metric_key(result.value)) +
               " per entry (mean of a group, ± one deviation); * differs from the first at p < " +
               num(result.alpha));
  for (std::size_t e = 0; e < result.entries.size(); ++e) {
    double y = kTop + 18 * double(e);
    out << "<rect x=\"" << kLabel << "\" y=\"" << px(y - 10)
        << "\" width=\"12\" height=\"12\" fill=\"" << kColours[e % 8] << "\"/>\n<text x=\""
        << kLabel + 18 << "\" y=\"" << px(y) << "\">" << esc(legend_text(result, e)) << "</text>\n";
  }
  draw_axis(out, a, top, bottom, unit_of(result.value));
  if (result.rows.empty()) draw_label(out, top + group / 2, "no probe has a value");
  for (std::size_t i = 0; i < result.rows.size(); ++i) {
    const CompareRow &row = result.rows[i];
    double y0 = top + group * double(i) + 6;
    draw_label(out, y0 + kBar * double(n) / 2, row_name(row.name, row.rank));
    for (std::size_t e = 0; e < row.cells.size(); ++e)
      draw_bar(out, a, row.cells[e], result.entries[e], e, y0 + kBar * double(e));
  }
  out << "</svg>\n";
  return out.str();
}

} // namespace idb::edf
