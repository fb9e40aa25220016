// Tabular output (see format.hpp).
#include "format.hpp"

#include <algorithm>
#include <regex>

namespace idb::cli {

std::optional<Format> parse_format(std::string_view name) {
  if (name == "table") return Format::table;
  if (name == "csv") return Format::csv;
  if (name == "json") return Format::json;
  return std::nullopt;
}

std::string csv_field(std::string_view text) {
  bool quote = text.find_first_of(",\"\r\n") != std::string_view::npos ||
               (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!quote) return std::string(text);
  std::string field = "\"";
  for (char c : text) {
    if (c == '"') field += '"';
    field += c;
  }
  return field + '"';
}

namespace {

// Characters on screen: UTF-8 continuation bytes take no column.
std::size_t display_width(std::string_view text) {
  return std::size_t(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

void write_padded(std::ostream &out, std::string_view text, std::size_t width, bool right) {
  std::string pad(width - std::min(width, display_width(text)), ' ');
  if (right)
    out << pad << text;
  else
    out << text << pad;
}

void write_aligned(std::ostream &out, const store::QueryResult &r) {
  std::vector<std::size_t> width;
  for (const std::string &c : r.columns)
    width.push_back(display_width(c));
  for (const auto &row : r.rows)
    for (std::size_t i = 0; i < row.size(); ++i)
      width[i] = std::max(width[i], display_width(row[i].value_or("")));
  auto line = [&](auto text_of) {
    for (std::size_t i = 0; i < width.size(); ++i) {
      if (i) out << "  ";
      bool last = i + 1 == width.size();
      bool right = r.numeric[i];
      write_padded(out, text_of(i), last && !right ? 0 : width[i], right);
    }
    out << '\n';
  };
  line([&](std::size_t i) { return std::string_view(r.columns[i]); });
  line([&](std::size_t i) { return std::string(width[i], '-'); });
  for (const auto &row : r.rows)
    line([&](std::size_t i) { return row[i].value_or(""); });
}

void write_csv(std::ostream &out, const store::QueryResult &r) {
  for (std::size_t i = 0; i < r.columns.size(); ++i)
    out << (i ? "," : "") << csv_field(r.columns[i]);
  out << '\n';
  for (const auto &row : r.rows) {
    for (std::size_t i = 0; i < row.size(); ++i)
      out << (i ? "," : "") << csv_field(row[i].value_or(""));
    out << '\n';
  }
}

bool json_number(const std::string &text) {
  static const std::regex number(R"(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)");
  return std::regex_match(text, number);
}

void write_json(std::ostream &out, const store::QueryResult &r) {
  out << '[';
  for (std::size_t n = 0; n < r.rows.size(); ++n) {
    out << (n ? ",\n " : "\n ") << '{';
    for (std::size_t i = 0; i < r.columns.size(); ++i) {
      const store::Cell &cell = r.rows[n][i];
      out << (i ? ", " : "") << json_string(r.columns[i]) << ": ";
      if (!cell)
        out << "null";
      else if (r.numeric[i] && json_number(*cell))
        out << *cell;
      else
        out << json_string(*cell);
    }
    out << '}';
  }
  out << (r.rows.empty() ? "]\n" : "\n]\n");
}

} // namespace

void write_rows(std::ostream &out, const store::QueryResult &rows, Format format) {
  switch (format) {
  case Format::table:
    write_aligned(out, rows);
    break;
  case Format::csv:
    write_csv(out, rows);
    break;
  case Format::json:
    write_json(out, rows);
    break;
  }
}

} // namespace idb::cli
