// Numbers as tables show them (number_format.hpp): a time column's unit and decimals from
// its largest value, values too small for them, blanks for NaN, thousands separators.
#include "number_format.hpp"

#include <gtest/gtest.h>

#include <cmath>

using idb::gui::format_count;
using idb::gui::format_time;
using idb::gui::time_unit;

TEST(NumberFormat, AColumnTakesTheUnitAndDecimalsOfItsLargestValue) {
  idb::gui::TimeUnit s = time_unit({2.2391, 0.5, std::nan("")});
  EXPECT_EQ(s.name, "s");
  EXPECT_EQ(s.decimals, 3);
  EXPECT_EQ(format_time(2.2391, s), "2.239");
  EXPECT_EQ(format_time(0.5, s), "0.500");
  EXPECT_EQ(format_time(1234.5, time_unit({1234.5})), "1235"); // four digits, no decimals
  idb::gui::TimeUnit ms = time_unit({0.01235, 0.0001});
  EXPECT_EQ(ms.name, "ms");
  EXPECT_EQ(format_time(0.01235, ms), "12.35");
  EXPECT_EQ(format_time(0.0001, ms), "0.10");
  EXPECT_EQ(time_unit({0.000123}).name, "µs");
  EXPECT_EQ(format_time(0.000123, time_unit({0.000123})), "123.0");
  EXPECT_EQ(time_unit({4.5e-9}).name, "ns");
  EXPECT_EQ(time_unit({}).name, "");                    // nothing to show: no unit
  EXPECT_EQ(time_unit({std::nan(""), 0.0}).name, "ns"); // only zeros: the smallest
}

TEST(NumberFormat, WhatRoundsToNothingSaysSoAndNanIsBlank) {
  idb::gui::TimeUnit s = time_unit({2.0});
  EXPECT_EQ(format_time(0.0000004, s), "<0.001");
  EXPECT_EQ(format_time(-0.0000004, s), ">-0.001");
  EXPECT_EQ(format_time(0.0, s), "0.000");
  EXPECT_EQ(format_time(std::nan(""), s), "");
}

TEST(NumberFormat, CountsHaveThousandsSeparators) {
  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(1000), "1,000");
  EXPECT_EQ(format_count(13876469), "13,876,469");
  EXPECT_EQ(format_count(-1234), "-1,234");
  EXPECT_EQ(format_count(std::nan("")), "");
}
