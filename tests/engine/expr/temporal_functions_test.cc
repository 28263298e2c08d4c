// BUCKET's numeric form, DATE_FORMAT, DATE_PARSE, DATE_DIFF and NOW (temporal_functions.h) against
// ES|QL's reference: DATE_FORMAT and DATE_PARSE take Java's DateTimeFormatter
// patterns and work in UTC; DATE_DIFF "subtracts the startTimestamp from the
// endTimestamp and returns the difference in multiples of unit", counting "only
// the fully elapsed units" (ChronoUnit.between), as an integer; NOW is the
// query's start.

#include "quarry/engine/expr/temporal_functions.h"

#include <gtest/gtest.h>

#include "expr_test_support.h"
#include "quarry/common/error.h"
#include "quarry/engine/expr/date_pattern.h"

namespace quarry::engine {
namespace {

using testing::bindText;
using testing::eval;
using testing::eval1;
using testing::Table;
using V = std::vector<std::string>;

Table instants() {
  Table t;
  // 2024-06-01T12:00:00.123Z (a Saturday), 1969-12-31T23:59:59.999Z, null, 1970-01-01T00:30:00Z.
  t.add("ms", DataType::timestamp(TimeUnit::kMillis, true),
        {int64_t{1'717'243'200'123}, int64_t{-1}, std::monostate{}, int64_t{1'800'000}});
  t.add("us", DataType::timestamp(TimeUnit::kMicros, true),
        {int64_t{1'717'243'200'123'456}, int64_t{0}, int64_t{1}, std::monostate{}});
  t.add("local", DataType::timestamp(TimeUnit::kMicros, false),
        {int64_t{1'717'243'200'000'000}, int64_t{0}, std::monostate{}, int64_t{0}});
  t.add("day", DataType::date(), {int32_t{19'875}, int32_t{1}, std::monostate{}, int32_t{-1}});
  t.add("s", DataType::string(),
        {std::string("2022-05-06"), std::string("2022-02-30"), std::monostate{}, std::string("x")});
  return t;
}

// ---- BUCKET's numeric form --------------------------------------------------------

// ES|QL: BUCKET(salary, 5000.) "creates groups of values": a number rounded down to
// a multiple of the width (Math.floor(value / width) * width), a double.
TEST(Bucket, ANumberRoundsDownToAMultipleOfTheWidth) {
  Table t;
  t.add("i", DataType::int64(), {int64_t{-7}, int64_t{0}, std::monostate{}, int64_t{12'345}});
  t.add("d", DataType::float64(), {-0.5, 2.5, 7.49, std::monostate{}});
  EXPECT_EQ(eval("bucket(i, 5)", t), (V{"-10", "0", "NULL", "12345"}));
  EXPECT_EQ(eval("bucket(i, 1000)", t)[3], "12000");
  EXPECT_EQ(eval("bucket(d, 2.5)", t), (V{"-2.5", "2.5", "5", "NULL"}));
  EXPECT_EQ(bindText("bucket(i, 5)", t.schema)->type, DataType::float64());
  for (const char* bad : {"bucket(i, 0)", "bucket(i, -5)", "bucket(i, i)", "bucket(i, 1 hour)"})
    EXPECT_THROW(bindText(bad, t.schema), QueryError) << bad;
}

// ---- BUCKET's target-count form ---------------------------------------------------

// ES|QL: "Using a target number of buckets, a start of a range, and an end of a
// range, BUCKET picks an appropriate bucket size to generate the target number of
// buckets or fewer. For example, asking for at most 20 buckets over a year results
// in monthly buckets"; "asking for at most 100 buckets in a year results in weekly
// buckets". Its numeric example, BUCKET(salary, 20, 25324, 74999), buckets by 5000.
TEST(Bucket, ATargetCountPicksTheSizeFromTheRange) {
  const Table t = instants();  // ms: 2024-06-01T12:00:00.123Z (a Saturday), ...
  const auto size = [&](const std::string& call) { return bindText(call, t.schema)->toString(); };
  const std::string year = R"("2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z")";
  EXPECT_EQ(size("bucket(ms, 20, " + year + ")"), "bucket(ms, 1 month)");
  EXPECT_EQ(size("bucket(ms, 100, " + year + ")"), "bucket(ms, 1 week)");
  EXPECT_EQ(eval("bucket(ms, 100, " + year + ")", t)[0], "TIMESTAMP '2024-05-27 00:00:00'");
  // Over a day: 24 buckets are hours, 25 too (the finest size that fits), 200
  // are 10 minutes (144 of them), 2000 a minute; dates bound the range too.
  const std::string day = R"("2024-06-01", "2024-06-02")";
  EXPECT_EQ(size(R"(bucket(ms, 24, DATE "2024-06-01", DATE "2024-06-02"))"), "bucket(ms, 1 hour)");
  EXPECT_EQ(size("bucket(ms, 25, " + day + ")"), "bucket(ms, 1 hour)");
  EXPECT_EQ(size("bucket(ms, 200, " + day + ")"), "bucket(ms, 10 minutes)");
  EXPECT_EQ(size("bucket(ms, 2000, " + day + ")"), "bucket(ms, 1 minute)");
  EXPECT_EQ(size("bucket(ms, 100000000, " + day + ")"), "bucket(ms, 1 millisecond)");
  EXPECT_EQ(eval("bucket(ms, 100000000, " + day + ")", t)[0],
            "TIMESTAMP '2024-06-01 12:00:00.123'");
  // Ten years in 5 buckets: a day, a week, a month give too many, a year 10: a year.
  EXPECT_EQ(size(R"(bucket(day, 5, "2020-01-01", "2030-01-01"))"), "bucket(day, 1 year)");
  EXPECT_EQ(eval(R"(bucket(day, 5, "2020-01-01", "2030-01-01"))", t)[0], "DATE '2024-01-01'");
  EXPECT_EQ(size(R"(bucket(day, 12, "2020-01-01", "2021-01-01"))"), "bucket(day, 1 month)");
  Table n;
  n.add("salary", DataType::int32(), {int32_t{25'324}, int32_t{39'999}, int32_t{74'999}});
  EXPECT_EQ(eval("bucket(salary, 20, 25324, 74999)", n), (V{"25000", "35000", "70000"}));
  // (1000 - 0) / 20 = 50: a power of ten's half (50 < 100 / 2 is false): 100.
  EXPECT_EQ(eval("bucket(salary, 20, 0, 1000)", n), (V{"25300", "39900", "74900"}));
  EXPECT_EQ(eval("bucket(salary, 3, 0, 1000)", n), (V{"25000", "39500", "74500"}));  // 500
  for (const char* bad :
       {"bucket(salary, 0, 0, 10)", "bucket(salary, 2.5, 0, 10)", "bucket(salary, 20, salary, 10)",
        "bucket(salary, 20, 10, 10)", "bucket(salary, 20, 0)"}) {
    EXPECT_THROW(bindText(bad, n.schema), QueryError) << bad;
  }
  for (const char* bad : {R"(bucket(ms, 20, "x", "2025-01-01"))", "bucket(ms, 20, 1, 2)"})
    EXPECT_THROW(bindText(bad, t.schema), QueryError) << bad;
}

// ---- DATE_FORMAT ------------------------------------------------------------------

TEST(DateFormat, WithoutAPatternWritesEsqlsIsoText) {
  const Table t = instants();
  EXPECT_EQ(eval("date_format(ms)", t), (V{"2024-06-01T12:00:00.123Z", "1969-12-31T23:59:59.999Z",
                                           "NULL", "1970-01-01T00:30:00.000Z"}));
  EXPECT_EQ(eval("date_format(day)", t), (V{"2024-06-01T00:00:00.000Z", "1970-01-02T00:00:00.000Z",
                                            "NULL", "1969-12-31T00:00:00.000Z"}));
  EXPECT_EQ(eval("date_format(ms)", t), eval("to_string(ms)", t));
  EXPECT_EQ(bindText("date_format(ms)", t.schema)->type, DataType::string());
}

TEST(DateFormat, WritesJavasPatternLetters) {
  const Table t = instants();
  EXPECT_EQ(eval("date_format(\"yyyy-MM-dd\", ms)", t),
            (V{"2024-06-01", "1969-12-31", "NULL", "1970-01-01"}));
  EXPECT_EQ(eval("date_format(\"yyyy-MM-dd'T'HH:mm:ss.SSSXXX\", ms)", t)[0],
            "2024-06-01T12:00:00.123Z");
  EXPECT_EQ(eval("date_format(\"EEE, d MMM yyyy HH:mm:ss Z\", ms)", t)[0],
            "Sat, 1 Jun 2024 12:00:00 +0000");
  EXPECT_EQ(eval("date_format(\"EEEE MMMM dd hh:mm a\", ms)", t)[0], "Saturday June 01 12:00 PM");
  EXPECT_EQ(eval("date_format(\"yy.M.d\", ms)", t)[0], "24.6.1");
  EXPECT_EQ(eval("date_format(\"D DDD Q QQ QQQ QQQQ\", ms)", t)[0], "153 153 2 02 Q2 2nd quarter");
  EXPECT_EQ(eval("date_format(\"G u MMMMM EEEEE\", ms)", t)[0], "AD 2024 J S");
  EXPECT_EQ(eval("date_format(\"''HH'h'''\", ms)", t)[0], "'12h'");
  EXPECT_EQ(eval("date_format(\"x xx xxx ZZZZ ZZZZZ VV O\", ms)", t)[0],
            "+00 +0000 +00:00 GMT Z Z GMT");
  EXPECT_EQ(eval("date_format(\"k K h H m s\", ms)", t)[3], "24 0 12 0 30 0");
  EXPECT_EQ(eval("date_format(\"S SSS SSSSSS n\", us)", t)[0], "1 123 123456 123456000");
  EXPECT_EQ(eval("date_format(\"A N\", ms)", t)[3], "1800000 1800000000000");
  EXPECT_EQ(eval("date_format(\"yyyy-MM-dd HH:mm\", day)", t),
            (V{"2024-06-01 00:00", "1970-01-02 00:00", "NULL", "1969-12-31 00:00"}));
  // A local timestamp is written on its wall clock.
  EXPECT_EQ(eval("date_format(\"HH:mm\", local)", t), (V{"12:00", "00:00", "NULL", "00:00"}));
  // Unicode literal text passes through.
  EXPECT_EQ(eval("date_format(\"yyyy年MM月\", ms)", t)[0], "2024年06月");
}

TEST(DateFormat, YearsPastFourDigitsAndBeforeYearOne) {
  EXPECT_EQ(eval1("date_format(\"yyyy\", to_datetime(253402300800000))"), "+10000");
  EXPECT_EQ(eval1("date_format(\"uuuu yyyy G\", to_datetime(-62135596800001))"), "0000 0001 BC");
}

// "An unsupported letter is an error naming it" (and Java's too-many-letters error).
TEST(DateFormat, PatternsItCannotTakeAreQueryErrorsNamingTheLetter) {
  const Table t = instants();
  const auto message = [&](const std::string& text) -> std::string {
    try {
      bindText(text, t.schema);
    } catch (const QueryError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(message("date_format(\"yyyy ww\", ms)").find("pattern letter 'w'"), std::string::npos);
  EXPECT_NE(message("date_format(\"YYYY\", ms)").find("pattern letter 'Y'"), std::string::npos);
  EXPECT_NE(message("date_format(\"ddd\", ms)").find("too many pattern letters 'd'"),
            std::string::npos);
  EXPECT_NE(message("date_format(\"[yyyy]\", ms)").find("'['"), std::string::npos);
  EXPECT_NE(message("date_format(\"'open\", ms)").find("unclosed quote"), std::string::npos);
  EXPECT_NE(message("date_format(s, ms)").find("pattern must be a string literal"),
            std::string::npos);
  EXPECT_NE(message("date_format(\"yyyy\", s)").find("must be a date or a timestamp"),
            std::string::npos);
  EXPECT_NE(message("date_format()").find("expected"), std::string::npos);
}

// ---- DATE_PARSE ---------------------------------------------------------------------

std::string parsed(const std::string& pattern, const std::string& text) {
  return eval1("to_string(date_parse(\"" + pattern + "\", \"" + text + "\"))");
}

TEST(DateParse, ReadsThePatternInUtc) {
  EXPECT_EQ(parsed("yyyy-MM-dd", "2022-05-06"), "2022-05-06T00:00:00.000Z");
  EXPECT_EQ(parsed("yyyy-MM-dd HH:mm:ss", "2024-06-01 12:30:45"), "2024-06-01T12:30:45.000Z");
  EXPECT_EQ(parsed("dd/MM/yyyy", "31/12/1999"), "1999-12-31T00:00:00.000Z");
  EXPECT_EQ(parsed("yyyyMMdd", "20240601"), "2024-06-01T00:00:00.000Z");  // adjacent numbers
  EXPECT_EQ(parsed("yyyy-MM-dd'T'HH:mm:ssXXX", "2024-06-01T12:00:00+02:00"),
            "2024-06-01T10:00:00.000Z");
  EXPECT_EQ(parsed("yyyy-MM-dd'T'HH:mm:ss.SSSX", "2024-06-01T12:00:00.250Z"),
            "2024-06-01T12:00:00.250Z");
  EXPECT_EQ(parsed("MMM d, yyyy", "Jun 1, 2024"), "2024-06-01T00:00:00.000Z");
  EXPECT_EQ(parsed("EEE yyyy-MM-dd", "Sat 2024-06-01"), "2024-06-01T00:00:00.000Z");
  EXPECT_EQ(parsed("hh:mm a", "12:15 AM"),
            "1970-01-01T00:15:00.000Z");  // missing fields: 1970-01-01
  EXPECT_EQ(parsed("hh:mm a", "01:15 PM"), "1970-01-01T13:15:00.000Z");
  EXPECT_EQ(parsed("yy-MM-dd", "24-06-01"), "2024-06-01T00:00:00.000Z");
  EXPECT_EQ(parsed("yyyy D", "2024 153"), "2024-06-01T00:00:00.000Z");
  EXPECT_EQ(parsed("yyyy", "2024"), "2024-01-01T00:00:00.000Z");
  EXPECT_EQ(eval1("date_parse(\"2024-06-01T12:00:00Z\")"),
            eval1("to_datetime(\"2024-06-01T12:00:00Z\")"));
  EXPECT_EQ(bindText("date_parse(\"yyyy\", \"2024\")", {})->type,
            DataType::timestamp(TimeUnit::kMillis, true));
}

// Java's STRICT resolution: the text must match, and name a real date.
TEST(DateParse, TextThatDoesNotMatchOrNamesNoDateIsNull) {
  EXPECT_EQ(eval("to_string(date_parse(\"yyyy-MM-dd\", s))", instants()),
            (V{"2022-05-06T00:00:00.000Z", "NULL", "NULL", "NULL"}));
  for (const auto& [pattern, text] : std::vector<std::pair<std::string, std::string>>{
           {"dd/MM/yyyy", "30/02/2024"},
           {"yyyy-MM-dd", "2024-13-01"},
           {"yyyy-MM-dd", "2024-6-01"},
           {"yyyy-MM-dd", "2024-06-01 "},
           {"yyyy", "2024x"},
           {"yyyy", ""},
           {"MMM d, yyyy", "jun 1, 2024"},
           {"EEE yyyy-MM-dd", "Mon 2024-06-01"},
           {"yyyy-MM-dd HH:mm:ss.SSS", "2024-06-01 12:00:00.5"},
           {"HH:mm", "24:00"},
           {"hh:mm a", "13:00 PM"},
           {"yyyy D", "2023 366"},
       }) {
    EXPECT_EQ(parsed(pattern, text), "NULL") << pattern << " / " << text;
  }
  EXPECT_EQ(eval1("date_parse(\"yyyy\", null)"), "NULL");
  EXPECT_THROW(bindText("date_parse(\"yyyy\", 2024)", {}), QueryError);
  EXPECT_THROW(bindText("date_parse(\"yyyy ww\", \"2024\")", {}), QueryError);
}

TEST(DateParse, ReadsWhatDateFormatWrites) {
  const Table t = instants();
  const std::string pattern = "\"EEEE, d MMMM uuuu hh:mm:ss.SSS a xxx\"";
  EXPECT_EQ(eval("date_parse(" + pattern + ", date_format(" + pattern + ", ms))", t),
            eval("ms", t));
}

// ---- DATE_DIFF ----------------------------------------------------------------------

std::string diff(const std::string& unit, const std::string& from, const std::string& to) {
  return eval1("date_diff(\"" + unit + "\", to_datetime(\"" + from + "\"), to_datetime(\"" + to +
               "\"))");
}

// "When subtracting in calendar units - like year, month a.s.o. - only the fully
// elapsed units are counted" (Java's LocalDate.until).
TEST(DateDiff, CountsOnlyFullyElapsedCalendarUnits) {
  EXPECT_EQ(diff("month", "2024-01-31", "2024-02-29"), "0");
  EXPECT_EQ(diff("month", "2024-01-31", "2024-03-30"), "1");
  EXPECT_EQ(diff("month", "2024-01-31", "2024-03-31"), "2");
  EXPECT_EQ(diff("month", "2024-03-31", "2024-01-31"), "-2");
  EXPECT_EQ(diff("month", "2024-03-31", "2024-02-29"),
            "-1");  // Java's (packed) difference, truncated
  EXPECT_EQ(diff("month", "2024-01-15T12:00:00", "2024-02-15T11:00:00"),
            "0");  // the time of day counts
  EXPECT_EQ(diff("month", "2024-01-15T12:00:00", "2024-02-15T12:00:00"), "1");
  EXPECT_EQ(diff("month", "2024-02-15T11:00:00", "2024-01-15T12:00:00"), "0");
  EXPECT_EQ(diff("year", "2020-02-29", "2021-02-28"), "0");
  EXPECT_EQ(diff("year", "2020-02-29", "2024-02-29"), "4");
  EXPECT_EQ(diff("year", "2024-06-01", "1900-06-02"), "-123");
  EXPECT_EQ(diff("quarter", "2024-01-15", "2024-07-14"), "1");
  EXPECT_EQ(diff("quarter", "2024-01-15", "2024-07-15"), "2");
}

TEST(DateDiff, FixedUnitsTruncateTowardZero) {
  EXPECT_EQ(diff("day", "2024-06-01T12:00:00", "2024-06-02T11:59:59"), "0");
  EXPECT_EQ(diff("day", "2024-06-01T12:00:00", "2024-06-02T12:00:00"), "1");
  EXPECT_EQ(diff("day", "2024-06-02T11:59:59", "2024-06-01T12:00:00"), "0");
  EXPECT_EQ(diff("day", "2024-06-03", "2024-06-01T12:00:00"), "-1");
  EXPECT_EQ(diff("week", "2024-06-01", "2024-06-14"), "1");
  EXPECT_EQ(diff("week", "2024-06-01", "2024-06-15"), "2");
  EXPECT_EQ(diff("hour", "2024-06-01T00:00:00", "2024-06-01T00:59:59"), "0");
  EXPECT_EQ(diff("hour", "2024-06-01T01:00:00", "2024-06-01T00:00:00"), "-1");
  EXPECT_EQ(diff("minute", "2024-06-01T00:00:00", "2024-06-01T01:01:30"), "61");
  EXPECT_EQ(diff("second", "1969-12-31T23:59:59", "1970-01-01T00:00:01"), "2");
  EXPECT_EQ(diff("millisecond", "2024-06-01T00:00:00", "2024-06-01T00:00:01.5"), "1500");
  EXPECT_EQ(diff("microsecond", "2024-06-01T00:00:00", "2024-06-01T00:00:01.5"), "1500000");
  EXPECT_EQ(diff("nanosecond", "2024-06-01T00:00:00", "2024-06-01T00:00:01.5"), "1500000000");
  // ES|QL's result is an integer: out of its range is null (with a warning in ES|QL).
  EXPECT_EQ(diff("millisecond", "2024-01-01", "2024-02-01"), "NULL");
  EXPECT_EQ(diff("nanosecond", "2024-06-01T00:00:00", "2024-06-01T00:00:03"), "NULL");
  EXPECT_EQ(diff("second", "1900-01-01", "2024-01-01"), "NULL");
  EXPECT_EQ(bindText("date_diff(\"day\", to_datetime(0), to_datetime(1))", {})->type,
            DataType::int32());
}

TEST(DateDiff, TakesEsqlsUnitsAndAbbreviationsInAnyCase) {
  for (const auto& [unit, expected] : std::vector<std::pair<std::string, std::string>>{
           {"years", "1"},   {"yy", "1"},        {"yyyy", "1"},        {"quarters", "5"},
           {"qq", "5"},      {"q", "5"},         {"months", "15"},     {"mm", "15"},
           {"m", "15"},      {"MONTH", "15"},    {"dayofyear", "458"}, {"dy", "458"},
           {"y", "458"},     {"days", "458"},    {"dd", "458"},        {"d", "458"},
           {"weeks", "65"},  {"wk", "65"},       {"ww", "65"},         {"weekday", "458"},
           {"dw", "458"},    {"hours", "10992"}, {"hh", "10992"},      {"minutes", "659520"},
           {"mi", "659520"}, {"n", "659520"},
       }) {
    EXPECT_EQ(diff(unit, "2023-03-01", "2024-06-01"), expected) << unit;
  }
  EXPECT_EQ(diff("ss", "2024-06-01", "2024-06-01T00:01:00"), "60");
  EXPECT_EQ(diff("s", "2024-06-01", "2024-06-01T00:01:00"), "60");
  EXPECT_EQ(diff("ms", "2024-06-01", "2024-06-01T00:00:01"), "1000");
  EXPECT_EQ(diff("mcs", "2024-06-01", "2024-06-01T00:00:01"), "1000000");
  EXPECT_EQ(diff("ns", "2024-06-01", "2024-06-01T00:00:01"), "1000000000");
  EXPECT_THROW(eval1("date_diff(\"fortnight\", to_datetime(0), to_datetime(1))"), QueryError);
  EXPECT_THROW(bindText("date_diff(s, ms, ms)", instants().schema), QueryError);
  EXPECT_THROW(bindText("date_diff(\"day\", s, ms)", instants().schema), QueryError);
}

TEST(DateDiff, MixesDatesAndTimestampsOfAnyUnit) {
  const Table t = instants();
  EXPECT_EQ(eval("date_diff(\"hour\", day, ms)", t), (V{"12", "-24", "NULL", "24"}));
  EXPECT_EQ(eval("date_diff(\"microsecond\", ms, us)", t), (V{"456", "1000", "NULL", "NULL"}));
  EXPECT_EQ(eval("date_diff(\"nanosecond\", us, ms)", t),
            (V{"-456000", "-1000000", "NULL", "NULL"}));
}

// ---- NOW ----------------------------------------------------------------------------

TEST(Now, IsTheQueryClocksInstantOnEveryRow) {
  const Table t = instants();
  {
    const QueryClock clock(1'717'243'200'123);
    EXPECT_EQ(eval("to_string(now())", t), (V(4, "2024-06-01T12:00:00.123Z")));
    EXPECT_EQ(bindText("NOW()", t.schema)->type, DataType::timestamp(TimeUnit::kMillis, true));
    EXPECT_EQ(eval("date_diff(\"day\", ms, now())", t), (V{"0", "19875", "NULL", "19875"}));
    {
      const QueryClock inner(0);
      EXPECT_EQ(eval1("to_long(now())"), "0");
    }
    EXPECT_EQ(eval1("to_long(now())"), "1717243200123");
    EXPECT_THROW(bindText("now(1)", t.schema), QueryError);
  }
  // Bound outside a query (no clock), NOW() has no instant to be.
  EXPECT_FALSE(QueryClock::now().has_value());
  EXPECT_THROW(bindText("now()", t.schema), QueryError);
}

}  // namespace
}  // namespace quarry::engine
