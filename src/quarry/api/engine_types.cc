#include "quarry/api/engine_types.h"

#include <type_traits>

namespace quarry::api {

namespace {

template <typename Public, typename Engine>
constexpr bool same(Public p, Engine e) {
  return static_cast<std::underlying_type_t<Public>>(p) ==
         static_cast<std::underlying_type_t<Engine>>(e);
}

static_assert(same(TypeKind::kNull, engine::TypeKind::kNull));
static_assert(same(TypeKind::kBoolean, engine::TypeKind::kBoolean));
static_assert(same(TypeKind::kInt32, engine::TypeKind::kInt32));
static_assert(same(TypeKind::kInt64, engine::TypeKind::kInt64));
static_assert(same(TypeKind::kUInt64, engine::TypeKind::kUInt64));
static_assert(same(TypeKind::kDouble, engine::TypeKind::kDouble));
static_assert(same(TypeKind::kDecimal, engine::TypeKind::kDecimal));
static_assert(same(TypeKind::kString, engine::TypeKind::kString));
static_assert(same(TypeKind::kBinary, engine::TypeKind::kBinary));
static_assert(same(TypeKind::kDate, engine::TypeKind::kDate));
static_assert(same(TypeKind::kTime, engine::TypeKind::kTime));
static_assert(same(TypeKind::kTimestamp, engine::TypeKind::kTimestamp));
static_assert(same(TypeKind::kUuid, engine::TypeKind::kUuid));
static_assert(same(TypeKind::kList, engine::TypeKind::kList));
static_assert(same(TimeUnit::kMillis, engine::TimeUnit::kMillis));
static_assert(same(TimeUnit::kMicros, engine::TimeUnit::kMicros));
static_assert(same(TimeUnit::kNanos, engine::TimeUnit::kNanos));

}  // namespace

DataType publicType(const engine::DataType& type) {
  DataType out;
  out.kind = static_cast<TypeKind>(type.kind);
  out.precision = type.precision;
  out.scale = type.scale;
  out.unit = static_cast<TimeUnit>(type.unit);
  out.utcAdjusted = type.utcAdjusted;
  out.elementKind = static_cast<TypeKind>(type.elementKind);
  return out;
}

engine::DataType engineType(const DataType& type) {
  engine::DataType out;
  out.kind = static_cast<engine::TypeKind>(type.kind);
  out.precision = type.precision;
  out.scale = type.scale;
  out.unit = static_cast<engine::TimeUnit>(type.unit);
  out.utcAdjusted = type.utcAdjusted;
  out.elementKind = static_cast<engine::TypeKind>(type.elementKind);
  return out;
}

Schema publicSchema(const engine::Schema& schema) {
  Schema out;
  out.reserve(schema.size());
  for (const engine::Field& field : schema)
    out.push_back(Field{field.name, publicType(field.type)});
  return out;
}

}  // namespace quarry::api

namespace quarry {

std::string DataType::toString() const {
  return api::engineType(*this).toString();
}

}  // namespace quarry
