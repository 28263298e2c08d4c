// ORC filtering (orc_predicate.h, orc_row_filter.h, orc_pruning.h and
// OrcRowReader's filter): binding rules, exact row selection, and pruning of
// stripes and row groups checked through OrcScanMetrics, on the ORC project's
// example files and on hand-made statistics.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/orc/orc_bloom_filter.h"
#include "quarry/formats/orc/orc_file_reader.h"
#include "quarry/formats/orc/orc_pruning.h"
#include "tests/support/testdata.h"

namespace quarry::orc {
namespace {

namespace fs = std::filesystem;
using P = FilterPredicate;
using parquet::PredicateLiteral;

fs::path examplesDir() {
  return quarry::testing::testdataDir() / "orc" / "examples";
}

#define QUARRY_SKIP_WITHOUT_ORC_EXAMPLES()                                                      \
  do {                                                                                          \
    if (!fs::is_directory(examplesDir())) {                                                     \
      GTEST_SKIP() << "SKIPPED LOUDLY: ORC examples not found at " << examplesDir()             \
                   << " (set QUARRY_TESTDATA to the folder holding parquet-testing/ and orc/)"; \
    }                                                                                           \
  } while (0)

std::unique_ptr<OrcFileReader> example(const std::string& name) {
  return OrcFileReader::open((examplesDir() / name).string());
}

/// The JSON of every row `filter` selects, one per line.
std::string filteredJson(OrcFileReader& reader, const P& filter, bool pruning,
                         OrcScanMetrics* metrics = nullptr, std::vector<bool> projection = {}) {
  OrcScanOptions options;
  options.filter = filter;
  options.metadataPruning = pruning;
  OrcRowReader rows(reader, projection.empty() ? reader.projectAll() : projection, options);
  std::string out;
  while (rows.next()) {
    rows.appendRowJson(out);
    out += '\n';
  }
  if (metrics != nullptr) *metrics = rows.metrics();
  return out;
}

size_t lineCount(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

std::string bindError(const OrcSchema& schema, const P& p) {
  try {
    OrcBoundPredicate::bind(p, schema);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

/// A schema struct<c:char(4),v:varchar(8),d:decimal(9,2),i:tinyint,l:list<int>,u:uniontype<int>>.
OrcSchema handMadeSchema() {
  proto::Footer footer;
  auto add = [&](proto::Type::Kind kind) {
    auto* t = footer.add_types();
    t->set_kind(kind);
    return t;
  };
  auto* root = add(proto::Type::STRUCT);
  for (uint32_t id : {1u, 2u, 3u, 4u, 5u, 7u}) root->add_subtypes(id);
  for (const char* name : {"c", "v", "d", "i", "l", "u"}) root->add_fieldnames(name);
  add(proto::Type::CHAR)->set_maximumlength(4);
  add(proto::Type::VARCHAR)->set_maximumlength(8);
  auto* d = add(proto::Type::DECIMAL);
  d->set_precision(9);
  d->set_scale(2);
  add(proto::Type::BYTE);
  add(proto::Type::LIST)->add_subtypes(6);
  add(proto::Type::INT);
  add(proto::Type::UNION)->add_subtypes(8);
  add(proto::Type::INT);
  return OrcSchema::build(footer, "hand-made.orc");
}

Decimal decimal(int64_t unscaled, int32_t scale) {
  Decimal d;
  d.scale = scale;
  for (int i = 7; i >= 0; --i)
    d.unscaledBigEndian.push_back(static_cast<uint8_t>(static_cast<uint64_t>(unscaled) >> (8 * i)));
  return d;
}

// --- Binding -------------------------------------------------------------------

TEST(OrcFilterBindTest, UnknownColumnIsRefusedNamingIt) {
  const OrcSchema schema = handMadeSchema();
  EXPECT_NE(bindError(schema, P::eq("nope", 1)).find("Column 'nope' is not in the ORC schema"),
            std::string::npos);
}

TEST(OrcFilterBindTest, ColumnsUnderListsAndUnionsAreRefused) {
  const OrcSchema schema = handMadeSchema();
  EXPECT_NE(bindError(schema, P::eq("l._elem", 1)).find("lies under the array 'l'"),
            std::string::npos)
      << bindError(schema, P::eq("l._elem", 1));
  EXPECT_NE(bindError(schema, P::eq("u.0", 1)).find("lies under"), std::string::npos);
}

TEST(OrcFilterBindTest, CompoundColumnTakesNullTestsOnly) {
  const OrcSchema schema = handMadeSchema();
  EXPECT_EQ(bindError(schema, P::isNull("l")), "");
  EXPECT_NE(bindError(schema, P::eq("l", 1)).find("takes isNull and isNotNull only"),
            std::string::npos);
}

// "A literal a column does not take throws IllegalArgumentException at reader creation."
TEST(OrcFilterBindTest, LiteralOfAnotherTypeIsRefusedNamingColumnAndLiteral) {
  const OrcSchema schema = handMadeSchema();
  const std::string error = bindError(schema, P::eq("i", std::string("x")));
  EXPECT_NE(error.find("Column 'i' (tinyint)"), std::string::npos) << error;
  EXPECT_NE(error.find("'x'"), std::string::npos) << error;
  EXPECT_NE(error.find("it takes int32_t, int64_t"), std::string::npos) << error;
  EXPECT_NE(bindError(schema, P::lt("d", 1.5)).find("takes quarry::Decimal"), std::string::npos);
}

// "Equality ... against a value the column cannot store ... throws ..., naming the
// column, what bounds it and the literal."
TEST(OrcFilterBindTest, EqualityWithAnIntegerPastTheTypeIsRefused) {
  const OrcSchema schema = handMadeSchema();
  const std::string error = bindError(schema, P::eq("i", 1000));
  EXPECT_NE(error.find("holds integers in [-128, 127]"), std::string::npos) << error;
  EXPECT_NE(error.find("1000"), std::string::npos) << error;
  EXPECT_EQ(bindError(schema, P::eq("i", 127)), "");
}

TEST(OrcFilterBindTest, OrderedLiteralPastTheTypeBecomesAConstant) {
  const OrcSchema schema = handMadeSchema();
  const auto lt = OrcBoundPredicate::bind(P::lt("i", 1000), schema);
  EXPECT_EQ(lt.root().kind, OrcBoundNode::Kind::kConstant);
  EXPECT_TRUE(lt.root().constant);
  const auto gt = OrcBoundPredicate::bind(P::gt("i", int64_t{1000}), schema);
  EXPECT_EQ(gt.root().kind, OrcBoundNode::Kind::kConstant);
  EXPECT_FALSE(gt.root().constant);
}

// "A BigDecimal literal is rescaled to the column's scale ... 99.99 against a
// DECIMAL(scale = 4) column compares as 99.9900"; a digit the scale cannot hold
// follows "Literals the column cannot hold".
TEST(OrcFilterBindTest, DecimalLiteralIsRescaledSnappedOrRefused) {
  const OrcSchema schema = handMadeSchema();
  EXPECT_EQ(OrcBoundPredicate::bind(P::eq("d", decimal(125, 2)), schema).root().keys[0],
            Int128{125});
  EXPECT_EQ(OrcBoundPredicate::bind(P::eq("d", decimal(1250, 3)), schema).root().keys[0],
            Int128{125});
  EXPECT_EQ(OrcBoundPredicate::bind(P::eq("d", decimal(1, 0)), schema).root().keys[0], Int128{100});
  EXPECT_NE(bindError(schema, P::eq("d", decimal(1255, 3))).find("is not a value it can hold"),
            std::string::npos);
  // lt 1.255 is lt 1.26 at scale 2; gt 1.255 is gt 1.25.
  EXPECT_EQ(OrcBoundPredicate::bind(P::lt("d", decimal(1255, 3)), schema).root().keys[0],
            Int128{126});
  EXPECT_EQ(OrcBoundPredicate::bind(P::gt("d", decimal(1255, 3)), schema).root().keys[0],
            Int128{125});
  EXPECT_EQ(OrcBoundPredicate::bind(P::gt("d", decimal(-1255, 3)), schema).root().keys[0],
            Int128{-126});
  // Past decimal(9, 2): equality refused, order decided.
  EXPECT_NE(bindError(schema, P::eq("d", decimal(10'000'000'000, 2))).find("9 digits"),
            std::string::npos);
  EXPECT_EQ(OrcBoundPredicate::bind(P::lt("d", decimal(10'000'000'000, 2)), schema).root().kind,
            OrcBoundNode::Kind::kConstant);
}

// char(n) values are stored padded with spaces to n characters: a String literal
// is padded the same way, a Bytes literal is taken as given.
TEST(OrcFilterBindTest, StringLiteralOnCharIsPaddedToTheDeclaredLength) {
  const OrcSchema schema = handMadeSchema();
  EXPECT_EQ(OrcBoundPredicate::bind(P::eq("c", "ab"), schema).root().byteKeys[0], "ab  ");
  EXPECT_EQ(OrcBoundPredicate::bind(P::eq("c", "\xC3\xA9t"), schema).root().byteKeys[0],
            "\xC3\xA9t  ");
  EXPECT_EQ(OrcBoundPredicate::bind(P::eq("c", Bytes{'a', 'b'}), schema).root().byteKeys[0], "ab");
  EXPECT_EQ(OrcBoundPredicate::bind(P::eq("v", "ab"), schema).root().byteKeys[0], "ab");
}

TEST(OrcFilterBindTest, FloatsOrderAsDoubleCompare) {
  // "all NaN values equal each other and sort above every other value, and -0.0
  // sorts below +0.0"
  EXPECT_LT(orcTotalOrderKey(-0.0), orcTotalOrderKey(0.0));
  EXPECT_LT(orcTotalOrderKey(-1.0), orcTotalOrderKey(-0.5));
  EXPECT_LT(orcTotalOrderKey(-INFINITY), orcTotalOrderKey(-1e308));
  EXPECT_LT(orcTotalOrderKey(INFINITY), orcTotalOrderKey(NAN));
  EXPECT_EQ(orcTotalOrderKey(NAN), orcTotalOrderKey(-NAN));
}

// --- Row filtering on TestOrcFile.test1.orc (two rows) ----------------------------

TEST(OrcFilterRowsTest, ComparisonsSelectExactlyTheMatchingRows) {
  QUARRY_SKIP_WITHOUT_ORC_EXAMPLES();
  auto reader = example("TestOrcFile.test1.orc");
  const auto byte1 = [&](const P& p) {
    std::string out;
    OrcScanOptions options;
    options.filter = p;
    OrcRowReader rows(*reader, reader->project({"byte1"}), options);
    while (rows.next()) {
      const ColumnVector& c = *rows.root().children[1];
      out += (out.empty() ? "" : ",") + std::to_string(c.longs[c.valueIndex(rows.slot())]);
    }
    return out;
  };
  EXPECT_EQ(byte1(P::eq("string1", "bye")), "100");
  EXPECT_EQ(byte1(P::eq("boolean1", false)), "1");
  EXPECT_EQ(byte1(P::not_(P::eq("boolean1", false))), "100");
  EXPECT_EQ(byte1(P::in("short1", 1024, 3000)), "1");
  EXPECT_EQ(byte1(P::lt("double1", -10.0)), "1");
  EXPECT_EQ(byte1(P::eq("float1", 2.0f)), "100");
  EXPECT_EQ(byte1(P::eq("bytes1", Bytes{})), "100");
  EXPECT_EQ(byte1(P::eq("bytes1", Bytes{0, 1, 2, 3, 4})), "1");
  EXPECT_EQ(byte1(P::eq("long1", std::numeric_limits<int64_t>::max())), "1,100");
  EXPECT_EQ(byte1(P::gtEq("byte1", 2)), "100");
  EXPECT_EQ(byte1(P::or_(P::eq("string1", "hi"), P::gt("short1", 2000))), "1,100");
  EXPECT_EQ(byte1(P::and_(P::eq("string1", "hi"), P::gt("short1", 2000))), "");
  EXPECT_EQ(byte1(P::isNull("middle")), "");
  EXPECT_EQ(byte1(P::isNotNull("middle")), "1,100");
}

TEST(OrcFilterRowsTest, FilterColumnsOutsideTheProjectionAreNotReturned) {
  QUARRY_SKIP_WITHOUT_ORC_EXAMPLES();
  auto reader = example("TestOrcFile.test1.orc");
  const std::string json =
      filteredJson(*reader, P::eq("string1", "bye"), true, nullptr, reader->project({"int1"}));
  EXPECT_EQ(json, "{\"int1\": 65536}\n");
}

// --- Pruning ---------------------------------------------------------------------

// TestOrcFile.testPredicatePushdown.orc: 3,500 rows, int1 = 300 * row, a row
// index every 1,000 rows: row group 0 holds int1 0 .. 299,700.
TEST(OrcFilterPruningTest, RowGroupsAreSkippedOrMatchedWholeFromTheRowIndex) {
  QUARRY_SKIP_WITHOUT_ORC_EXAMPLES();
  auto reader = example("TestOrcFile.testPredicatePushdown.orc");
  ASSERT_EQ(reader->tail().footer.rowindexstride(), 1000u);
  OrcScanMetrics on, off;
  const std::string pruned = filteredJson(*reader, P::lt("int1", 300000), true, &on);
  const std::string unpruned = filteredJson(*reader, P::lt("int1", 300000), false, &off);
  EXPECT_EQ(pruned, unpruned);
  EXPECT_EQ(lineCount(pruned), 1000u);
  EXPECT_EQ(on.stridesTotal, 4);
  EXPECT_EQ(on.stridesSkipped, 3);
  EXPECT_EQ(on.stridesMatchedByStatistics, 1);
  EXPECT_EQ(on.rowsReturned, 1000);
  EXPECT_EQ(off.stridesSkipped, 0);
  EXPECT_EQ(off.stridesMatchedByStatistics, 0);
  EXPECT_EQ(off.rowsReturned, 1000);
  // Between two row groups: only the second one is evaluated row by row.
  EXPECT_EQ(
      filteredJson(*reader,
                   P::and_(P::gtEq("int1", 300000 * 2 - 600), P::lt("int1", 300000 * 2 + 600)),
                   true, &on),
      "{\"int1\": 599400, \"string1\": \"4e0c\"}\n{\"int1\": 599700, \"string1\": \"4e16\"}\n"
      "{\"int1\": 600000, \"string1\": \"4e20\"}\n{\"int1\": 600300, \"string1\": \"4e2a\"}\n");
  EXPECT_EQ(on.stridesSkipped, 2);
}

// TestOrcFile.testStripeLevelStats.orc: 11,000 rows in three stripes, int1 1, 2 then 3.
TEST(OrcFilterPruningTest, StripesArePrunedOrMatchedWholeFromStripeStatistics) {
  QUARRY_SKIP_WITHOUT_ORC_EXAMPLES();
  auto reader = example("TestOrcFile.testStripeLevelStats.orc");
  ASSERT_GE(reader->stripeCount(), 2u);
  OrcScanMetrics on, off;
  const std::string pruned = filteredJson(*reader, P::eq("int1", 2), true, &on);
  EXPECT_EQ(pruned, filteredJson(*reader, P::eq("int1", 2), false, &off));
  EXPECT_GT(lineCount(pruned), 0u);
  EXPECT_EQ(on.stripesTotal, static_cast<int64_t>(reader->stripeCount()));
  EXPECT_GT(on.stripesPrunedByStatistics, 0);
  EXPECT_EQ(on.stripesRead + on.stripesPrunedByStatistics, on.stripesTotal);
  EXPECT_LT(on.bytesFetched, off.bytesFetched);
  EXPECT_EQ(off.stripesPrunedByStatistics, 0);
  EXPECT_EQ(off.stripesRead, off.stripesTotal);
  // not(eq) is pushed down as well: the complement.
  OrcScanMetrics negated;
  const std::string others = filteredJson(*reader, P::not_(P::eq("int1", 2)), true, &negated);
  EXPECT_EQ(lineCount(others) + lineCount(pruned), reader->rowCount());
  EXPECT_GT(negated.stripesMatchedByStatistics, 0);
}

OrcColumnStatistics doubleStats(double min, double max, std::optional<double> sum,
                                uint64_t values) {
  OrcColumnStatistics s;
  s.valueCount = values;
  s.doubleMinimum = min;
  s.doubleMaximum = max;
  s.doubleSum = sum;
  return s;
}

UnitDecision decide(const P& p, const OrcColumnStatistics& column, uint64_t rows) {
  proto::Footer footer;
  auto* root = footer.add_types();
  root->set_kind(proto::Type::STRUCT);
  root->add_subtypes(1);
  root->add_fieldnames("x");
  footer.add_types()->set_kind(proto::Type::DOUBLE);
  root->add_subtypes(2);
  root->add_fieldnames("s");
  footer.add_types()->set_kind(proto::Type::STRING);
  root->add_subtypes(3);
  root->add_fieldnames("ts");
  footer.add_types()->set_kind(proto::Type::TIMESTAMP_INSTANT);
  const OrcSchema schema = OrcSchema::build(footer, "stats.orc");
  const auto bound = OrcBoundPredicate::bind(p, schema);
  std::vector<const OrcColumnStatistics*> stats(4, &column);
  stats[0] = nullptr;
  return decideUnit(bound, stats, rows, PruningContext{});
}

// "Usable floating-point bounds cover a unit's non-NaN values only": ORC writers
// record no NaN count, and a NaN value leaves the bounds alone, so a predicate a NaN
// satisfies prunes only where the sum (NaN once a NaN is added) proves there is none.
TEST(OrcFilterPruningTest, FloatBoundsAreTrustedForNaNOnlyWhereTheSumProvesNone) {
  EXPECT_EQ(decide(P::gt("x", 100.0), doubleStats(1, 10, std::nullopt, 5), 5), UnitDecision::kSome);
  EXPECT_EQ(decide(P::gt("x", 100.0), doubleStats(1, 10, NAN, 5), 5), UnitDecision::kSome);
  EXPECT_EQ(decide(P::gt("x", 100.0), doubleStats(1, 10, 20.0, 5), 5), UnitDecision::kNone);
  // A predicate NaN fails prunes from the bounds alone.
  EXPECT_EQ(decide(P::lt("x", 0.5), doubleStats(1, 10, std::nullopt, 5), 5), UnitDecision::kNone);
  EXPECT_EQ(decide(P::eq("x", 11.0), doubleStats(1, 10, std::nullopt, 5), 5), UnitDecision::kNone);
  // A NaN bound (a NaN first value) is ignored.
  EXPECT_EQ(decide(P::lt("x", 0.5), doubleStats(NAN, 10, std::nullopt, 5), 5), UnitDecision::kSome);
  // -0.0 hides behind a +0.0 minimum.
  EXPECT_EQ(decide(P::lt("x", 0.0), doubleStats(0.0, 10, 20.0, 5), 5), UnitDecision::kSome);
  EXPECT_EQ(decide(P::lt("x", -0.0), doubleStats(0.0, 10, 20.0, 5), 5), UnitDecision::kNone);
  // Every row matches only without nulls and without NaN.
  EXPECT_EQ(decide(P::lt("x", 11.0), doubleStats(1, 10, 20.0, 5), 5), UnitDecision::kAll);
  EXPECT_EQ(decide(P::lt("x", 11.0), doubleStats(1, 10, 20.0, 4), 5), UnitDecision::kSome);
  EXPECT_EQ(decide(P::lt("x", 11.0), doubleStats(1, 10, std::nullopt, 5), 5), UnitDecision::kSome);
}

TEST(OrcFilterPruningTest, NullCountsDecideNullTestsAndNot) {
  OrcColumnStatistics allNull;
  allNull.valueCount = 0;
  EXPECT_EQ(decide(P::isNull("x"), allNull, 5), UnitDecision::kAll);
  EXPECT_EQ(decide(P::isNotNull("x"), allNull, 5), UnitDecision::kNone);
  // "A comparison never matches a null row, and not over one of these does not either."
  EXPECT_EQ(decide(P::eq("x", 1.0), allNull, 5), UnitDecision::kNone);
  EXPECT_EQ(decide(P::not_(P::eq("x", 1.0)), allNull, 5), UnitDecision::kNone);
  EXPECT_EQ(decide(P::or_(P::isNull("x"), P::eq("x", 1.0)), allNull, 5), UnitDecision::kAll);
  OrcColumnStatistics unknown;  // no counts at all
  EXPECT_EQ(decide(P::isNull("x"), unknown, 5), UnitDecision::kSome);
  EXPECT_EQ(decide(P::not_(P::eq("x", 1.0)), doubleStats(1, 1, 1.0, 5), 5), UnitDecision::kNone);
}

// ORC-203: a truncated string's lowerBound / upperBound bound the values without
// being values, so they never prove that every row equals a literal.
TEST(OrcFilterPruningTest, TruncatedStringBoundsPruneButNeverMatchWhole) {
  OrcColumnStatistics exact;
  exact.valueCount = 3;
  exact.stringMinimum = "abc";
  exact.stringMaximum = "abc";
  EXPECT_EQ(decide(P::eq("s", "abc"), exact, 3), UnitDecision::kAll);
  OrcColumnStatistics bound = exact;
  bound.stringMinimumIsBound = true;
  bound.stringMaximumIsBound = true;
  EXPECT_EQ(decide(P::eq("s", "abc"), bound, 3), UnitDecision::kSome);
  EXPECT_EQ(decide(P::gt("s", "abd"), bound, 3), UnitDecision::kNone);
  EXPECT_EQ(decide(P::lt("s", "abd"), bound, 3), UnitDecision::kAll);
}

// Timestamp bounds are milliseconds: widened by one so a sub-millisecond value is
// never ruled out.
TEST(OrcFilterPruningTest, TimestampBoundsAreWidenedByAMillisecond) {
  OrcColumnStatistics s;
  s.valueCount = 2;
  s.timestampMinimum = Instant{100, 0};
  s.timestampMaximum = Instant{200, 0};
  EXPECT_EQ(decide(P::gt("ts", Instant{200, 500}), s, 2), UnitDecision::kSome);
  EXPECT_EQ(decide(P::gt("ts", Instant{200, 1'000'000}), s, 2), UnitDecision::kNone);
  EXPECT_EQ(decide(P::lt("ts", Instant{99, 999'000'000}), s, 2), UnitDecision::kNone);
  EXPECT_EQ(decide(P::lt("ts", Instant{99, 999'500'000}), s, 2), UnitDecision::kSome);
}

/// Decides `p` over a one-column schema struct<x:KIND> whose statistics are `s`.
UnitDecision decideOn(proto::Type::Kind kind, const P& p, const OrcColumnStatistics& s,
                      uint64_t rows, PruningContext context = {}, uint32_t precision = 0,
                      uint32_t scale = 0, uint32_t maximumLength = 0) {
  proto::Footer footer;
  auto* root = footer.add_types();
  root->set_kind(proto::Type::STRUCT);
  root->add_subtypes(1);
  root->add_fieldnames("x");
  auto* x = footer.add_types();
  x->set_kind(kind);
  if (precision > 0) x->set_precision(precision);
  if (scale > 0) x->set_scale(scale);
  if (maximumLength > 0) x->set_maximumlength(maximumLength);
  const OrcSchema schema = OrcSchema::build(footer, "one-column.orc");
  const std::vector<const OrcColumnStatistics*> stats = {nullptr, &s};
  return decideUnit(OrcBoundPredicate::bind(p, schema), stats, rows, context);
}

// Decimal bounds are the writer's text, read at the column's scale; one carrying
// more digits than the scale cannot be placed exactly and is ignored.
TEST(OrcFilterPruningTest, DecimalBoundsAreReadAtTheColumnScale) {
  OrcColumnStatistics s;
  s.valueCount = 4;
  s.decimalMinimum = "1.5";
  s.decimalMaximum = "2.25";
  const auto on = [&](const P& p) { return decideOn(proto::Type::DECIMAL, p, s, 4, {}, 9, 2); };
  EXPECT_EQ(on(P::eq("x", decimal(300, 2))), UnitDecision::kNone);
  EXPECT_EQ(on(P::lt("x", decimal(150, 2))), UnitDecision::kNone);
  EXPECT_EQ(on(P::ltEq("x", decimal(15, 1))), UnitDecision::kSome);
  EXPECT_EQ(on(P::lt("x", decimal(226, 2))), UnitDecision::kAll);
  s.decimalMaximum = "2.255";
  EXPECT_EQ(on(P::gt("x", decimal(300, 2))), UnitDecision::kSome);
}

// Files before HIVE-8732 recorded wrong string bounds; char(n) bounds may or may
// not include the padding: both are ignored.
TEST(OrcFilterPruningTest, StringBoundsOfOldWritersAndOfCharColumnsAreIgnored) {
  OrcColumnStatistics s;
  s.valueCount = 3;
  s.stringMinimum = "abc";
  s.stringMaximum = "abd";
  EXPECT_EQ(decideOn(proto::Type::STRING, P::eq("x", "zzz"), s, 3), UnitDecision::kNone);
  PruningContext old;
  old.stringBoundsUsable = false;
  EXPECT_EQ(decideOn(proto::Type::STRING, P::eq("x", "zzz"), s, 3, old), UnitDecision::kSome);
  EXPECT_EQ(decideOn(proto::Type::CHAR, P::eq("x", "zzz"), s, 3, {}, 0, 0, 3), UnitDecision::kSome);
}

// A timestamp (wall clock) column's bounds may be recorded on the wall clock or in
// UTC depending on the writer: they are widened by a day (and a millisecond).
TEST(OrcFilterPruningTest, WallClockTimestampBoundsAreWidenedByADay) {
  OrcColumnStatistics s;
  s.valueCount = 2;
  s.timestampMinimum = Instant{1'000'000, 0};
  s.timestampMaximum = Instant{2'000'000, 0};
  const auto on = [&](const P& p) { return decideOn(proto::Type::TIMESTAMP, p, s, 2); };
  EXPECT_EQ(on(P::lt("x", LocalDateTime{1'000'000 - 86'000, 0})), UnitDecision::kSome);
  EXPECT_EQ(on(P::lt("x", LocalDateTime{1'000'000 - 86'401, 0})), UnitDecision::kNone);
  EXPECT_EQ(on(P::gt("x", LocalDateTime{2'000'000 + 86'401, 0})), UnitDecision::kNone);
  EXPECT_EQ(on(P::lt("x", LocalDateTime{2'000'000 + 86'401, 0})), UnitDecision::kAll);
}

// --- Every example file: pruning on selects what pruning off selects ---------------

PredicateLiteral literalOf(const ColumnVector& c, uint64_t i) {
  switch (c.type->kind) {
    case TypeKind::kBoolean:
      return c.longs[i] != 0;
    case TypeKind::kByte:
    case TypeKind::kShort:
    case TypeKind::kInt:
      return static_cast<int32_t>(c.longs[i]);
    case TypeKind::kLong:
      return c.longs[i];
    case TypeKind::kFloat:
      return static_cast<float>(c.doubles[i]);
    case TypeKind::kDouble:
      return c.doubles[i];
    case TypeKind::kString:
    case TypeKind::kVarchar:
    case TypeKind::kChar:
      return std::string(c.bytes.substr(c.offsets[i], c.offsets[i + 1] - c.offsets[i]));
    case TypeKind::kBinary:
      return Bytes(c.bytes.begin() + static_cast<std::ptrdiff_t>(c.offsets[i]),
                   c.bytes.begin() + static_cast<std::ptrdiff_t>(c.offsets[i + 1]));
    case TypeKind::kDate:
      return Date{static_cast<int32_t>(c.longs[i])};
    case TypeKind::kTimestamp:
      return LocalDateTime{c.wallClockSeconds(i), c.nanos[i]};
    case TypeKind::kTimestampInstant:
      return Instant{c.longs[i], c.nanos[i]};
    case TypeKind::kDecimal: {
      const Int128 v = c.wideDecimals.empty() ? Int128{c.longs[i]} : c.wideDecimals[i];
      Decimal d;
      d.scale = static_cast<int32_t>(c.type->scale);
      for (int b = 15; b >= 0; --b)
        d.unscaledBigEndian.push_back(static_cast<uint8_t>(static_cast<UInt128>(v) >> (8 * b)));
      return d;
    }
    default:
      return false;
  }
}

/// Predicates over the columns reachable through structs, each with the column it
/// reads, with literals taken from values of the first stripe.
std::vector<std::pair<P, std::string>> predicatesFor(OrcFileReader& reader) {
  std::vector<std::pair<P, std::string>> out;
  if (reader.stripeCount() == 0) return out;
  const auto stripe = reader.readStripe(0, reader.projectAll());
  std::vector<std::pair<const ColumnVector*, std::string>> pending = {{stripe.get(), ""}};
  while (!pending.empty()) {
    const ColumnVector* column = pending.back().first;
    const std::string path = pending.back().second;
    pending.pop_back();
    const OrcType& type = *column->type;
    if (type.kind == TypeKind::kStruct) {
      for (size_t c = 0; c < column->children.size(); ++c) {
        if (column->children[c])
          pending.push_back({column->children[c].get(), type.children[c]->path});
      }
      if (!path.empty()) out.push_back({P::isNull(path), path});
      continue;
    }
    if (path.empty()) continue;  // a root that is not a struct: no column name reaches it
    if (type.isCompound()) {
      out.push_back({P::isNotNull(path), path});
      continue;
    }
    if (type.kind == TypeKind::kDecimal && type.precision == 0) continue;
    out.push_back({P::isNull(path), path});
    if (column->valueCount == 0) continue;
    for (const uint64_t i : {uint64_t{0}, column->valueCount / 2}) {
      const PredicateLiteral v = literalOf(*column, i);
      const auto build = [&](auto literal) {
        out.push_back({P::eq(path, literal), path});
        out.push_back({P::not_(P::eq(path, literal)), path});
        out.push_back({P::lt(path, literal), path});
        out.push_back({P::gtEq(path, literal), path});
        out.push_back({P::or_(P::gt(path, literal), P::isNull(path)), path});
      };
      std::visit(build, v);
    }
  }
  return out;
}

TEST(OrcFilterExamplesTest, EveryExampleFileFiltersTheSameWithAndWithoutPruning) {
  QUARRY_SKIP_WITHOUT_ORC_EXAMPLES();
  int files = 0;
  int64_t stripesPruned = 0, stridesSkipped = 0, predicates = 0;
  for (const auto& entry : fs::directory_iterator(examplesDir() / "expected")) {
    const std::string stem =
        entry.path().filename().string().substr(0, entry.path().filename().string().find(".jsn"));
    SCOPED_TRACE(stem);
    auto reader = example(stem + ".orc");
    ++files;
    for (const auto& [p, path] : predicatesFor(*reader)) {
      SCOPED_TRACE(p.toString());
      OrcScanMetrics on, off;
      std::string pruned, unpruned;
      try {
        pruned = filteredJson(*reader, p, true, &on, reader->project({path}));
        unpruned = filteredJson(*reader, p, false, &off, reader->project({path}));
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
        continue;
      }
      ++predicates;
      ASSERT_EQ(pruned, unpruned);
      EXPECT_EQ(on.rowsReturned, off.rowsReturned);
      stripesPruned += on.stripesPrunedByStatistics;
      stridesSkipped += on.stridesSkipped;
    }
  }
  std::printf(
      "[          ] %d files, %lld predicates: %lld stripes pruned, %lld row groups skipped\n",
      files, static_cast<long long>(predicates), static_cast<long long>(stripesPruned),
      static_cast<long long>(stridesSkipped));
  EXPECT_GT(files, 20);
  EXPECT_GT(stridesSkipped, 0);
}

}  // namespace
}  // namespace quarry::orc

namespace quarry::orc {
namespace {

// --- Bloom filters ----------------------------------------------------------------

/// Every value of `column` in the file, read back as an equality literal, must pass
/// the Bloom filters (a false negative would drop matching rows).
void expectNoFalseNegatives(OrcFileReader& reader, const std::string& column) {
  const auto stripe = reader.readStripe(0, reader.project({column}));
  const OrcType* type = reader.schema().find(column);
  ASSERT_NE(type, nullptr);
  const ColumnVector* c = nullptr;
  for (const auto& child : stripe->children) {
    if (child && child->type == type) c = child.get();
  }
  ASSERT_NE(c, nullptr);
  for (uint64_t i = 0; i < c->valueCount; i += 7) {
    const PredicateLiteral v = literalOf(*c, i);
    const P p = std::visit([&](auto literal) { return P::eq(column, literal); }, v);
    OrcScanMetrics metrics;
    const std::string rows = filteredJson(reader, p, true, &metrics, reader.project({column}));
    ASSERT_GT(lineCount(rows), 0u) << p.toString();
    ASSERT_EQ(metrics.stripesPrunedByBloomFilter + metrics.stridesPrunedByBloomFilter, 0)
        << p.toString();
  }
}

// over1k_bloom.orc: an early Hive wrote its BLOOM_FILTER streams in a layout
// before the specification's (expected entries, fpp, varint words): read as the
// specification's, they claim 10,000 hash functions, are taken as unknown and
// prune nothing. Every value still reads back through an equality filter.
TEST(OrcFilterBloomTest, FiltersInAnEarlyLayoutAreNotTrusted) {
  QUARRY_SKIP_WITHOUT_ORC_EXAMPLES();
  auto reader = example("over1k_bloom.orc");
  for (const char* column : {"_col0", "_col1", "_col2", "_col3", "_col4", "_col5", "_col7"}) {
    SCOPED_TRACE(column);
    expectNoFalseNegatives(*reader, column);
  }
  OrcScanMetrics metrics;
  filteredJson(*reader, P::eq("_col2", 12345), true, &metrics);
  EXPECT_EQ(metrics.stripesPrunedByBloomFilter + metrics.stridesPrunedByBloomFilter, 0);
}

/// The Bloom filters of column `column` of stripe 0 of example `name`, and its values.
std::pair<std::vector<OrcBloomFilter>, std::unique_ptr<ColumnVector>> bloomAndValues(
    const std::string& name, uint32_t column) {
  auto reader = example(name);
  std::vector<bool> columns(reader->schema().columnCount(), true);
  const StripeData data =
      readStripe(reader->file(), reader->tail(), reader->schema(), 0, columns, true);
  bool found = false;
  const auto stream = data.streams.find(column, proto::Stream::BLOOM_FILTER_UTF8, found);
  EXPECT_TRUE(found);
  auto values = decodeColumn(reader->schema().root(), data.footer.rowCount, data.footer,
                             data.streams, columns, name);
  return {OrcBloomFilter::decodeIndex(stream, name), std::move(values)};
}

// The C++ writer of bad_bloom_filter_1.6.11.orc hashed strings as the
// specification does: every name passes its filter (and no absent one of a
// thousand does), which checks Murmur3 hash64 and the bit selection.
TEST(OrcFilterBloomTest, Murmur3HashesFindTheWrittenStrings) {
  QUARRY_SKIP_WITHOUT_ORC_EXAMPLES();
  auto [filters, root] = bloomAndValues("bad_bloom_filter_1.6.11.orc", 2);
  ASSERT_EQ(filters.size(), 1u);
  const ColumnVector& names = *root->children[1];
  ASSERT_EQ(names.valueCount, 5u);
  for (uint64_t i = 0; i < names.valueCount; ++i) {
    const std::string_view name =
        std::string_view(names.bytes)
            .substr(names.offsets[i], names.offsets[i + 1] - names.offsets[i]);
    EXPECT_TRUE(filters[0].mightContain(OrcBloomFilter::bytesHash(name))) << name;
  }
  int falsePositives = 0;
  for (int i = 0; i < 1000; ++i)
    falsePositives +=
        filters[0].mightContain(OrcBloomFilter::bytesHash("absent-" + std::to_string(i)));
  EXPECT_LT(falsePositives, 10);
}

// The same file's integer filter was hashed with logical right shifts (the bug
// that makes quarry ignore such writers): values whose hash never shifts a set
// sign bit (1, 2, 3) agree, 0 and 18,000,000,000 do not.
TEST(OrcFilterBloomTest, IntegerHashUsesArithmeticShifts) {
  QUARRY_SKIP_WITHOUT_ORC_EXAMPLES();
  auto [filters, root] = bloomAndValues("bad_bloom_filter_1.6.11.orc", 1);
  ASSERT_EQ(filters.size(), 1u);
  for (const int64_t v : {1, 2, 3})
    EXPECT_TRUE(filters[0].mightContain(OrcBloomFilter::longHash(v))) << v;
  EXPECT_FALSE(filters[0].mightContain(OrcBloomFilter::longHash(0)));
  EXPECT_EQ(OrcBloomFilter::longHash(0), 0u);  // ~0 + 0 = -1, then -1 ^ (-1 >> 24) = 0, ...
}

class FixedProbe : public MembershipProbe {
 public:
  bool provesAbsent(const OrcBoundNode&) const override { return true; }
};

// "A Bloom filter ... answers membership, and sharpens eq and in"; lt, ltEq, gt,
// gtEq are left to statistics alone. notEq becomes true on every non-null row.
TEST(OrcFilterBloomTest, MembershipSharpensEqInAndNotEqOnly) {
  proto::Footer footer;
  auto* root = footer.add_types();
  root->set_kind(proto::Type::STRUCT);
  root->add_subtypes(1);
  root->add_fieldnames("x");
  footer.add_types()->set_kind(proto::Type::LONG);
  const OrcSchema schema = OrcSchema::build(footer, "probe.orc");
  OrcColumnStatistics x;
  x.valueCount = 10;
  x.intMinimum = 0;
  x.intMaximum = 100;
  const std::vector<const OrcColumnStatistics*> stats = {nullptr, &x};
  const FixedProbe probe;
  const auto decideWith = [&](const P& p) {
    return decideUnit(OrcBoundPredicate::bind(p, schema), stats, 10, PruningContext{}, &probe);
  };
  EXPECT_EQ(decideWith(P::eq("x", int64_t{5})), UnitDecision::kNone);
  EXPECT_EQ(decideWith(P::in("x", int64_t{5}, int64_t{6})), UnitDecision::kNone);
  EXPECT_EQ(decideWith(P::notEq("x", int64_t{5})), UnitDecision::kAll);
  EXPECT_EQ(decideWith(P::not_(P::eq("x", int64_t{5}))), UnitDecision::kAll);
  EXPECT_EQ(decideWith(P::lt("x", int64_t{5})), UnitDecision::kSome);
}

// C++ writers 1.6.0 .. 1.6.11 hashed integers differently; their filters are not used.
TEST(OrcFilterBloomTest, FiltersOfCppWritersBefore1612AreIgnored) {
  QUARRY_SKIP_WITHOUT_ORC_EXAMPLES();
  for (const char* name : {"bad_bloom_filter_1.6.0.orc", "bad_bloom_filter_1.6.11.orc"}) {
    SCOPED_TRACE(name);
    auto reader = example(name);
    EXPECT_FALSE(bloomFiltersUsable(reader->tail())) << reader->tail().footer.softwareversion();
  }
}

TEST(OrcFilterBloomTest, FilterBitsFollowTheCombinedHashes) {
  // numHashFunctions 2, one 64-bit word; hash64 with h1 = 5 (low), h2 = 1 (high)
  // tests bits 5 + 1 * 1 = 6 and 5 + 2 * 1 = 7.
  proto::BloomFilterIndex index;
  auto* f = index.add_bloomfilter();
  f->set_numhashfunctions(2);
  f->add_bitset((uint64_t{1} << 6) | (uint64_t{1} << 7));
  std::string bytes;
  index.SerializeToString(&bytes);
  const auto filters = OrcBloomFilter::decodeIndex(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
      "test");
  ASSERT_EQ(filters.size(), 1u);
  EXPECT_TRUE(filters[0].mightContain((uint64_t{1} << 32) | 5));
  EXPECT_FALSE(filters[0].mightContain((uint64_t{1} << 32) | 6));  // bits 7 and 8
  EXPECT_FALSE(filters[0].mightContain((uint64_t{2} << 32) | 5));  // bits 7 and 9
}

}  // namespace
}  // namespace quarry::orc
