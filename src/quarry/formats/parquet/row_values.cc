#include "quarry/formats/parquet/row_values.h"

#include <cstring>
#include <stdexcept>

#include "quarry/common/error.h"
#include "quarry/common/little_endian.h"
#include "quarry/common/utf8.h"
#include "quarry/formats/parquet/variant_shredding.h"

namespace quarry::parquet {
namespace {

using Kind = LogicalType::Kind;

int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

int64_t unitsPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return 1000;
    case TimeUnit::MICROS: return 1'000'000;
    case TimeUnit::NANOS: return 1'000'000'000;
  }
  return 1000;
}


}  // namespace

const NodeSlots& FieldValue::slots() const {
  const NodeSlots* s = group_->slots(projected_->node);
  if (s == nullptr) {
    throw InvalidArgument("Column '" + projected_->node->path + "' is not projected");
  }
  return *s;
}

bool FieldValue::isNull() const {
  if (repeatedField_) return false;
  return slots().present[slot_] == 0;
}

const ColumnChunkData& FieldValue::column() const { return *group_->column(projected_->node); }

void FieldValue::throwWrongType(const char* getter, const char* wanted) const {
  const SchemaNode& n = *projected_->node;
  std::string type = n.isLeaf() ? toString(*n.physicalType) : "a group";
  if (n.logicalType.kind != Kind::NONE) type += " " + toString(n.logicalType);
  throw InvalidArgument(std::string(getter) + " does not read column '" + n.path + "' (" + type +
                        "); it reads " + wanted);
}

int64_t FieldValue::valueIndex(const char* getter) const {
  if (!projected_->node->isLeaf() || repeatedField_) throwWrongType(getter, "a primitive value");
  const int64_t index = slots().valueIndex[slot_];
  if (index < 0) {
    throw InvalidArgument(std::string(getter) + ": column '" + projected_->node->path +
                          "' is null in this row; check isNull first");
  }
  return index;
}

bool FieldValue::getBoolean() const {
  if (node().physicalType != PhysicalType::BOOLEAN) throwWrongType("getBoolean", "BOOLEAN");
  return column().fixedValues[valueIndex("getBoolean")] != 0;
}

int32_t FieldValue::getInt() const {
  if (node().physicalType != PhysicalType::INT32) throwWrongType("getInt", "INT32");
  return column().values<int32_t>()[valueIndex("getInt")];
}

int64_t FieldValue::getLong() const {
  if (node().physicalType != PhysicalType::INT64) throwWrongType("getLong", "INT64");
  return column().values<int64_t>()[valueIndex("getLong")];
}

float FieldValue::getFloat() const {
  if (node().physicalType == PhysicalType::FLOAT) {
    return column().values<float>()[valueIndex("getFloat")];
  }
  if (node().logicalType.kind == Kind::FLOAT16) {
    const std::string_view b = rawBytes();
    return Float16{static_cast<uint16_t>(static_cast<uint8_t>(b[0]) |
                                         static_cast<uint8_t>(b[1]) << 8)}
        .toFloat();
  }
  throwWrongType("getFloat", "FLOAT or FLOAT16");
}

double FieldValue::getDouble() const {
  if (node().physicalType != PhysicalType::DOUBLE) throwWrongType("getDouble", "DOUBLE");
  return column().values<double>()[valueIndex("getDouble")];
}

std::string_view FieldValue::rawBytes() const {
  const auto type = node().physicalType;
  if (type == PhysicalType::INT96) {
    return {reinterpret_cast<const char*>(column().fixedValues.data()) + valueIndex("getBinary") * 12,
            12};
  }
  if (type != PhysicalType::BYTE_ARRAY && type != PhysicalType::FIXED_LEN_BYTE_ARRAY) {
    throwWrongType("getBinary", "BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY or INT96");
  }
  return column().bytes(valueIndex("getBinary"));
}

std::string FieldValue::getString() const {
  const Kind kind = node().logicalType.kind;
  const bool text = node().physicalType == PhysicalType::BYTE_ARRAY &&
                    (kind == Kind::NONE || kind == Kind::STRING || kind == Kind::ENUM ||
                     kind == Kind::JSON);
  if (!text) throwWrongType("getString", "STRING, ENUM, JSON or unannotated BYTE_ARRAY");
  std::string out;
  appendUtf8Lossy(rawBytes(), out);
  return out;
}

Bytes FieldValue::getBinary() const {
  const std::string_view b = rawBytes();
  return Bytes(b.begin(), b.end());
}

Date FieldValue::getDate() const {
  if (node().logicalType.kind != Kind::DATE) throwWrongType("getDate", "DATE");
  return Date{getInt()};
}

TimeOfDay FieldValue::getTime() const {
  const LogicalType& t = node().logicalType;
  if (t.kind != Kind::TIME) throwWrongType("getTime", "TIME");
  if (t.unit == TimeUnit::MILLIS) return TimeOfDay{int64_t{getInt()} * 1'000'000};
  return TimeOfDay{getLong() * (1'000'000'000 / unitsPerSecond(t.unit))};
}

Instant FieldValue::getTimestamp() const {
  const LogicalType& t = node().logicalType;
  if (node().physicalType == PhysicalType::INT96 && t.kind == Kind::NONE) {
    // 8 bytes of nanoseconds within the day, then the Julian day; the nanoseconds
    // may run past one day, so they are added rather than assumed in range.
    const auto* b = reinterpret_cast<const uint8_t*>(rawBytes().data());
    const int64_t nanos = loadLittleEndian<int64_t>(b);
    const int64_t julianDay = loadLittleEndian<int32_t>(b + 8);
    constexpr int64_t kUnixEpochJulianDay = 2'440'588;
    const int64_t seconds = (julianDay - kUnixEpochJulianDay) * 86400 + floorDiv(nanos, 1'000'000'000);
    return Instant{seconds, static_cast<int32_t>(nanos - floorDiv(nanos, 1'000'000'000) * 1'000'000'000)};
  }
  if (t.kind != Kind::TIMESTAMP || !t.isAdjustedToUTC || node().physicalType != PhysicalType::INT64) {
    throwWrongType("getTimestamp", "TIMESTAMP(isAdjustedToUTC = true) or INT96");
  }
  return Instant::ofEpochUnits(getLong(), unitsPerSecond(t.unit));
}

LocalDateTime FieldValue::getLocalDateTime() const {
  const LogicalType& t = node().logicalType;
  if (t.kind != Kind::TIMESTAMP || t.isAdjustedToUTC || node().physicalType != PhysicalType::INT64) {
    throwWrongType("getLocalDateTime", "TIMESTAMP(isAdjustedToUTC = false)");
  }
  const Instant i = Instant::ofEpochUnits(getLong(), unitsPerSecond(t.unit));
  return LocalDateTime{i.epochSeconds, i.nanos};
}

Decimal FieldValue::getDecimal() const {
  const LogicalType& t = node().logicalType;
  if (t.kind != Kind::DECIMAL) throwWrongType("getDecimal", "DECIMAL");
  Decimal d;
  d.scale = t.scale;
  auto bigEndian = [&d](uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) d.unscaledBigEndian.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  switch (*node().physicalType) {
    case PhysicalType::INT32: bigEndian(static_cast<uint32_t>(getInt()), 4); break;
    case PhysicalType::INT64: bigEndian(static_cast<uint64_t>(getLong()), 8); break;
    default: {
      const std::string_view b = rawBytes();
      d.unscaledBigEndian.assign(b.begin(), b.end());
    }
  }
  return d;
}

Uuid FieldValue::getUuid() const {
  if (node().logicalType.kind != Kind::UUID) throwWrongType("getUuid", "UUID");
  Uuid u;
  std::memcpy(u.bytes.data(), rawBytes().data(), 16);
  return u;
}

Interval FieldValue::getInterval() const {
  if (node().logicalType.kind != Kind::INTERVAL) throwWrongType("getInterval", "INTERVAL");
  const auto* b = reinterpret_cast<const uint8_t*>(rawBytes().data());
  return Interval{loadLittleEndian<uint32_t>(b), loadLittleEndian<uint32_t>(b + 4), loadLittleEndian<uint32_t>(b + 8)};
}

PqStruct FieldValue::getStruct() const {
  if (node().isLeaf() || repeatedField_) throwWrongType("getStruct", "a group");
  if (isNull()) {
    throw InvalidArgument("getStruct: column '" + node().path + "' is null in this row");
  }
  return PqStruct(group_, projected_, slot_);
}

PqList FieldValue::getList() const {
  if (repeatedField_) {
    // An unannotated repeated field: the node's own slots are the elements.
    const NodeSlots& s = slots();
    return PqList(group_, projected_, s.offsets[slot_], s.offsets[slot_ + 1]);
  }
  const SchemaNode* element = node().listElement;
  if (element == nullptr || projected_->children.empty()) throwWrongType("getList", "a LIST");
  if (isNull()) throw InvalidArgument("getList: column '" + node().path + "' is null in this row");
  const ProjectedNode* repeated = projected_->children[0].get();
  const NodeSlots* s = group_->slots(repeated->node);
  const ProjectedNode* elementProjected =
      element == repeated->node ? repeated : repeated->children.at(0).get();
  return PqList(group_, elementProjected, s->offsets[slot_], s->offsets[slot_ + 1]);
}

PqMap FieldValue::getMap() const {
  if (node().mapKey == nullptr || projected_->children.empty()) throwWrongType("getMap", "a MAP");
  if (isNull()) throw InvalidArgument("getMap: column '" + node().path + "' is null in this row");
  const ProjectedNode* keyValue = projected_->children[0].get();
  const NodeSlots* s = group_->slots(keyValue->node);
  return PqMap(group_, keyValue, s->offsets[slot_], s->offsets[slot_ + 1]);
}

Variant FieldValue::getVariant() const {
  if (repeatedField_) throwWrongType("getVariant", "a VARIANT group");
  return reassembleVariant(*this);
}

const std::string& PqStruct::getFieldName(size_t index) const {
  if (index >= projected_->children.size()) {
    throw std::out_of_range("field index " + std::to_string(index) + " is past the " +
                            std::to_string(projected_->children.size()) + " projected fields");
  }
  return projected_->children[index]->node->name;
}

FieldValue PqStruct::field(size_t index) const {
  if (index >= projected_->children.size()) {
    throw std::out_of_range("field index " + std::to_string(index) + " is past the " +
                            std::to_string(projected_->children.size()) + " projected fields");
  }
  const ProjectedNode* child = projected_->children[index].get();
  return FieldValue(group_, child, slot_, child->node->repetition == FieldRepetitionType::REPEATED);
}

FieldValue PqStruct::field(std::string_view name) const {
  for (size_t i = 0; i < projected_->children.size(); ++i) {
    if (projected_->children[i]->node->name == name) return field(i);
  }
  throw InvalidArgument("Column '" + std::string(name) + "' is not in the projection" +
                        (projected_->node->isRoot() ? "" : " of '" + projected_->node->path + "'"));
}

FieldValue PqList::get(size_t i) const {
  if (i >= size()) {
    throw std::out_of_range("list index " + std::to_string(i) + " is past the list's " +
                            std::to_string(size()) + " elements");
  }
  return FieldValue(group_, element_, begin_ + static_cast<int64_t>(i));
}

FieldValue PqMap::key(size_t i) const {
  if (i >= size()) throw std::out_of_range("map index " + std::to_string(i) + " past the end");
  return FieldValue(group_, keyValue_->children.at(0).get(), begin_ + static_cast<int64_t>(i));
}

FieldValue PqMap::value(size_t i) const {
  if (i >= size()) throw std::out_of_range("map index " + std::to_string(i) + " past the end");
  if (!hasValues()) throw InvalidArgument("the map '" + keyValue_->node->path + "' has no values");
  return FieldValue(group_, keyValue_->children[1].get(), begin_ + static_cast<int64_t>(i));
}

}  // namespace quarry::parquet
