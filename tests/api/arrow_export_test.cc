#include "quarry/arrow.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "quarry/error.h"
#include "quarry/parquet.h"
#include "quarry/session.h"
#include "tests/support/build_paths.h"
#include "tests/support/testdata.h"

/// A consumer of the Arrow C Stream Interface written from the specification
/// (arrow.apache.org/docs/format/CDataInterface.html, CStreamInterface.html): it
/// walks every exported array (buffers, offsets, null counts, children) and
/// compares each value with what the engine gives for the same query through
/// Batch's getters, then releases everything as the specification says
/// (ASan's leak check sees anything not freed, or freed twice).
namespace quarry {
namespace {

std::string fixture(const std::string& name) {
  return std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/engine_source/" + name;
}

bool validAt(const ArrowArray& array, int64_t i) {
  const auto* bits = static_cast<const uint8_t*>(array.buffers[0]);
  const int64_t k = array.offset + i;
  return bits == nullptr || (bits[k / 8] >> (k % 8) & 1) != 0;
}

template <typename T>
T valueAt(const ArrowArray& array, int buffer, int64_t i) {
  T value;
  std::memcpy(&value,
              static_cast<const uint8_t*>(array.buffers[buffer]) + (array.offset + i) * sizeof(T),
              sizeof(T));
  return value;
}

std::string_view bytesAt(const ArrowArray& array, int64_t i) {
  const int64_t first = valueAt<int64_t>(array, 1, i), end = valueAt<int64_t>(array, 1, i + 1);
  return std::string_view(static_cast<const char*>(array.buffers[2]) + first,
                          static_cast<size_t>(end - first));
}

/// Checks the array of one column against the engine's batch of the same rows.
void expectColumn(const ArrowSchema& schema, const ArrowArray& array, const Batch& batch,
                  size_t column) {
  const std::string format = schema.format;
  SCOPED_TRACE(std::string(schema.name) + " " + format);
  ASSERT_EQ(array.length, static_cast<int64_t>(batch.rowCount()));
  EXPECT_EQ(array.offset, 0);
  EXPECT_EQ(schema.flags, ARROW_FLAG_NULLABLE);
  // Buffers per layout: validity and values; validity, offsets and bytes for
  // strings and binaries; validity and offsets for a list; none for null.
  const int64_t buffers = format == "n" ? 0 : format == "U" || format == "Z" ? 3 : 2;
  EXPECT_EQ(array.n_buffers, buffers);
  EXPECT_EQ(schema.dictionary != nullptr, array.dictionary != nullptr);
  if (schema.dictionary != nullptr) {
    EXPECT_EQ(format, "i") << "int32 indices";
    const std::string values = schema.dictionary->format;
    EXPECT_TRUE(values == "U" || values == "Z") << values;
    ASSERT_NE(array.dictionary, nullptr);
    EXPECT_EQ(array.dictionary->n_buffers, 3);
    EXPECT_EQ(array.dictionary->null_count, 0);
    EXPECT_EQ(array.dictionary->n_children, 0);
  }
  int64_t nulls = 0;
  for (int64_t row = 0; row < array.length; ++row) {
    const size_t r = static_cast<size_t>(row);
    const bool valid = validAt(array, row);
    EXPECT_EQ(!valid, batch.isNull(column, r)) << "row " << row;
    if (!valid) {
      ++nulls;
      continue;
    }
    if (schema.dictionary != nullptr) {
      // A dictionary-encoded column: int32 indices into the dictionary's values.
      const ArrowArray& values = *array.dictionary;
      const int32_t index = valueAt<int32_t>(array, 1, row);
      ASSERT_GE(index, 0);
      ASSERT_LT(index, values.length) << "row " << row;
      EXPECT_EQ(bytesAt(values, index), batch.getString(column, r)) << "row " << row;
    } else if (format == "b") {
      EXPECT_EQ((static_cast<const uint8_t*>(array.buffers[1])[row / 8] >> (row % 8) & 1) != 0,
                batch.getBoolean(column, r));
    } else if (format == "i" || format == "tdD") {
      EXPECT_EQ(valueAt<int32_t>(array, 1, row), batch.getInt64(column, r));
    } else if (format == "l" || format.starts_with("ts") || format == "ttu" || format == "ttn") {
      EXPECT_EQ(valueAt<int64_t>(array, 1, row), batch.getInt64(column, r));
    } else if (format == "ttm") {
      EXPECT_EQ(valueAt<int32_t>(array, 1, row), batch.getInt64(column, r));
    } else if (format == "L") {
      EXPECT_EQ(valueAt<uint64_t>(array, 1, row), batch.getUInt64(column, r));
    } else if (format == "g") {
      const double got = valueAt<double>(array, 1, row), want = batch.getDouble(column, r);
      EXPECT_EQ(std::memcmp(&got, &want, sizeof(double)), 0) << got << " " << want;
    } else if (format.starts_with("d:")) {
      EXPECT_TRUE(valueAt<__int128>(array, 1, row) == batch.getDecimal(column, r));
    } else if (format == "U" || format == "Z") {
      EXPECT_EQ(bytesAt(array, row), batch.getString(column, r));
    } else if (format == "w:16") {
      EXPECT_EQ(std::string_view(static_cast<const char*>(array.buffers[1]) + row * 16, 16),
                batch.getString(column, r));
    } else if (format == "+L") {
      // The elements (int32 in the fixture) rendered as the engine renders a list.
      const ArrowArray& elements = *array.children[0];
      std::string text = "[";
      for (int64_t e = valueAt<int64_t>(array, 1, row); e < valueAt<int64_t>(array, 1, row + 1);
           ++e) {
        if (text.size() > 1) text += ", ";
        text += validAt(elements, e) ? std::to_string(valueAt<int32_t>(elements, 1, e)) : "NULL";
      }
      EXPECT_EQ(text + "]", batch.text(column, r));
    } else {
      ADD_FAILURE() << "unexpected format " << format;
    }
  }
  EXPECT_EQ(array.null_count, nulls);
}

/// A column's format as the test names it: "i:U" for int32 indices into utf8 values.
std::string formatName(const ArrowSchema& schema) {
  return schema.dictionary == nullptr
             ? schema.format
             : std::string(schema.format) + ":" + schema.dictionary->format;
}

/// Reads the whole stream of `query`, checking every batch against a second run;
/// `dictionaryLengths` gets each batch's dictionary length of the column named
/// `dictionaryColumn`.
int64_t consume(const std::string& query, std::vector<std::string>* formats = nullptr,
                bool moveFirstChild = false, const std::string& dictionaryColumn = "",
                std::vector<int64_t>* dictionaryLengths = nullptr) {
  const Session session;
  ArrowArrayStream stream;
  exportArrowStream(session.execute(query), &stream);
  Result expected = session.execute(query);

  ArrowSchema schema;
  EXPECT_EQ(stream.get_schema(&stream, &schema), 0);
  EXPECT_STREQ(schema.format, "+s");
  EXPECT_EQ(schema.n_children, static_cast<int64_t>(expected.schema().size()));
  for (int64_t c = 0; c < schema.n_children; ++c) {
    EXPECT_EQ(schema.children[c]->name, expected.schema()[static_cast<size_t>(c)].name);
    if (formats != nullptr) formats->push_back(formatName(*schema.children[c]));
  }
  int64_t rows = 0;
  while (true) {
    ArrowArray array;
    EXPECT_EQ(stream.get_next(&stream, &array), 0) << stream.get_last_error(&stream);
    if (array.release == nullptr) break;  // the end of the stream
    const std::optional<Batch> batch = expected.next();
    EXPECT_TRUE(batch.has_value());
    if (!batch) {
      array.release(&array);
      break;
    }
    EXPECT_STREQ(schema.format, "+s");
    EXPECT_EQ(array.n_children, schema.n_children);
    for (int64_t c = 0; c < array.n_children; ++c) {
      expectColumn(*schema.children[c], *array.children[c], *batch, static_cast<size_t>(c));
      if (dictionaryLengths != nullptr && schema.children[c]->name == dictionaryColumn &&
          array.children[c]->dictionary != nullptr)
        dictionaryLengths->push_back(array.children[c]->dictionary->length);
    }
    rows += array.length;
    if (moveFirstChild && array.n_children > 0) {
      // The specification lets a consumer move a child out and release it on its own.
      ArrowArray moved = *array.children[0];
      array.children[0]->release = nullptr;
      array.release(&array);
      moved.release(&moved);
      EXPECT_EQ(moved.release, nullptr);
    } else {
      array.release(&array);
    }
    EXPECT_EQ(array.release, nullptr);
  }
  EXPECT_FALSE(expected.next().has_value());
  schema.release(&schema);
  EXPECT_EQ(schema.release, nullptr);
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
  return rows;
}

TEST(ArrowExport, EveryEngineTypeOfAllTypesMatchesTheEnginesValues) {
  std::vector<std::string> formats;
  const int64_t rows =
      consume("FROM \"" + fixture("all_types.parquet") +
                  "\" | KEEP id, b, i64, u64, f32, f64, d4, d18, d38, s, bin, dt, tm, ts, tstz, "
                  "tsms, tsns, u, l | SORT id",
              &formats);
  EXPECT_EQ(rows, 3);
  EXPECT_EQ(formats, (std::vector<std::string>{"i", "b", "l", "L", "g", "g", "d:4,1", "d:18,3",
                                               "d:38,10", "U", "Z", "tdD", "ttu", "tsu:", "tsu:UTC",
                                               "tsm:", "tsn:", "w:16", "+L"}));
}

TEST(ArrowExport, StreamsEveryBatchOfAManyRowGroupScan) {
  EXPECT_EQ(consume("FROM \"" + fixture("multi_row_groups.parquet") + "\""), 10000);
}

TEST(ArrowExport, AChildMovedOutIsReleasedOnceByItsConsumer) {
  EXPECT_EQ(consume("FROM \"" + fixture("all_types.parquet") + "\" | KEEP s, l, id", nullptr, true),
            3);
}

TEST(ArrowExport, AnEmptyResultIsASchemaAndTheEndOfTheStream) {
  EXPECT_EQ(consume("FROM \"" + fixture("all_types.parquet") + "\" | WHERE id > 100 | KEEP id, s"),
            0);
}

// The type mapping: "dictionary-encoded strings as dictionary arrays". The
// fixture's row groups hold mode and code dictionary-encoded throughout, tag
// dictionary-encoded in the first row group and plain after it, note the reverse.
TEST(ArrowExport, DictionaryEncodedStringsAreDictionaryArraysAsTheFirstBatchHasThem) {
  std::vector<std::string> formats;
  std::vector<int64_t> modeDictionaries;
  const int64_t rows = consume("FROM \"" + fixture("dictionary_strings.parquet") + "\"", &formats,
                               false, "mode", &modeDictionaries);
  EXPECT_EQ(rows, 6000);
  // tag's plain row groups are dictionaries of their own rows (indices 0, 1, 2, ...);
  // note's dictionary-encoded ones are given plain, as the schema declared.
  EXPECT_EQ(formats, (std::vector<std::string>{"i", "i:U", "i:Z", "i:U", "U"}));
  ASSERT_FALSE(modeDictionaries.empty());
  for (int64_t length : modeDictionaries)
    EXPECT_EQ(length, 7) << "the file's dictionary of 7 modes, not the batch's values";
}

TEST(ArrowExport, ADictionaryColumnSurvivesAFilterAndAMovedOutChild) {
  std::vector<std::string> formats;
  EXPECT_EQ(consume("FROM \"" + fixture("dictionary_strings.parquet") +
                        "\" | WHERE id % 5 == 1 | KEEP mode, id",
                    &formats, true),
            1200);
  EXPECT_EQ(formats, (std::vector<std::string>{"i:U", "i"}));
}

// ---- ColumnReaders' batches ("export query results and ColumnReaders batches as an
// ArrowArrayStream")

/// A value of a column the tests below read (integers, strings, binaries, lists
/// of integers; dictionary-encoded or not) as text: NULL for null.
std::string arrowText(const ArrowSchema& schema, const ArrowArray& array, int64_t row) {
  if (!validAt(array, row)) return "NULL";
  const std::string format = schema.format;
  if (schema.dictionary != nullptr)
    return std::string(bytesAt(*array.dictionary, valueAt<int32_t>(array, 1, row)));
  if (format == "i") return std::to_string(valueAt<int32_t>(array, 1, row));
  if (format == "l") return std::to_string(valueAt<int64_t>(array, 1, row));
  if (format == "U" || format == "Z") return std::string(bytesAt(array, row));
  if (format == "+L") {
    std::string text = "[";
    const ArrowArray& elements = *array.children[0];
    for (int64_t e = valueAt<int64_t>(array, 1, row); e < valueAt<int64_t>(array, 1, row + 1);
         ++e) {
      if (text.size() > 1) text += ", ";
      text += arrowText(*schema.children[0], elements, e);
    }
    return text + "]";
  }
  ADD_FAILURE() << "unexpected format " << format;
  return "";
}

/// The same for the engine's batch: what Batch's getters give.
std::string batchText(const Batch& batch, size_t column, size_t row) {
  if (batch.isNull(column, row)) return "NULL";
  switch (batch.schema()[column].type.kind) {
    case TypeKind::kInt32:
    case TypeKind::kInt64:
      return std::to_string(batch.getInt64(column, row));
    case TypeKind::kString:
    case TypeKind::kBinary:
      return std::string(batch.getString(column, row));
    default:
      return batch.text(column, row);
  }
}

struct StreamRows {
  std::vector<std::string> names, formats;
  std::vector<std::string> rows;  // columns joined by '|'
  int64_t batches = 0;
};

/// Reads `stream` to its end and releases it, checking every array as expectColumn
/// does where a batch is at hand.
StreamRows readStream(ArrowArrayStream& stream) {
  StreamRows out;
  ArrowSchema schema;
  EXPECT_EQ(stream.get_schema(&stream, &schema), 0) << stream.get_last_error(&stream);
  for (int64_t c = 0; c < schema.n_children; ++c) {
    out.names.push_back(schema.children[c]->name);
    out.formats.push_back(formatName(*schema.children[c]));
  }
  while (true) {
    ArrowArray array;
    const int code = stream.get_next(&stream, &array);
    EXPECT_EQ(code, 0) << stream.get_last_error(&stream);
    if (code != 0 || array.release == nullptr) break;
    ++out.batches;
    for (int64_t row = 0; row < array.length; ++row) {
      std::string text;
      for (int64_t c = 0; c < array.n_children; ++c)
        text += (c > 0 ? "|" : "") + arrowText(*schema.children[c], *array.children[c], row);
      out.rows.push_back(text);
    }
    array.release(&array);
  }
  schema.release(&schema);
  stream.release(&stream);
  return out;
}

/// The rows of `query` as Batch's getters give them, columns joined by '|'.
std::vector<std::string> queryRows(const std::string& query) {
  const Session session;
  Result result = session.execute(query);
  std::vector<std::string> rows;
  while (std::optional<Batch> batch = result.next()) {
    for (size_t r = 0; r < batch->rowCount(); ++r) {
      std::string text;
      for (size_t c = 0; c < batch->columnCount(); ++c)
        text += (c > 0 ? "|" : "") + batchText(*batch, c, r);
      rows.push_back(text);
    }
  }
  return rows;
}

ArrowArrayStream columnReadersStream(const std::string& path, bool dictionaryIds,
                                     const parquet::ColumnProjection& projection,
                                     const std::optional<parquet::FilterPredicate>& filter = {},
                                     bool selectionVector = false) {
  parquet::ReaderOptions options;
  options.dictionaryIds = dictionaryIds;
  options.selectionVector = selectionVector;
  auto file = parquet::ParquetFileReader::open(path, options);
  auto readers =
      filter ? file->columnReaders(projection, *filter) : file->columnReaders(projection);
  ArrowArrayStream stream;
  exportArrowStream(std::move(file), std::move(readers), &stream);
  return stream;
}

TEST(ArrowExportColumnReaders, BatchesAreTheRowGroupsConvertedAsAQueryConvertsThem) {
  const std::string path = fixture("dictionary_strings.parquet");
  ArrowArrayStream stream = columnReadersStream(path, true, parquet::ColumnProjection::all());
  const StreamRows got = readStream(stream);
  EXPECT_EQ(got.names, (std::vector<std::string>{"id", "mode", "code", "tag", "note"}));
  // With ReaderOptions::dictionaryIds the dictionary-encoded chunks are dictionary arrays.
  EXPECT_EQ(got.formats, (std::vector<std::string>{"i", "i:U", "i:Z", "i:U", "U"}));
  EXPECT_EQ(got.batches, 3) << "one per row group";
  EXPECT_EQ(got.rows, queryRows("FROM \"" + path + "\" | SORT id"));
}

TEST(ArrowExportColumnReaders, WithoutDictionaryIdsEveryStringIsPlain) {
  const std::string path = fixture("dictionary_strings.parquet");
  ArrowArrayStream stream =
      columnReadersStream(path, false, parquet::ColumnProjection::columns({"note", "mode"}));
  const StreamRows got = readStream(stream);
  EXPECT_EQ(got.formats, (std::vector<std::string>{"U", "U"}));
  EXPECT_EQ(got.rows, queryRows("FROM \"" + path + "\" | SORT id | KEEP note, mode"));
}

TEST(ArrowExportColumnReaders, AFilterKeepsItsRowsWithOrWithoutASelectionVector) {
  const std::string path = fixture("dictionary_strings.parquet");
  const auto filter = parquet::FilterPredicate::or_(parquet::FilterPredicate::lt("id", 100),
                                                    parquet::FilterPredicate::eq("mode", "AIR"));
  const auto want = queryRows(
      "FROM \"" + path + "\" | WHERE id < 100 OR mode == \"AIR\" | SORT id | KEEP id, mode, tag");
  ASSERT_GT(want.size(), 100u);
  for (bool selectionVector : {false, true}) {
    SCOPED_TRACE(selectionVector ? "selection vector" : "rows copied out");
    ArrowArrayStream stream =
        columnReadersStream(path, true, parquet::ColumnProjection::columns({"id", "mode", "tag"}),
                            filter, selectionVector);
    EXPECT_EQ(readStream(stream).rows, want);
  }
}

TEST(ArrowExportColumnReaders, AListColumnIsAListNamedByTheList) {
  const std::string path = fixture("lists.parquet");
  ArrowArrayStream stream =
      columnReadersStream(path, true, parquet::ColumnProjection::columns({"id", "li"}));
  const StreamRows got = readStream(stream);
  EXPECT_EQ(got.names, (std::vector<std::string>{"id", "li"}));
  EXPECT_EQ(got.formats, (std::vector<std::string>{"i", "+L"}));
  EXPECT_EQ(got.rows, queryRows("FROM \"" + path + "\" | SORT id | KEEP id, li"));
}

TEST(ArrowExportColumnReaders, AColumnTheEngineDoesNotReadIsRefusedNamingIt) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  // A repeated group without a LIST annotation: its leaves are not a list's element.
  const std::string path =
      (testing::parquetTestingDir() / "data" / "repeated_no_annotation.parquet").string();
  auto file = parquet::ParquetFileReader::open(path);
  auto readers = file->columnReaders();
  ArrowArrayStream stream;
  try {
    exportArrowStream(std::move(file), std::move(readers), &stream);
    ADD_FAILURE() << "a repeated leaf outside a list was exported";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("repeated_no_annotation.parquet: column phoneNumbers"),
              std::string::npos)
        << e.what();
  }
}

TEST(ArrowExport, AFailureIsAnErrorCodeWithItsMessage) {
  const Session session;
  Result result = session.execute("FROM \"" + fixture("multi_row_groups.parquet") + "\"");
  result.cancel();
  ArrowArrayStream stream;
  exportArrowStream(std::move(result), &stream);
  // The schema is the result's even when its first batch (which says which
  // columns are dictionary-encoded) fails; the failure comes with get_next.
  ArrowSchema schema;
  ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
  EXPECT_EQ(schema.n_children, 3);
  schema.release(&schema);
  ArrowArray array;
  EXPECT_EQ(stream.get_next(&stream, &array), EIO);
  EXPECT_STREQ(stream.get_last_error(&stream), "the query was cancelled");
  stream.release(&stream);
}

}  // namespace
}  // namespace quarry
