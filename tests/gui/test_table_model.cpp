// The table model, CSV of any model, and the console's parameters.
#include "console_params.hpp"
#include "csv.hpp"
#include "table_model.hpp"

#include "idb/queries.hpp"

#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

using namespace idb;

namespace {

store::QueryResult sample() {
  store::QueryResult t;
  t.columns = {"name", "total"};
  t.numeric = {false, true};
  t.rows = {{"b", "10"}, {"a, \"quoted\"", "9.5"}, {std::nullopt, "100"}};
  return t;
}

} // namespace

TEST(TableModel, SortsNumbersAsNumbers) {
  gui::TableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTable(sample());
  QPersistentModelIndex hundred = model.index(2, 1);
  model.sort(1, Qt::AscendingOrder);
  EXPECT_EQ(model.index(0, 1).data().toString(), "9.5");
  EXPECT_EQ(model.index(2, 1).data().toString(), "100"); // not "10" < "100" < "9.5"
  EXPECT_EQ(hundred.row(), 2);
  model.sort(0, Qt::AscendingOrder);
  EXPECT_EQ(model.index(0, 0).data().toString(), ""); // NULL first
  EXPECT_FALSE(model.index(0, 0).data(gui::kValueRole).isValid());
  EXPECT_DOUBLE_EQ(model.index(2, 1).data(gui::kValueRole).toDouble(), 10.0);
  EXPECT_EQ(model.column("total"), 1);
  EXPECT_EQ(model.column("nope"), -1);
}

TEST(TableModel, ExportsCsv) {
  gui::TableModel model;
  model.setTable(sample());
  EXPECT_EQ(gui::toCsv(model).toStdString(), "name,total\nb,10\n\"a, \"\"quoted\"\"\",9.5\n,100\n");
  QString error;
  EXPECT_FALSE(gui::writeCsv(model, "/nonexistent-folder/x.csv", error));
  EXPECT_TRUE(error.contains("/nonexistent-folder/x.csv")) << error.toStdString();
}

// A probe's rows as the panel shows them: a seconds column in one unit named in its
// header, counts with separators, NULL blank; the tooltip and the CSV keep every digit and
// the plain column name.
TEST(TableModel, FormatsColumnsAndExportsTheExactValues) {
  store::QueryResult t;
  t.columns = {"rank", "count", "total", "cpu"};
  t.numeric = {true, true, true, true};
  t.rows = {{"0", "1234567", "0.0022291234", std::nullopt}, {"1", "3", "0.0136", "0.5"}};
  gui::TableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTable(
      t, {std::nullopt, gui::Format::integer, gui::Format::seconds, gui::Format::seconds_or_blank});
  EXPECT_EQ(model.headerData(0, Qt::Horizontal).toString(), "rank");
  EXPECT_EQ(model.headerData(2, Qt::Horizontal).toString(), "total ms");
  EXPECT_EQ(model.headerData(3, Qt::Horizontal).toString(), "cpu ms");
  EXPECT_EQ(model.index(0, 1).data().toString(), "1,234,567");
  EXPECT_EQ(model.index(0, 2).data().toString(), "2.23") << "the decimals of the column's largest";
  EXPECT_EQ(model.index(1, 2).data().toString(), "13.60");
  EXPECT_EQ(model.index(0, 3).data().toString(), "") << "not measured: blank";
  EXPECT_EQ(model.index(0, 2).data(Qt::ToolTipRole).toString(), "0.0022291234");
  EXPECT_EQ(gui::toCsv(model), "rank,count,total,cpu\n0,1234567,0.0022291234,\n1,3,0.0136,0.5\n");
  // A text column is never formatted.
  store::QueryResult names = t;
  names.numeric = {false, false, false, false};
  model.setTable(names, {std::nullopt, gui::Format::integer, gui::Format::seconds, std::nullopt});
  EXPECT_EQ(model.index(0, 1).data().toString(), "1234567");
  EXPECT_EQ(model.headerData(2, Qt::Horizontal).toString(), "total");
}

// An SQL result (the console) as people read numbers: ids and ranks as stored, whole
// numbers with thousands separators, reals to four significant digits; the exact values
// in the tooltip and the export.
TEST(TableModel, ReadsAnSqlResultAsPeopleReadNumbers) {
  store::QueryResult t;
  t.columns = {"probe_id", "rank", "description", "count", "seconds", "share", "big"};
  t.numeric = {true, true, false, true, true, true, true};
  t.rows = {{"2082898379", "3", "main()", "1234567", "2.938573493749464e-05", "0.9509382884418685",
             "1234567.891"},
            {"7", "0", std::nullopt, "12", "0.4628645902729679", "1", "-0.5"}};
  const std::vector<std::optional<gui::Format>> formats = gui::result_formats(t);
  ASSERT_EQ(formats.size(), 7u);
  EXPECT_FALSE(formats[0]) << "an id";
  EXPECT_FALSE(formats[1]) << "a rank";
  EXPECT_FALSE(formats[2]) << "text";
  EXPECT_EQ(formats[3], gui::Format::integer);
  EXPECT_EQ(formats[4], gui::Format::significant);
  EXPECT_EQ(formats[5], gui::Format::significant) << "one real makes the column real";
  gui::TableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTable(t, formats);
  EXPECT_EQ(model.index(0, 0).data().toString(), "2082898379");
  EXPECT_EQ(model.index(0, 3).data().toString(), "1,234,567");
  EXPECT_EQ(model.index(0, 4).data().toString(), "2.939e-05");
  EXPECT_EQ(model.index(1, 4).data().toString(), "0.4629");
  EXPECT_EQ(model.index(0, 5).data().toString(), "0.9509");
  EXPECT_EQ(model.index(1, 5).data().toString(), "1");
  EXPECT_EQ(model.index(0, 6).data().toString(), "1,234,568");
  EXPECT_EQ(model.index(1, 6).data().toString(), "-0.5");
  EXPECT_EQ(model.index(0, 4).data(Qt::ToolTipRole).toString(), "2.938573493749464e-05");
  EXPECT_EQ(model.index(0, 4).data(gui::kExportRole).toString(), "2.938573493749464e-05");
}

TEST(ConsoleParams, NamesDefaultsAndText) {
  const queries::CannedQuery *q = queries::find_canned_query("hottest_procedures");
  ASSERT_TRUE(q);
  EXPECT_EQ(gui::parameter_names(q->parameters), (std::vector<std::string>{"run", "limit"}));
  EXPECT_EQ(gui::parameter_names(":a (x: y), :b_2"), (std::vector<std::string>{"a", "b_2"}));
  store::KeyValues params = gui::default_params({"run", "limit"}, nullptr);
  EXPECT_EQ(gui::params_text(params), "run=; limit=20");
  std::string error;
  auto parsed = gui::parse_params(" run = x ; limit=5;; ", error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(*parsed, (store::KeyValues{{"run", "x"}, {"limit", "5"}}));
  EXPECT_FALSE(gui::parse_params("run", error));
  EXPECT_EQ(error, "parameter 'run' is not key=value");
}

TEST(ConsoleParams, EveryCannedQueryGetsAValuePerParameter) {
  for (const queries::CannedQuery &q : queries::canned_queries())
    for (const auto &[name, value] :
         gui::default_params(gui::parameter_names(q.parameters), nullptr)) {
      if (name == "run") continue;
      EXPECT_FALSE(value.empty()) << q.name << " :" << name;
    }
}
