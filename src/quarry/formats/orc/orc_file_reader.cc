#include "quarry/formats/orc/orc_file_reader.h"

#include <charconv>
#include <cmath>

#include "quarry/common/error.h"
#include "quarry/common/json_text.h"
#include "quarry/common/values.h"
#include "quarry/formats/orc/encoding/decimal_decoder.h"

namespace quarry::orc {
namespace {

template <typename T>
void appendNumber(T value, std::string& out) {
  if (std::isnan(value)) {
    out += "\"NaN\"";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    return;
  }
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
}

void appendTimestamp(int64_t seconds, int32_t nanos, std::string& out) {
  // Java's Timestamp.toString: the fraction without trailing zeros, at least ".0".
  std::string text = Instant{seconds, 0}.toString(0);
  std::string fraction = std::to_string(nanos);
  fraction.insert(0, 9 - fraction.size(), '0');
  while (fraction.size() > 1 && fraction.back() == '0') fraction.pop_back();
  out += '"';
  out += text;
  out += '.';
  out += fraction;
  out += '"';
}

}  // namespace

OrcFileReader::OrcFileReader(std::unique_ptr<io::StorageObject> file)
    : file_(std::move(file)),
      tail_(readOrcTail(*file_)),
      schema_(OrcSchema::build(tail_.footer, tail_.uri)) {}

std::unique_ptr<OrcFileReader> OrcFileReader::open(const std::string& uri) {
  return std::make_unique<OrcFileReader>(io::openObject(uri));
}

std::vector<bool> OrcFileReader::projectAll() const {
  return std::vector<bool>(schema_.columnCount(), true);
}

std::vector<bool> OrcFileReader::project(const std::vector<std::string>& paths) const {
  std::vector<bool> flags(schema_.columnCount(), false);
  flags[0] = true;
  for (const std::string& path : paths) {
    const OrcType* type = schema_.find(path);
    if (type == nullptr) {
      throw InvalidArgument(tail_.uri + ": no column '" + path + "' in the ORC schema " +
                            schema_.root().toTypeString());
    }
    for (uint32_t id = type->columnId; id <= type->maximumColumnId; ++id) flags[id] = true;
    for (const OrcType* p = type->parent; p != nullptr; p = p->parent) flags[p->columnId] = true;
  }
  return flags;
}

StripeFooter OrcFileReader::readStripeFooter(size_t index) {
  return orc::readStripeFooter(*file_, tail_, schema_, index);
}

std::unique_ptr<ColumnVector> OrcFileReader::readStripe(size_t index,
                                                        const std::vector<bool>& projected) {
  if (projected.size() != schema_.columnCount()) {
    throw InvalidArgument(tail_.uri + ": the projection has " + std::to_string(projected.size()) +
                          " flags for " + std::to_string(schema_.columnCount()) + " columns");
  }
  if (index >= stripeCount()) {
    throw InvalidArgument(tail_.uri + ": no stripe " + std::to_string(index) + " (the file has " +
                          std::to_string(stripeCount()) + ")");
  }
  const StripeData stripe = orc::readStripe(*file_, tail_, schema_, index, projected, false);
  ++metrics_.stripesRead;
  metrics_.streamBytesDecompressed += stripe.streams.totalBytes();
  return decodeColumn(schema_.root(), stripe.footer.rowCount, stripe.footer, stripe.streams,
                      projected, tail_.uri + ": stripe " + std::to_string(index));
}

OrcRowReader::OrcRowReader(OrcFileReader& reader, std::vector<bool> projected)
    : reader_(reader), projected_(std::move(projected)) {}

bool OrcRowReader::next() {
  if (started_ && stripe_ && slot_ + 1 < stripe_->size) {
    ++slot_;
    return true;
  }
  started_ = true;
  while (nextStripe_ < reader_.stripeCount()) {
    stripe_ = reader_.readStripe(nextStripe_++, projected_);
    slot_ = 0;
    if (stripe_->size > 0) return true;
  }
  stripe_.reset();
  return false;
}

void OrcRowReader::appendRowJson(std::string& out) const {
  appendJson(*stripe_, slot_, out);
}

void appendJson(const ColumnVector& column, uint64_t slot, std::string& out) {
  if (column.isNull(slot)) {
    out += "null";
    return;
  }
  const uint64_t i = column.valueIndex(slot);
  const OrcType& type = *column.type;
  switch (type.kind) {
    case TypeKind::kBoolean:
      out += column.longs[i] != 0 ? "true" : "false";
      return;
    case TypeKind::kByte:
    case TypeKind::kShort:
    case TypeKind::kInt:
    case TypeKind::kLong:
      out += std::to_string(column.longs[i]);
      return;
    case TypeKind::kFloat:
      appendNumber(static_cast<float>(column.doubles[i]), out);
      return;
    case TypeKind::kDouble:
      appendNumber(column.doubles[i], out);
      return;
    case TypeKind::kString:
    case TypeKind::kVarchar:
    case TypeKind::kChar:
      appendJsonString(out, std::string_view(column.bytes)
                                .substr(column.offsets[i], column.offsets[i + 1] - column.offsets[i]));
      return;
    case TypeKind::kBinary:
      out += '[';
      for (uint64_t b = column.offsets[i]; b < column.offsets[i + 1]; ++b) {
        if (b > column.offsets[i]) out += ", ";
        out += std::to_string(static_cast<unsigned char>(column.bytes[b]));
      }
      out += ']';
      return;
    case TypeKind::kDate:
      out += '"' + Date{static_cast<int32_t>(column.longs[i])}.toString() + '"';
      return;
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampInstant:
      appendTimestamp(column.wallClockSeconds(i), column.nanos[i], out);
      return;
    case TypeKind::kDecimal:
      if (!column.decimalScales.empty()) {
        out += decimalToString(column.wideDecimals[i], column.decimalScales[i]);
      } else if (!column.wideDecimals.empty()) {
        out += decimalToString(column.wideDecimals[i], static_cast<int32_t>(type.scale));
      } else {
        out += decimalToString(column.longs[i], static_cast<int32_t>(type.scale));
      }
      return;
    case TypeKind::kStruct: {
      out += '{';
      bool first = true;
      for (size_t c = 0; c < column.children.size(); ++c) {
        if (!column.children[c]) continue;
        if (!first) out += ", ";
        first = false;
        appendJsonString(out, type.children[c]->name);
        out += ": ";
        appendJson(*column.children[c], i, out);
      }
      out += '}';
      return;
    }
    case TypeKind::kList:
      out += '[';
      for (uint64_t e = column.offsets[i]; e < column.offsets[i + 1]; ++e) {
        if (e > column.offsets[i]) out += ", ";
        appendJson(*column.children[0], e, out);
      }
      out += ']';
      return;
    case TypeKind::kMap:
      out += '[';
      for (uint64_t e = column.offsets[i]; e < column.offsets[i + 1]; ++e) {
        if (e > column.offsets[i]) out += ", ";
        out += "{\"key\": ";
        appendJson(*column.children[0], e, out);
        out += ", \"value\": ";
        appendJson(*column.children[1], e, out);
        out += '}';
      }
      out += ']';
      return;
    case TypeKind::kUnion: {
      const auto tag = static_cast<size_t>(column.longs[i]);
      out += "{\"tag\": " + std::to_string(tag) + ", \"value\": ";
      appendJson(*column.children[tag], column.unionSlots[i], out);
      out += '}';
      return;
    }
  }
}

}  // namespace quarry::orc
