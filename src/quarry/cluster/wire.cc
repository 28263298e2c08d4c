#include "quarry/cluster/wire.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <variant>

#include "quarry/common/error.h"

namespace quarry::cluster {

namespace {

using engine::Block;
using engine::DataType;
using engine::TimeUnit;
using engine::TypeKind;

constexpr uint32_t kLastKind = static_cast<uint32_t>(TypeKind::kList);
constexpr uint32_t kLastElementKind = static_cast<uint32_t>(TypeKind::kUuid);
constexpr uint32_t kLastUnit = static_cast<uint32_t>(TimeUnit::kNanos);
/// The most positions of a page whose columns carry no bytes (only null-typed
/// columns, or none): engine pages hold far fewer (kMaxPageRows), and a corrupt
/// count must not make the receiver loop for ever.
constexpr uint64_t kMaxPositionsWithoutBytes = uint64_t{1} << 24;

[[noreturn]] void corrupt(const std::string& what) {
  throw CorruptFile("cluster page from the wire: " + what);
}

std::string columnName(size_t column, const engine::Schema& schema) {
  return "column " + std::to_string(column) + " (" + schema[column].name + ")";
}

template <typename T>
void appendLittleEndian(std::string* out, std::span<const T> values) {
  static_assert(std::is_trivially_copyable_v<T>);
  // The engine runs on little-endian hosts: the storage is the wire layout.
  const size_t offset = out->size();
  out->resize(offset + values.size_bytes());
  if (!values.empty()) std::memcpy(out->data() + offset, values.data(), values.size_bytes());
}

template <typename T>
std::vector<T> readLittleEndian(const std::string& bytes, size_t count, const std::string& where) {
  if (bytes.size() / sizeof(T) != count || bytes.size() % sizeof(T) != 0) {
    corrupt(where + ": " + std::to_string(bytes.size()) + " value bytes, expected " +
            std::to_string(count) + " x " + std::to_string(sizeof(T)));
  }
  std::vector<T> values(count);
  if (count > 0) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

void checkValidity(const std::string& validity, size_t count, const std::string& where) {
  if (validity.empty()) return;
  if (validity.size() != count) {
    corrupt(where + ": validity of " + std::to_string(validity.size()) + " bytes for " +
            std::to_string(count) + " positions");
  }
  for (size_t i = 0; i < count; ++i) {
    const auto v = static_cast<uint8_t>(validity[i]);
    if (v > 1)
      corrupt(where + ": validity byte " + std::to_string(v) + " at position " + std::to_string(i));
  }
}

Block fixedFromProto(const proto::Column& column, const DataType& type, size_t count,
                     const std::string& where) {
  const std::string& validity = column.validity();
  Block block(type);
  engine::withFixedStorage(type.kind, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> values = readLittleEndian<T>(column.values(), count, where);
    if constexpr (std::is_same_v<T, uint8_t>) {
      for (size_t i = 0; i < count; ++i) {
        if (values[i] > 1)
          corrupt(where + ": boolean byte " + std::to_string(values[i]) + " at " +
                  std::to_string(i));
      }
    }
    std::vector<uint8_t> valid(validity.begin(), validity.end());
    // A null position holds a zero value (block.h), whatever the sender put there.
    for (size_t i = 0; i < valid.size(); ++i) {
      if (valid[i] == 0) values[i] = T{};
    }
    block = Block::fromValues<T>(type, std::move(values), std::move(valid));
  });
  return block;
}

Block bytesFromProto(const proto::Column& column, const DataType& type, size_t count,
                     const std::string& where) {
  const std::string& data = column.values();
  std::vector<uint64_t> offsets =
      readLittleEndian<uint64_t>(column.offsets(), count + 1, where + " offsets");
  if (offsets[0] != 0)
    corrupt(where + ": first offset " + std::to_string(offsets[0]) + ", expected 0");
  for (size_t i = 0; i < count; ++i) {
    if (offsets[i + 1] < offsets[i]) {
      corrupt(where + ": offset " + std::to_string(offsets[i + 1]) + " at " +
              std::to_string(i + 1) + " below the one before, " + std::to_string(offsets[i]));
    }
  }
  if (offsets[count] != data.size()) {
    corrupt(where + ": last offset " + std::to_string(offsets[count]) + ", value bytes " +
            std::to_string(data.size()));
  }
  const std::string& validity = column.validity();
  Block block(type);
  block.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const uint64_t length = offsets[i + 1] - offsets[i];
    if (!validity.empty() && validity[i] == 0) {
      if (length != 0)
        corrupt(where + ": null position " + std::to_string(i) + " holds " +
                std::to_string(length) + " bytes");
      block.appendNull();
      continue;
    }
    if (type.kind == TypeKind::kUuid && length != 16) {
      corrupt(where + ": uuid of " + std::to_string(length) + " bytes at " + std::to_string(i));
    }
    block.appendBytes(std::string_view(data).substr(offsets[i], length));
  }
  return block;
}

}  // namespace

void toProto(const DataType& list, proto::DataType* out) {
  out->set_kind(static_cast<uint32_t>(list.kind));
  // A list's parameters are its elements'.
  const DataType type = list.isList() ? list.elementType() : list;
  if (list.isList()) out->set_element_kind(static_cast<uint32_t>(type.kind));
  if (type.kind == TypeKind::kDecimal) {
    out->set_precision(type.precision);
    out->set_scale(type.scale);
  }
  if (type.kind == TypeKind::kTime || type.kind == TypeKind::kTimestamp)
    out->set_unit(static_cast<uint32_t>(type.unit));
  if (type.kind == TypeKind::kTimestamp) out->set_utc_adjusted(type.utcAdjusted);
}

DataType fromProto(const proto::DataType& type) {
  if (type.kind() > kLastKind) corrupt("unknown type kind " + std::to_string(type.kind()));
  const bool list = type.kind() == static_cast<uint32_t>(TypeKind::kList);
  if (list && type.element_kind() > kLastElementKind) {
    corrupt("unknown list element kind " + std::to_string(type.element_kind()));
  }
  DataType out;
  out.kind = static_cast<TypeKind>(list ? type.element_kind() : type.kind());
  if (out.kind == TypeKind::kDecimal) {
    if (type.precision() < 1 || type.precision() > 38 || type.scale() < 0 ||
        type.scale() > type.precision()) {
      corrupt("decimal(" + std::to_string(type.precision()) + "," + std::to_string(type.scale()) +
              ")");
    }
    out.precision = type.precision();
    out.scale = type.scale();
  }
  if (out.kind == TypeKind::kTime || out.kind == TypeKind::kTimestamp) {
    if (type.unit() > kLastUnit) corrupt("unknown time unit " + std::to_string(type.unit()));
    out.unit = static_cast<TimeUnit>(type.unit());
  }
  if (out.kind == TypeKind::kTimestamp) out.utcAdjusted = type.utc_adjusted();
  return list ? DataType::list(out) : out;
}

void toProto(const engine::Schema& schema, google::protobuf::RepeatedPtrField<proto::Field>* out) {
  out->Clear();
  for (const engine::Field& field : schema) {
    proto::Field* f = out->Add();
    f->set_name(field.name);
    toProto(field.type, f->mutable_type());
  }
}

engine::Schema fromProto(const google::protobuf::RepeatedPtrField<proto::Field>& fields) {
  engine::Schema schema;
  schema.reserve(fields.size());
  for (const proto::Field& field : fields)
    schema.push_back({field.name(), fromProto(field.type())});
  return schema;
}

void toProto(const engine::Page& page, proto::Page* out) {
  out->Clear();
  const size_t count = page.positionCount();
  out->set_position_count(count);
  for (const Block& block : page.blocks()) {
    proto::Column* column = out->add_columns();
    toProto(block.type(), column->mutable_type());
    const TypeKind kind = block.type().kind;
    if (kind == TypeKind::kNull) continue;
    if (kind == TypeKind::kList) {
      throw Unsupported(
          "a list column (" + block.type().toString() +
          ") cannot travel between cluster nodes yet; run the query without --cluster");
    }
    std::span<const uint8_t> validity = block.validity();
    if (!validity.empty()) column->set_validity(validity.data(), validity.size());
    std::string* values = column->mutable_values();
    if (block.type().isBytes()) {
      std::span<const uint64_t> offsets = block.byteOffsets();
      // Offsets relative to the first position, in case the block's buffer starts elsewhere.
      std::vector<uint64_t> relative(count + 1);
      for (size_t i = 0; i <= count; ++i) relative[i] = offsets[i] - offsets[0];
      values->assign(block.byteData() + offsets[0], relative[count]);
      appendLittleEndian<uint64_t>(column->mutable_offsets(), relative);
      continue;
    }
    engine::withFixedStorage(kind, [&](auto zero) {
      using T = decltype(zero);
      appendLittleEndian<T>(values, block.values<T>());
    });
  }
}

engine::Page fromProto(const proto::Page& page, const engine::Schema& schema) {
  if (static_cast<size_t>(page.columns_size()) != schema.size()) {
    corrupt(std::to_string(page.columns_size()) + " columns, expected " +
            std::to_string(schema.size()));
  }
  const uint64_t count = page.position_count();
  // Every position of every non-null column is at least one byte on the wire, so a
  // count the message cannot hold is refused before anything is allocated for it.
  size_t wireBytes = 0;
  bool anyStored = false;
  for (const proto::Column& column : page.columns()) {
    wireBytes += column.values().size() + column.offsets().size() + column.validity().size();
    if (column.type().kind() != static_cast<uint32_t>(TypeKind::kNull)) anyStored = true;
  }
  if (anyStored && count > wireBytes) {
    corrupt("position_count " + std::to_string(count) + " but only " + std::to_string(wireBytes) +
            " bytes of columns");
  }
  if (!anyStored && count > kMaxPositionsWithoutBytes) {
    corrupt("position_count " + std::to_string(count) + " exceeds " +
            std::to_string(kMaxPositionsWithoutBytes));
  }
  std::vector<Block> blocks;
  blocks.reserve(schema.size());
  for (size_t c = 0; c < schema.size(); ++c) {
    const proto::Column& column = page.columns(static_cast<int>(c));
    const std::string where = columnName(c, schema);
    const DataType type = fromProto(column.type());
    if (!(type == schema[c].type)) {
      corrupt(where + " is " + type.toString() + ", expected " + schema[c].type.toString());
    }
    if (type.kind == TypeKind::kNull) {
      if (!column.values().empty() || !column.offsets().empty() || !column.validity().empty()) {
        corrupt(where + ": a null column carries bytes");
      }
      blocks.push_back(Block::nulls(type, count));
      continue;
    }
    if (type.isList()) corrupt(where + ": a list column");
    checkValidity(column.validity(), count, where);
    if (type.isBytes()) {
      blocks.push_back(bytesFromProto(column, type, count, where));
    } else {
      if (!column.offsets().empty()) corrupt(where + ": a fixed-width column carries offsets");
      blocks.push_back(fixedFromProto(column, type, count, where));
    }
  }
  return engine::Page(std::move(blocks), count);
}

void toProto(const engine::QueryParameters& parameters,
             google::protobuf::RepeatedPtrField<proto::Parameter>* out) {
  for (const engine::QueryParameter& parameter : parameters) {
    proto::Parameter* p = out->Add();
    p->set_name(parameter.name);
    std::visit(
        [&](const auto& value) {
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, engine::NullParameter>) {
            p->set_null_value(true);
          } else if constexpr (std::is_same_v<T, bool>) {
            p->set_boolean(value);
          } else if constexpr (std::is_same_v<T, int64_t>) {
            p->set_integer(value);
          } else if constexpr (std::is_same_v<T, double>) {
            p->set_number(value);
          } else {
            p->set_text(value);
          }
        },
        parameter.value);
  }
}

engine::QueryParameters fromProto(
    const google::protobuf::RepeatedPtrField<proto::Parameter>& parameters) {
  engine::QueryParameters out;
  for (const proto::Parameter& p : parameters) {
    switch (p.value_case()) {
      case proto::Parameter::kNullValue:
        out.push_back({p.name(), engine::NullParameter{}});
        break;
      case proto::Parameter::kBoolean:
        out.push_back({p.name(), p.boolean()});
        break;
      case proto::Parameter::kInteger:
        out.push_back({p.name(), static_cast<int64_t>(p.integer())});
        break;
      case proto::Parameter::kNumber:
        out.push_back({p.name(), p.number()});
        break;
      case proto::Parameter::kText:
        out.push_back({p.name(), p.text()});
        break;
      default:
        throw CorruptFile("parameter ?" + p.name() + " has no value");
    }
  }
  return out;
}

void toProto(const engine::Warnings& warnings,
             google::protobuf::RepeatedPtrField<proto::Warning>* out) {
  for (const engine::Warnings::Entry& entry : warnings.entries()) {
    proto::Warning* w = out->Add();
    w->set_line(entry.line);
    w->set_column(entry.column);
    w->set_expression(entry.expression);
    w->set_failures(entry.failures);
    w->set_recorded(entry.recorded);
    for (const std::string& message : entry.messages) w->add_messages(message);
  }
}

engine::Warnings fromProto(const google::protobuf::RepeatedPtrField<proto::Warning>& warnings) {
  engine::Warnings out;
  for (const proto::Warning& w : warnings) {
    engine::Warnings::Entry entry{w.line(),
                                  w.column(),
                                  w.expression(),
                                  w.failures(),
                                  std::min<uint64_t>(w.recorded(), engine::Warnings::kMaxRecorded),
                                  {}};
    for (const std::string& message : w.messages()) {
      if (entry.messages.size() == engine::Warnings::kMaxRecorded) break;
      entry.messages.push_back(message);
    }
    out.add(entry);
  }
  return out;
}

}  // namespace quarry::cluster
