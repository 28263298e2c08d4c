#include "quarry/arrow/ipc_stream_writer.h"

#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "quarry/arrow/flat_builder.h"
#include "quarry/arrow/released.h"
#include "quarry/common/error.h"

namespace quarry::arrow {

namespace {

using Layout = IpcStreamWriter::Layout;
using Ref = FlatBuilder::Ref;

// Message.fbs and Schema.fbs: the union members and enum values written here.
constexpr int16_t kMetadataV5 = 4;
constexpr uint8_t kHeaderSchema = 1;
constexpr uint8_t kHeaderRecordBatch = 3;
enum TypeId : uint8_t {
  kTypeNull = 1,
  kTypeInt = 2,
  kTypeFloatingPoint = 3,
  kTypeBinary = 4,
  kTypeUtf8 = 5,
  kTypeBool = 6,
  kTypeDecimal = 7,
  kTypeDate = 8,
  kTypeTime = 9,
  kTypeTimestamp = 10,
  kTypeList = 12,
  kTypeStruct = 13,
  kTypeFixedSizeBinary = 15,
  kTypeDuration = 18,
  kTypeLargeBinary = 19,
  kTypeLargeUtf8 = 20,
  kTypeLargeList = 21,
};

constexpr uint32_t kContinuation = 0xFFFFFFFF;

int64_t padded(int64_t n) {
  return (n + 7) & ~int64_t{7};
}

[[noreturn]] void unsupportedFormat(const std::string& format, const std::string& name) {
  throw Unsupported("column '" + name + "': the Arrow format '" + format +
                    "' cannot be written as an IPC stream");
}

/// TimeUnit of Schema.fbs (SECOND 0 .. NANOSECOND 3) from a format's unit letter.
int16_t timeUnit(char letter, const std::string& format, const std::string& name) {
  switch (letter) {
    case 's':
      return 0;
    case 'm':
      return 1;
    case 'u':
      return 2;
    case 'n':
      return 3;
    default:
      unsupportedFormat(format, name);
  }
}

/// Returns the number N of a format "X:N" from `from`, or throws.
int32_t formatNumber(const std::string& format, size_t& from, const std::string& name) {
  size_t used = 0;
  int32_t value = 0;
  try {
    value = std::stoi(format.substr(from), &used);
  } catch (const std::exception&) {
    unsupportedFormat(format, name);
  }
  from += used;
  return value;
}

/// A Type table with no fields (Null, Bool, Utf8, ..., Struct_).
Ref emptyTable(FlatBuilder& b) {
  b.startTable();
  return b.endTable();
}

/// Builds the Type table of `format`, filling `column`'s layout; sets `typeId`.
Ref typeTable(FlatBuilder& b, IpcStreamWriter::Column& column, uint8_t& typeId) {
  const std::string& f = column.format;
  const std::string& name = column.name;
  auto fixed = [&](int64_t width) {
    column.layout = Layout::kFixed;
    column.width = width;
  };
  if (f.size() == 1) {
    const char c = f[0];
    switch (c) {
      case 'n':
        typeId = kTypeNull;
        column.layout = Layout::kNull;
        return emptyTable(b);
      case 'b':
        typeId = kTypeBool;
        column.layout = Layout::kBoolean;
        return emptyTable(b);
      case 'c':
      case 'C':
      case 's':
      case 'S':
      case 'i':
      case 'I':
      case 'l':
      case 'L': {
        const int32_t bits = c == 'c' || c == 'C'   ? 8
                             : c == 's' || c == 'S' ? 16
                             : c == 'i' || c == 'I' ? 32
                                                    : 64;
        fixed(bits / 8);
        typeId = kTypeInt;
        b.startTable();
        b.addInt32(0, bits);                         // bitWidth
        b.addInt8(1, c >= 'a' && c <= 'z' ? 1 : 0);  // is_signed
        return b.endTable();
      }
      case 'e':
      case 'f':
      case 'g':
        fixed(c == 'e' ? 2 : c == 'f' ? 4 : 8);
        typeId = kTypeFloatingPoint;
        b.startTable();
        b.addInt16(0, static_cast<int16_t>(c == 'e' ? 0 : c == 'f' ? 1 : 2));  // precision
        return b.endTable();
      case 'z':
      case 'u':
        column.layout = Layout::kBinary32;
        typeId = c == 'z' ? kTypeBinary : kTypeUtf8;
        return emptyTable(b);
      case 'Z':
      case 'U':
        column.layout = Layout::kBinary64;
        typeId = c == 'Z' ? kTypeLargeBinary : kTypeLargeUtf8;
        return emptyTable(b);
      default:
        unsupportedFormat(f, name);
    }
  }
  if (f.starts_with("d:")) {
    size_t at = 2;
    const int32_t precision = formatNumber(f, at, name);
    if (at >= f.size() || f[at] != ',') unsupportedFormat(f, name);
    ++at;
    const int32_t scale = formatNumber(f, at, name);
    int32_t bits = 128;
    if (at < f.size()) {
      if (f[at] != ',') unsupportedFormat(f, name);
      ++at;
      bits = formatNumber(f, at, name);
    }
    if (at != f.size() || (bits != 128 && bits != 256)) unsupportedFormat(f, name);
    fixed(bits / 8);
    typeId = kTypeDecimal;
    b.startTable();
    b.addInt32(0, precision);
    b.addInt32(1, scale);
    b.addInt32(2, bits);
    return b.endTable();
  }
  if (f.starts_with("w:")) {
    size_t at = 2;
    const int32_t width = formatNumber(f, at, name);
    if (at != f.size() || width <= 0) unsupportedFormat(f, name);
    fixed(width);
    typeId = kTypeFixedSizeBinary;
    b.startTable();
    b.addInt32(0, width);  // byteWidth
    return b.endTable();
  }
  if (f == "tdD" || f == "tdm") {
    fixed(f == "tdD" ? 4 : 8);
    typeId = kTypeDate;
    b.startTable();
    b.addInt16(0, static_cast<int16_t>(f == "tdD" ? 0 : 1));  // DAY, MILLISECOND
    return b.endTable();
  }
  if (f.size() == 3 && (f.starts_with("tt") || f.starts_with("tD"))) {
    const int16_t unit = timeUnit(f[2], f, name);
    b.startTable();
    b.addInt16(0, unit);
    if (f[1] == 't') {
      const int32_t bits = unit <= 1 ? 32 : 64;  // time32 for s and ms, time64 for us and ns
      fixed(bits / 8);
      typeId = kTypeTime;
      b.addInt32(1, bits);
    } else {
      fixed(8);
      typeId = kTypeDuration;
    }
    return b.endTable();
  }
  if (f.size() >= 4 && f.starts_with("ts") && f[3] == ':') {
    const int16_t unit = timeUnit(f[2], f, name);
    const std::string zone = f.substr(4);
    const Ref zoneRef = zone.empty() ? 0 : b.createString(zone);
    fixed(8);
    typeId = kTypeTimestamp;
    b.startTable();
    b.addInt16(0, unit);
    if (!zone.empty()) b.addRef(1, zoneRef);  // timezone
    return b.endTable();
  }
  if (f == "+l" || f == "+L") {
    column.layout = f == "+l" ? Layout::kList32 : Layout::kList64;
    typeId = f == "+l" ? kTypeList : kTypeLargeList;
    return emptyTable(b);
  }
  if (f == "+s") {
    column.layout = Layout::kStruct;
    typeId = kTypeStruct;
    return emptyTable(b);
  }
  unsupportedFormat(f, name);
}

/// Builds the Field table of `schema` (and its children's), filling `column`.
Ref fieldTable(FlatBuilder& b, const ArrowSchema& schema, IpcStreamWriter::Column& column) {
  column.name = schema.name != nullptr ? schema.name : "";
  column.format = schema.format != nullptr ? schema.format : "";
  if (schema.dictionary != nullptr) {
    // Written decoded: the field is the dictionary's values.
    const std::string indexFormat = column.format;
    if (indexFormat.size() != 1 ||
        std::string_view("cCsSiIlL").find(indexFormat[0]) == std::string_view::npos) {
      throw Unsupported("column '" + column.name + "': dictionary indices of the Arrow format '" +
                        indexFormat + "' cannot be written as an IPC stream");
    }
    const char c = indexFormat[0];
    column.indexWidth = c == 'c' || c == 'C'   ? 1
                        : c == 's' || c == 'S' ? 2
                        : c == 'i' || c == 'I' ? 4
                                               : 8;
    column.indexSigned = c >= 'a' && c <= 'z';
    column.format = schema.dictionary->format != nullptr ? schema.dictionary->format : "";
    if (schema.n_children != 0 || schema.dictionary->n_children != 0 ||
        (column.format != "z" && column.format != "u" && column.format != "Z" &&
         column.format != "U")) {
      throw Unsupported("column '" + column.name + "': a dictionary of '" + column.format +
                        "' values cannot be written as an IPC stream");
    }
  }
  std::vector<Ref> children;
  for (int64_t i = 0; i < schema.n_children; ++i) {
    children.push_back(fieldTable(b, *schema.children[i], column.children.emplace_back()));
  }
  const Ref childrenRef = b.createRefVector(children);
  const Ref nameRef = b.createString(column.name);
  uint8_t typeId = 0;
  const Ref typeRef = typeTable(b, column, typeId);
  const size_t wanted = column.layout == Layout::kStruct ? column.children.size()
                        : column.layout == Layout::kList32 || column.layout == Layout::kList64 ? 1
                                                                                               : 0;
  if (column.children.size() != wanted) {
    throw InvalidArgument("column '" + column.name + "': the Arrow format '" + column.format +
                          "' has " + std::to_string(wanted) + " children, the schema " +
                          std::to_string(column.children.size()));
  }
  b.startTable();
  b.addRef(0, nameRef);
  b.addInt8(1, (schema.flags & ARROW_FLAG_NULLABLE) != 0 ? 1 : 0);
  b.addInt8(2, typeId);
  b.addRef(3, typeRef);
  b.addRef(5, childrenRef);
  return b.endTable();
}

size_t bufferCount(Layout layout) {
  switch (layout) {
    case Layout::kNull:
      return 0;
    case Layout::kStruct:
      return 1;
    case Layout::kBoolean:
    case Layout::kFixed:
    case Layout::kList32:
    case Layout::kList64:
      return 2;
    case Layout::kBinary32:
    case Layout::kBinary64:
      return 3;
  }
  return 0;
}

bool bitAt(const uint8_t* bits, int64_t i) {
  return (bits[i / 8] >> (i % 8) & 1) != 0;
}

}  // namespace

/// A RecordBatch's FieldNodes and Buffers (structs of Message.fbs: two int64
/// each), and the body's pieces; buffers built for the batch are kept here.
struct IpcStreamWriter::Body {
  std::vector<int64_t> nodes;    // length, null_count per node
  std::vector<int64_t> buffers;  // offset, length per buffer
  std::vector<std::string_view> pieces;
  std::deque<std::vector<uint8_t>> built;
  int64_t length = 0;

  void addBuffer(const void* data, int64_t n) {
    buffers.push_back(length);
    buffers.push_back(n);
    pieces.emplace_back(static_cast<const char*>(data), static_cast<size_t>(n));
    length += padded(n);
  }

  /// Adds bits [first, first + count) of `bits` as a bitmap starting at bit 0.
  void addBitmap(const uint8_t* bits, int64_t first, int64_t count) {
    const int64_t bytes = (count + 7) / 8;
    if (first % 8 == 0) {
      addBuffer(bits + first / 8, bytes);
      return;
    }
    std::vector<uint8_t>& shifted = built.emplace_back(static_cast<size_t>(bytes), 0);
    for (int64_t i = 0; i < count; ++i) {
      if (bitAt(bits, first + i)) shifted[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    }
    addBuffer(shifted.data(), bytes);
  }

  /// Adds offsets [first, first + count] rebased to start at 0; returns the
  /// first and last offset as they were.
  template <typename Offset>
  std::pair<int64_t, int64_t> addOffsets(const void* buffer, int64_t first, int64_t count) {
    static const Offset kZero = 0;
    if (buffer == nullptr) {  // a zero-length array may have no offsets
      addBuffer(&kZero, sizeof(Offset));
      return {0, 0};
    }
    const auto* offsets = static_cast<const Offset*>(buffer) + first;
    const Offset base = offsets[0];
    if (base == 0) {
      addBuffer(offsets, static_cast<int64_t>(sizeof(Offset)) * (count + 1));
    } else {
      std::vector<uint8_t>& rebased =
          built.emplace_back(sizeof(Offset) * static_cast<size_t>(count + 1));
      for (int64_t i = 0; i <= count; ++i) {
        const Offset value = static_cast<Offset>(offsets[i] - base);
        std::memcpy(rebased.data() + i * static_cast<int64_t>(sizeof(Offset)), &value,
                    sizeof(Offset));
      }
      addBuffer(rebased.data(), static_cast<int64_t>(rebased.size()));
    }
    return {base, offsets[count]};
  }
};

void IpcStreamWriter::writeMessage(const std::vector<uint8_t>& metadata, const Body* body) {
  static const uint8_t kZeros[8] = {};
  const auto size = static_cast<int32_t>(padded(static_cast<int64_t>(metadata.size())));
  std::string prefix(8, '\0');
  std::memcpy(prefix.data(), &kContinuation, 4);
  std::memcpy(prefix.data() + 4, &size, 4);
  sink_(prefix);
  sink_({reinterpret_cast<const char*>(metadata.data()), metadata.size()});
  sink_({reinterpret_cast<const char*>(kZeros), static_cast<size_t>(size) - metadata.size()});
  if (body == nullptr) return;
  for (std::string_view piece : body->pieces) {
    if (!piece.empty()) sink_(piece);
    const size_t pad =
        static_cast<size_t>(padded(static_cast<int64_t>(piece.size()))) - piece.size();
    if (pad > 0) sink_({reinterpret_cast<const char*>(kZeros), pad});
  }
}

void IpcStreamWriter::writeSchema(const ArrowSchema& schema) {
  if (schema.format == nullptr || std::string_view(schema.format) != "+s") {
    throw InvalidArgument(std::string("an Arrow IPC stream's schema is a struct ('+s'), not '") +
                          (schema.format != nullptr ? schema.format : "") + "'");
  }
  FlatBuilder b;
  columns_.clear();
  columns_.resize(static_cast<size_t>(schema.n_children));
  std::vector<Ref> fields;
  for (int64_t i = 0; i < schema.n_children; ++i) {
    fields.push_back(fieldTable(b, *schema.children[i], columns_[static_cast<size_t>(i)]));
  }
  const Ref fieldsRef = b.createRefVector(fields);
  b.startTable();
  b.addInt16(0, 0);  // endianness: Little
  b.addRef(1, fieldsRef);
  const Ref schemaRef = b.endTable();
  b.startTable();
  b.addInt16(0, kMetadataV5);
  b.addInt8(1, kHeaderSchema);
  b.addRef(2, schemaRef);
  b.addInt64(3, 0);  // bodyLength
  writeMessage(b.finish(b.endTable()), nullptr);
  schemaWritten_ = true;
}

void IpcStreamWriter::addArray(const Column& column, const ArrowArray& array, int64_t start,
                               int64_t length, Body& body) {
  if (column.indexWidth > 0) {
    addDecodedDictionary(column, array, start, length, body);
    return;
  }
  if (array.n_buffers != static_cast<int64_t>(bufferCount(column.layout)) ||
      array.n_children != static_cast<int64_t>(column.children.size())) {
    throw InvalidArgument("column '" + column.name + "': an array of format '" + column.format +
                          "' with " + std::to_string(array.n_buffers) + " buffers and " +
                          std::to_string(array.n_children) + " children");
  }
  if (array.dictionary != nullptr) {
    throw Unsupported("column '" + column.name +
                      "': dictionary-encoded arrays cannot be written as an IPC stream");
  }
  const int64_t physical = array.offset + start;
  if (column.layout == Layout::kNull) {
    body.nodes.push_back(length);
    body.nodes.push_back(length);
    return;
  }
  const auto* validity = static_cast<const uint8_t*>(array.buffers[0]);
  int64_t nulls = 0;
  if (validity != nullptr) {
    if (start == 0 && length == array.length && array.null_count >= 0) {
      nulls = array.null_count;
    } else {
      for (int64_t i = 0; i < length; ++i) nulls += bitAt(validity, physical + i) ? 0 : 1;
    }
  }
  body.nodes.push_back(length);
  body.nodes.push_back(nulls);
  if (nulls == 0) {
    body.addBuffer(nullptr, 0);  // no nulls: the bitmap may be left out
  } else {
    body.addBitmap(validity, physical, length);
  }
  switch (column.layout) {
    case Layout::kNull:
      break;
    case Layout::kBoolean:
      body.addBitmap(static_cast<const uint8_t*>(array.buffers[1]), physical, length);
      break;
    case Layout::kFixed:
      body.addBuffer(static_cast<const uint8_t*>(array.buffers[1]) + physical * column.width,
                     length * column.width);
      break;
    case Layout::kBinary32:
    case Layout::kBinary64:
    case Layout::kList32:
    case Layout::kList64: {
      const bool narrow = column.layout == Layout::kBinary32 || column.layout == Layout::kList32;
      const auto [first, last] = narrow
                                     ? body.addOffsets<int32_t>(array.buffers[1], physical, length)
                                     : body.addOffsets<int64_t>(array.buffers[1], physical, length);
      if (column.layout == Layout::kBinary32 || column.layout == Layout::kBinary64) {
        body.addBuffer(static_cast<const uint8_t*>(array.buffers[2]) + first, last - first);
      } else {
        addArray(column.children[0], *array.children[0], first, last - first, body);
      }
      break;
    }
    case Layout::kStruct:
      for (size_t c = 0; c < column.children.size(); ++c)
        addArray(column.children[c], *array.children[c], physical, length, body);
      break;
  }
}

void IpcStreamWriter::addDecodedDictionary(const Column& column, const ArrowArray& array,
                                           int64_t start, int64_t length, Body& body) {
  const ArrowArray* values = array.dictionary;
  if (values == nullptr || array.n_buffers != 2 || values->n_buffers != 3) {
    throw InvalidArgument("column '" + column.name +
                          "': a dictionary-encoded array without indices and a dictionary of "
                          "offsets and bytes");
  }
  const int64_t physical = array.offset + start;
  const auto* validity = static_cast<const uint8_t*>(array.buffers[0]);
  const auto* indices = static_cast<const uint8_t*>(array.buffers[1]);
  const bool narrow = column.layout == Layout::kBinary32;
  const auto* bytes = static_cast<const char*>(values->buffers[2]);
  auto offsetAt = [&](int64_t k) -> int64_t {
    if (narrow) {
      int32_t offset;
      std::memcpy(&offset, static_cast<const char*>(values->buffers[1]) + k * 4, 4);
      return offset;
    }
    int64_t offset;
    std::memcpy(&offset, static_cast<const char*>(values->buffers[1]) + k * 8, 8);
    return offset;
  };
  auto indexAt = [&](int64_t row) -> int64_t {
    const uint8_t* at = indices + row * column.indexWidth;
    switch (column.indexWidth) {
      case 1:
        return column.indexSigned ? int64_t{static_cast<int8_t>(*at)} : int64_t{*at};
      case 2: {
        uint16_t v;
        std::memcpy(&v, at, 2);
        return column.indexSigned ? int64_t{static_cast<int16_t>(v)} : int64_t{v};
      }
      case 4: {
        uint32_t v;
        std::memcpy(&v, at, 4);
        return column.indexSigned ? int64_t{static_cast<int32_t>(v)} : int64_t{v};
      }
      default: {
        int64_t v;
        std::memcpy(&v, at, 8);
        return v;
      }
    }
  };
  // The rows' values laid end to end, as a plain column of the dictionary's format.
  std::vector<uint8_t>& offsets =
      body.built.emplace_back(static_cast<size_t>(length + 1) * (narrow ? 4 : 8));
  std::vector<uint8_t>& data = body.built.emplace_back();
  int64_t nulls = 0, end = 0;
  for (int64_t i = 0; i <= length; ++i) {
    if (i > 0) {
      const int64_t row = physical + i - 1;
      if (validity != nullptr && !bitAt(validity, row)) {
        ++nulls;
      } else {
        const int64_t k = indexAt(row);
        if (k < 0 || k >= values->length) {
          throw InvalidArgument("column '" + column.name + "': dictionary index " +
                                std::to_string(k) + " is past a dictionary of " +
                                std::to_string(values->length) + " values");
        }
        const int64_t first = offsetAt(values->offset + k), last = offsetAt(values->offset + k + 1);
        data.insert(data.end(), bytes + first, bytes + last);
        end += last - first;
        if (narrow && end > std::numeric_limits<int32_t>::max()) {
          throw Unsupported("column '" + column.name +
                            "': the batch's values exceed the 2 GiB of 32-bit offsets");
        }
      }
    }
    if (narrow) {
      const auto offset = static_cast<int32_t>(end);
      std::memcpy(offsets.data() + i * 4, &offset, 4);
    } else {
      std::memcpy(offsets.data() + i * 8, &end, 8);
    }
  }
  body.nodes.push_back(length);
  body.nodes.push_back(nulls);
  if (nulls == 0) {
    body.addBuffer(nullptr, 0);
  } else {
    body.addBitmap(validity, physical, length);
  }
  body.addBuffer(offsets.data(), static_cast<int64_t>(offsets.size()));
  body.addBuffer(data.data(), static_cast<int64_t>(data.size()));
}

void IpcStreamWriter::writeBatch(const ArrowArray& batch, int64_t first, int64_t length) {
  if (!schemaWritten_) throw InvalidArgument("an Arrow IPC stream's batch before its schema");
  if (first < 0 || length < 0 || first + length > batch.length) {
    throw InvalidArgument("rows " + std::to_string(first) + ".." + std::to_string(first + length) +
                          " of a batch of " + std::to_string(batch.length));
  }
  if (batch.n_children != static_cast<int64_t>(columns_.size())) {
    throw InvalidArgument("a batch of " + std::to_string(batch.n_children) +
                          " columns, the schema has " + std::to_string(columns_.size()));
  }
  if (batch.null_count != 0 && batch.n_buffers > 0 && batch.buffers[0] != nullptr) {
    throw Unsupported("a batch with null rows cannot be written as an IPC record batch");
  }
  Body body;
  for (size_t c = 0; c < columns_.size(); ++c) {
    addArray(columns_[c], *batch.children[c], batch.offset + first, length, body);
  }
  FlatBuilder b;
  const Ref buffers = b.createStructVector(body.buffers.data(), body.buffers.size() / 2, 16, 8);
  const Ref nodes = b.createStructVector(body.nodes.data(), body.nodes.size() / 2, 16, 8);
  b.startTable();
  b.addInt64(0, length);
  b.addRef(1, nodes);
  b.addRef(2, buffers);
  const Ref recordBatch = b.endTable();
  b.startTable();
  b.addInt64(3, body.length);  // bodyLength
  b.addRef(2, recordBatch);
  b.addInt16(0, kMetadataV5);
  b.addInt8(1, kHeaderRecordBatch);
  writeMessage(b.finish(b.endTable()), &body);
}

void IpcStreamWriter::end() {
  std::string marker(8, '\0');
  std::memcpy(marker.data(), &kContinuation, 4);
  sink_(marker);
}

namespace {

[[noreturn]] void streamFailed(ArrowArrayStream& stream, int code) {
  const char* message = stream.get_last_error != nullptr ? stream.get_last_error(&stream) : nullptr;
  throw IoError(message != nullptr ? message
                                   : "the Arrow stream failed (" + std::to_string(code) + ")");
}

}  // namespace

void writeIpcStream(ArrowArrayStream& stream, const IpcStreamWriter::Sink& sink) {
  IpcStreamWriter writer(sink);
  {
    Released<ArrowSchema> schema;
    if (const int code = stream.get_schema(&stream, &schema.value); code != 0)
      streamFailed(stream, code);
    writer.writeSchema(schema.value);
  }
  while (true) {
    Released<ArrowArray> batch;
    if (const int code = stream.get_next(&stream, &batch.value); code != 0)
      streamFailed(stream, code);
    if (batch.value.release == nullptr) break;  // the end of the stream
    writer.writeBatch(batch.value);
  }
  writer.end();
}

}  // namespace quarry::arrow
