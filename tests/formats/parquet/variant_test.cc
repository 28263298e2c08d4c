// Variant reading against parquet-testing: the unshredded examples in variant/
// (metadata and value files) and every shredded case in shredded_variant/,
// whose rows must reassemble to the bytes of their .variant.bin files
// ("metadata followed by value", shredded_variant/README.md).
#include "quarry/formats/parquet/variant.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <regex>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "quarry/formats/parquet/variant_encoding.h"
#include "tests/support/testdata.h"

namespace quarry::parquet {
namespace {

using quarry::testing::filesUnder;
using quarry::testing::parquetTestingDir;
using quarry::testing::readFileBytes;

std::filesystem::path variantDir() { return parquetTestingDir() / "variant"; }
std::filesystem::path shreddedDir() { return parquetTestingDir() / "shredded_variant"; }

#define SKIP_WITHOUT(dir)                                                                   \
  do {                                                                                      \
    QUARRY_SKIP_WITHOUT_TESTDATA();                                                         \
    if (!std::filesystem::is_directory(dir)) {                                              \
      GTEST_SKIP() << "SKIPPED LOUDLY: " << (dir) << " is absent from this parquet-testing"; \
    }                                                                                       \
  } while (0)

Variant example(const std::string& name) {
  return Variant{readFileBytes(variantDir() / (name + ".metadata")),
                 readFileBytes(variantDir() / (name + ".value"))};
}

/// Returns the example `name`, read once and kept for the views that point into it.
const Variant& cachedExample(const std::string& name) {
  static std::map<std::string, Variant> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, example(name)).first;
  return it->second;
}

VariantValue parseExample(const std::string& name) {
  const Variant& v = cachedExample(name);
  return VariantValue::parse(VariantMetadata::parse(v.metadata), v.value);
}

TEST(VariantTestdataTest, EveryUnshreddedExampleValidates) {
  SKIP_WITHOUT(variantDir());
  size_t examples = 0;
  for (const auto& path : filesUnder(variantDir(), ".metadata")) {
    const std::string name = path.stem().string();
    SCOPED_TRACE(name);
    EXPECT_NO_THROW(example(name).validate());
    ++examples;
  }
  std::cout << "[ variant  ] " << examples << " unshredded examples validated\n";
  EXPECT_GE(examples, 29u);
}

TEST(VariantTestdataTest, UnshreddedPrimitivesReadAsTheirDataDictionarySays) {
  SKIP_WITHOUT(variantDir());
  using P = VariantPrimitiveType;
  const auto check = [](const std::string& name, P type) {
    const VariantValue value = parseExample(name);
    EXPECT_EQ(value.primitiveType(), type) << name;
    return value;
  };
  check("primitive_null", P::kNull);
  check("primitive_boolean_true", P::kTrue);
  check("primitive_boolean_false", P::kFalse);
  EXPECT_EQ(check("primitive_int8", P::kInt8).getLong(), 42);
  EXPECT_EQ(check("primitive_int16", P::kInt16).getLong(), 1234);
  EXPECT_EQ(check("primitive_int32", P::kInt32).getLong(), 123456);
  EXPECT_EQ(check("primitive_int64", P::kInt64).getLong(), 1234567890123456789);
  EXPECT_EQ(check("primitive_double", P::kDouble).getDouble(), 1234567890.1234);
  EXPECT_EQ(check("primitive_float", P::kFloat).getFloat(), 1234567940.0f);
  EXPECT_EQ(check("primitive_decimal4", P::kDecimal4).getDecimal().toString(), "12.34");
  EXPECT_EQ(check("primitive_decimal8", P::kDecimal8).getDecimal().toString(), "12345678.90");
  EXPECT_EQ(check("primitive_decimal16", P::kDecimal16).getDecimal().toString(),
            "12345678912345678.90");
  EXPECT_EQ(Date{static_cast<int32_t>(check("primitive_date", P::kDate).getLong())}.toString(),
            "2025-04-16");
  EXPECT_EQ(check("primitive_uuid", P::kUuid).getUuid().toString(),
            "f24f9b64-81fa-49d1-b74e-8c09a6e31c56");
  EXPECT_EQ(check("short_string", P::kString).basicType(), VariantBasicType::kShortString);
  EXPECT_EQ(check("short_string", P::kString).getString(), "Less than 64 bytes (\u2764\ufe0f with utf8)");
  EXPECT_EQ(check("primitive_string", P::kString).basicType(), VariantBasicType::kPrimitive);
  EXPECT_EQ(check("primitive_binary", P::kBinary).getString(),
            std::string("\x03\x13\x37\xde\xad\xbe\xef\xca\xfe", 9));
  check("primitive_timestamp", P::kTimestampMicros);
  check("primitive_timestampntz", P::kTimestampNtzMicros);
  check("primitive_timestamp_nanos", P::kTimestampNanos);
  check("primitive_timestampntz_nanos", P::kTimestampNtzNanos);
  check("primitive_time", P::kTimeNtzMicros);
}

TEST(VariantTestdataTest, UnshreddedObjectsAndArraysWalkTheirElements) {
  SKIP_WITHOUT(variantDir());
  const VariantValue o = parseExample("object_primitive");
  ASSERT_EQ(o.basicType(), VariantBasicType::kObject);
  std::vector<std::string> names;
  for (uint32_t i = 0; i < o.elementCount(); ++i) names.emplace_back(o.fieldName(i));
  EXPECT_EQ(names, (std::vector<std::string>{"boolean_false_field", "boolean_true_field",
                                             "double_field", "int_field", "null_field",
                                             "string_field", "timestamp_field"}));
  EXPECT_EQ(o.element(5).getString(), "Apache Parquet");

  const VariantValue a = parseExample("array_primitive");
  ASSERT_EQ(a.basicType(), VariantBasicType::kArray);
  std::vector<int64_t> elements;
  for (uint32_t i = 0; i < a.elementCount(); ++i) elements.push_back(a.element(i).getLong());
  EXPECT_EQ(elements, (std::vector<int64_t>{2, 1, 5, 9}));

  const VariantValue n = parseExample("array_nested");
  ASSERT_EQ(n.elementCount(), 3u);
  EXPECT_EQ(n.element(1).primitiveType(), VariantPrimitiveType::kNull);
  EXPECT_EQ(n.element(2).fieldName(1), "names");
  EXPECT_EQ(n.element(2).element(1).elementCount(), 3u);

  EXPECT_EQ(parseExample("object_empty").elementCount(), 0u);
  EXPECT_EQ(parseExample("array_empty").elementCount(), 0u);
}

// The cases of shredded_variant/cases.json with an "error_message" and no
// variant file: each must fail to read.
const std::map<int, std::string> kErrorCases = {
    {40, "Invalid variant, conflicting value and typed_value (array element)"},
    {42, "Invalid variant, conflicting value and typed_value"},
    {87, "Invalid variant, non-object value with shredded fields"},
    {127, "Unsupported shredded value type: INTEGER(32,false)"},
    {128, "Invalid variant, non-object value with shredded fields"},
    {137, "Unsupported shredded value type: optional fixed_len_byte_array(4) typed_value"},
};

// The "-INVALID" cases come with a variant file, and cases.json notes that
// "implementations can choose to error, or read the shredded value". quarry
// errors where the spec's reconstruction algorithm asserts ("object keys must be
// disjoint"), and reads the case that only marks its field groups optional.
const std::map<int, std::string> kInvalidCasesRefused = {
    {43, "value holds field 'b', which is also a shredded field (missing in this row); the "
         "reference drops it, the spec's reconstruction requires disjoint keys"},
    {125, "value holds field 'b', which is also a shredded field; the reference keeps the "
          "shredded one, the spec's reconstruction requires disjoint keys"},
};

struct CaseFile {
  int number;
  std::filesystem::path parquet;
  std::string stem;  // e.g. "case-043-INVALID"
};

std::vector<CaseFile> shreddedCases() {
  std::vector<CaseFile> cases;
  const std::regex pattern(R"(case-(\d+)(-INVALID)?)");
  for (const auto& path : filesUnder(shreddedDir(), ".parquet")) {
    std::smatch m;
    const std::string stem = path.stem().string();
    if (std::regex_match(stem, m, pattern)) cases.push_back({std::stoi(m[1]), path, stem});
  }
  return cases;
}

TEST(VariantTestdataTest, EveryShreddedCaseReassemblesToItsVariantFileOrFails) {
  SKIP_WITHOUT(shreddedDir());
  size_t passed = 0;
  size_t rowsCompared = 0;
  std::vector<std::string> failures;
  const std::vector<CaseFile> cases = shreddedCases();
  for (const CaseFile& c : cases) {
    const bool expectError = kErrorCases.count(c.number) + kInvalidCasesRefused.count(c.number) > 0;
    const std::string prefix = c.stem + ": ";
    try {
      auto file = ParquetFileReader::open(c.parquet.string());
      auto rows = file->rowReader();
      bool caseOk = true;
      size_t binFiles = 0;
      while (rows->next()) {
        const auto bin = shreddedDir() / (c.stem + "_row-" + std::to_string(rows->rowIndex()) +
                                          ".variant.bin");
        const FieldValue var = rows->field("var");
        if (!std::filesystem::exists(bin)) {
          // A row without a variant file is a null variant ("may be null for a null variant").
          if (!expectError && !var.isNull()) {
            failures.push_back(prefix + "row " + std::to_string(rows->rowIndex()) +
                               " has no variant file but is not null");
            caseOk = false;
          }
          if (!var.isNull()) var.getVariant();
          continue;
        }
        ++binFiles;
        const Variant v = var.getVariant();
        Bytes got = v.metadata;
        got.insert(got.end(), v.value.begin(), v.value.end());
        ++rowsCompared;
        if (got != readFileBytes(bin)) {
          failures.push_back(prefix + "row " + std::to_string(rows->rowIndex()) +
                             " differs from " + bin.filename().string());
          caseOk = false;
        }
        EXPECT_NO_THROW(v.validate()) << c.stem;
      }
      if (expectError) {
        failures.push_back(prefix + "read without error, expected one");
      } else if (caseOk) {
        EXPECT_GT(binFiles, 0u) << c.stem << " has no variant file and is not a known error case";
        ++passed;
      }
    } catch (const CorruptFile& e) {
      if (expectError) {
        ++passed;
      } else {
        failures.push_back(prefix + "CorruptFile: " + e.what());
      }
    } catch (const std::exception& e) {
      failures.push_back(prefix + "unexpected " + e.what());
    }
  }
  std::cout << "[ variant  ] shredded_variant: " << passed << " of " << cases.size()
            << " cases pass (" << rowsCompared << " rows byte-exact, " << kErrorCases.size()
            << " error cases and " << kInvalidCasesRefused.size()
            << " INVALID cases refused)\n";
  for (const auto& f : failures) ADD_FAILURE() << f;
  EXPECT_EQ(passed, cases.size());
  EXPECT_GE(cases.size(), 130u);
}

TEST(VariantTestdataTest, ErrorCasesNameTheirDefect) {
  SKIP_WITHOUT(shreddedDir());
  const std::map<std::string, std::string> expected = {
      {"case-042", "conflicting value and typed_value"},
      {"case-040", "conflicting value and typed_value"},
      {"case-087", "non-object value with shredded fields"},
      {"case-128", "non-object value with shredded fields"},
      {"case-127", "Unsupported shredded value type: INT32 INTEGER(32,false)"},
      {"case-137", "Unsupported shredded value type: FIXED_LEN_BYTE_ARRAY"},
      {"case-125-INVALID", "field 'b' is both in value and among the shredded fields"},
      {"case-043-INVALID", "field 'b' is both in value and among the shredded fields"},
  };
  for (const auto& [stem, message] : expected) {
    auto file = ParquetFileReader::open((shreddedDir() / (stem + ".parquet")).string());
    auto rows = file->rowReader();
    ASSERT_TRUE(rows->next());
    try {
      rows->field("var").getVariant();
      ADD_FAILURE() << stem << " read without error";
    } catch (const CorruptFile& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << stem << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find("'var"), std::string::npos) << stem << ": " << e.what();
    }
  }
}

TEST(VariantTestdataTest, ToJsonRendersReassembledRows) {
  SKIP_WITHOUT(shreddedDir());
  auto file = ParquetFileReader::open((shreddedDir() / "case-045.parquet").string());
  auto rows = file->rowReader();
  std::vector<std::string> json;
  while (rows->next()) json.push_back(rows->field("var").getVariant().toJson());
  EXPECT_EQ(json, (std::vector<std::string>{R"(["comedy","drama"])", "34",
                                            R"({"a":null,"d":"iceberg"})",
                                            R"(["action","horror"])"}));
}

TEST(VariantTestdataTest, ToJsonMatchesTheDataDictionaryWhereItsFormsAgree) {
  SKIP_WITHOUT(variantDir());
  // data_dictionary.json writes binary as base64 and numbers as JSON numbers.
  EXPECT_EQ(example("primitive_binary").toJson(), R"("AxM33q2+78r+")");
  EXPECT_EQ(example("primitive_decimal4").toJson(), "12.34");
  EXPECT_EQ(example("primitive_int64").toJson(), "1234567890123456789");
  EXPECT_EQ(example("primitive_null").toJson(), "null");
  EXPECT_EQ(example("primitive_date").toJson(), R"("2025-04-16")");
  EXPECT_EQ(example("primitive_uuid").toJson(), R"("f24f9b64-81fa-49d1-b74e-8c09a6e31c56")");
  EXPECT_EQ(example("array_primitive").toJson(), "[2,1,5,9]");
  EXPECT_EQ(example("object_nested").toJson(),
            R"({"id":1,"observation":{"location":"In the Volcano","time":"12:34:56",)"
            R"("value":{"humidity":456,"temperature":123}},)"
            R"("species":{"name":"lava monster","population":6789}})");
}

TEST(VariantTestdataTest, PartialProjectionOfAVariantIsRefused) {
  SKIP_WITHOUT(shreddedDir());
  auto file = ParquetFileReader::open((shreddedDir() / "case-134.parquet").string());
  auto rows = file->rowReader(ColumnProjection::columns("var.metadata", "var.value"));
  ASSERT_TRUE(rows->next());
  EXPECT_THROW(rows->field("var").getVariant(), InvalidArgument);
}

TEST(VariantTestdataTest, NonVariantColumnsAndNullRowsAreRefused) {
  SKIP_WITHOUT(shreddedDir());
  auto file = ParquetFileReader::open((shreddedDir() / "case-083.parquet").string());
  auto rows = file->rowReader();
  ASSERT_TRUE(rows->next());
  EXPECT_THROW(rows->field("id").getVariant(), InvalidArgument);
  ASSERT_TRUE(rows->field("var").isNull());
  EXPECT_THROW(rows->field("var").getVariant(), InvalidArgument);
}

}  // namespace
}  // namespace quarry::parquet
