#include "quarry/formats/parquet/metadata.h"

#include <array>
#include <string_view>

namespace quarry::parquet {
namespace {

/// Returns names[v] when v is one of the spec's values, "UNKNOWN(<v>)" otherwise.
/// `names` is indexed by value; empty entries are gaps in the enum.
template <class E, size_t N>
std::string nameOf(E v, const std::array<std::string_view, N>& names) {
  auto i = static_cast<int32_t>(v);
  if (i >= 0 && static_cast<size_t>(i) < N && !names[i].empty()) return std::string(names[i]);
  return "UNKNOWN(" + std::to_string(i) + ")";
}

const char* boolName(bool b) {
  return b ? "true" : "false";
}

}  // namespace

std::string toString(PhysicalType v) {
  static constexpr std::array<std::string_view, 8> kNames = {
      "BOOLEAN", "INT32",  "INT64",      "INT96",
      "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  return nameOf(v, kNames);
}

std::string toString(ConvertedType v) {
  static constexpr std::array<std::string_view, 22> kNames = {"UTF8",
                                                              "MAP",
                                                              "MAP_KEY_VALUE",
                                                              "LIST",
                                                              "ENUM",
                                                              "DECIMAL",
                                                              "DATE",
                                                              "TIME_MILLIS",
                                                              "TIME_MICROS",
                                                              "TIMESTAMP_MILLIS",
                                                              "TIMESTAMP_MICROS",
                                                              "UINT_8",
                                                              "UINT_16",
                                                              "UINT_32",
                                                              "UINT_64",
                                                              "INT_8",
                                                              "INT_16",
                                                              "INT_32",
                                                              "INT_64",
                                                              "JSON",
                                                              "BSON",
                                                              "INTERVAL"};
  return nameOf(v, kNames);
}

std::string toString(FieldRepetitionType v) {
  static constexpr std::array<std::string_view, 3> kNames = {"REQUIRED", "OPTIONAL", "REPEATED"};
  return nameOf(v, kNames);
}

std::string toString(Encoding v) {
  static constexpr std::array<std::string_view, 11> kNames = {"PLAIN",
                                                              "",  // 1: GROUP_VAR_INT, never used
                                                              "PLAIN_DICTIONARY",
                                                              "RLE",
                                                              "BIT_PACKED",
                                                              "DELTA_BINARY_PACKED",
                                                              "DELTA_LENGTH_BYTE_ARRAY",
                                                              "DELTA_BYTE_ARRAY",
                                                              "RLE_DICTIONARY",
                                                              "BYTE_STREAM_SPLIT",
                                                              "ALP"};
  return nameOf(v, kNames);
}

std::string toString(PageType v) {
  static constexpr std::array<std::string_view, 4> kNames = {"DATA_PAGE", "INDEX_PAGE",
                                                             "DICTIONARY_PAGE", "DATA_PAGE_V2"};
  return nameOf(v, kNames);
}

std::string toString(BoundaryOrder v) {
  static constexpr std::array<std::string_view, 3> kNames = {"UNORDERED", "ASCENDING",
                                                             "DESCENDING"};
  return nameOf(v, kNames);
}

std::string toString(EdgeInterpolationAlgorithm v) {
  static constexpr std::array<std::string_view, 5> kNames = {"SPHERICAL", "VINCENTY", "THOMAS",
                                                             "ANDOYER", "KARNEY"};
  return nameOf(v, kNames);
}

std::string toString(TimeUnit v) {
  static constexpr std::array<std::string_view, 4> kNames = {"", "MILLIS", "MICROS", "NANOS"};
  return nameOf(v, kNames);
}

std::string toString(ColumnOrder v) {
  static constexpr std::array<std::string_view, 4> kNames = {
      "", "TYPE_ORDER", "IEEE_754_TOTAL_ORDER", "INT96_TIMESTAMP_ORDER"};
  if (v == ColumnOrder::UNKNOWN) return "UNKNOWN";
  return nameOf(v, kNames);
}

std::string toString(const LogicalType& v) {
  using K = LogicalType::Kind;
  switch (v.kind) {
    case K::NONE:
      return "NONE";
    case K::STRING:
      return "STRING";
    case K::MAP:
      return "MAP";
    case K::LIST:
      return "LIST";
    case K::ENUM:
      return "ENUM";
    case K::DECIMAL:
      return "DECIMAL(" + std::to_string(v.precision) + "," + std::to_string(v.scale) + ")";
    case K::DATE:
      return "DATE";
    case K::TIME:
      return "TIME(" + toString(v.unit) + "," + boolName(v.isAdjustedToUTC) + ")";
    case K::TIMESTAMP:
      return "TIMESTAMP(" + toString(v.unit) + "," + boolName(v.isAdjustedToUTC) + ")";
    case K::INTEGER:
      return "INTEGER(" + std::to_string(v.bitWidth) + "," + boolName(v.isSigned) + ")";
    case K::UNKNOWN:
      return "UNKNOWN";  // the union's name for the NULL type
    case K::JSON:
      return "JSON";
    case K::BSON:
      return "BSON";
    case K::UUID:
      return "UUID";
    case K::FLOAT16:
      return "FLOAT16";
    case K::VARIANT:
      if (!v.specificationVersion) return "VARIANT";
      return "VARIANT(" + std::to_string(*v.specificationVersion) + ")";
    case K::GEOMETRY:
    case K::GEOGRAPHY: {
      // Only what the file states is shown: an absent crs means the spec's
      // default (OGC:CRS84), an absent algorithm SPHERICAL.
      std::string s = v.kind == K::GEOMETRY ? "GEOMETRY" : "GEOGRAPHY";
      std::string args;
      if (v.crs) args += "crs=" + *v.crs;
      if (v.kind == K::GEOGRAPHY && v.algorithm)
        args += (args.empty() ? "" : ",") + std::string("algorithm=") + toString(*v.algorithm);
      return args.empty() ? s : s + "(" + args + ")";
    }
    case K::FILE:
      return "FILE";
    case K::INTERVAL:
      return "INTERVAL";
    case K::UNKNOWN_MEMBER:
      return "UNKNOWN_MEMBER(" + std::to_string(v.unknownFieldId) + ")";
  }
  return "UNKNOWN_KIND(" + std::to_string(static_cast<int32_t>(v.kind)) + ")";
}

}  // namespace quarry::parquet
