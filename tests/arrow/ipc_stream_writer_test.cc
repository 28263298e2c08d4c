#include "quarry/arrow/ipc_stream_writer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "quarry/common/error.h"

/// The Arrow IPC streaming format checked byte by byte against the Arrow
/// specification (arrow.apache.org/docs/format/Columnar.html, "Encapsulated
/// message format": "A 32-bit continuation indicator. The value 0xFFFFFFFF
/// indicates a valid message", "A 32-bit little-endian length prefix indicating
/// the metadata size", "The message metadata as using the Message type
/// flatbuffer", "Padding bytes to an 8-byte boundary", "The message body, whose
/// length must be a multiple of 8 bytes"; the end of the stream is "the 8-byte
/// sequence: 0xFFFFFFFF 0x00000000"). The flatbuffers are read by a reader
/// written here from the FlatBuffers format (root offset, vtable, fields), not
/// by the builder's code.
namespace quarry::arrow {
namespace {

// ---- a FlatBuffers reader of the tables the test looks at

template <typename T>
T load(const uint8_t* at) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  return value;
}

struct Table {
  const uint8_t* at = nullptr;

  /// The field's position, or null when the vtable leaves it out.
  const uint8_t* field(int id) const {
    const uint8_t* vtable = at - load<int32_t>(at);
    const uint16_t vtableSize = load<uint16_t>(vtable);
    if (4 + 2 * id >= vtableSize) return nullptr;
    const uint16_t offset = load<uint16_t>(vtable + 4 + 2 * id);
    return offset == 0 ? nullptr : at + offset;
  }
  template <typename T>
  T scalar(int id, T absent = T{}) const {
    const uint8_t* f = field(id);
    return f == nullptr ? absent : load<T>(f);
  }
  const uint8_t* target(int id) const {
    const uint8_t* f = field(id);
    return f == nullptr ? nullptr : f + load<uint32_t>(f);
  }
  Table table(int id) const { return {target(id)}; }
  std::string string(int id) const {
    const uint8_t* s = target(id);
    return s == nullptr ? std::string()
                        : std::string(reinterpret_cast<const char*>(s + 4), load<uint32_t>(s));
  }
  /// A vector's length and its first element.
  std::pair<uint32_t, const uint8_t*> vector(int id) const {
    const uint8_t* v = target(id);
    return v == nullptr ? std::pair<uint32_t, const uint8_t*>{0, nullptr}
                        : std::pair{load<uint32_t>(v), v + 4};
  }
  Table tableAt(int id, uint32_t i) const {
    const uint8_t* element = vector(id).second + 4 * i;
    return {element + load<uint32_t>(element)};
  }
};

/// One encapsulated message of a stream.
struct Message {
  int32_t metadataSize = 0;
  Table message;
  const uint8_t* body = nullptr;
  int64_t bodyLength = 0;
};

/// Reads the message at `offset` of `stream`, checking the framing; advances `offset`.
Message readMessage(const std::string& stream, size_t& offset) {
  Message m;
  const auto* bytes = reinterpret_cast<const uint8_t*>(stream.data());
  EXPECT_LE(offset + 8, stream.size());
  EXPECT_EQ(load<uint32_t>(bytes + offset), 0xFFFFFFFFu) << "the continuation marker at " << offset;
  m.metadataSize = load<int32_t>(bytes + offset + 4);
  EXPECT_EQ((offset + 8 + static_cast<size_t>(m.metadataSize)) % 8, 0u)
      << "the body starts 8-aligned";
  const uint8_t* flat = bytes + offset + 8;
  m.message = {flat + load<uint32_t>(flat)};
  EXPECT_EQ(m.message.scalar<int16_t>(0), 4) << "MetadataVersion V5";
  m.bodyLength = m.message.scalar<int64_t>(3);
  EXPECT_EQ(m.bodyLength % 8, 0) << "the body's length is a multiple of 8";
  m.body = flat + m.metadataSize;
  offset += 8 + static_cast<size_t>(m.metadataSize) + static_cast<size_t>(m.bodyLength);
  EXPECT_LE(offset, stream.size());
  return m;
}

// ---- hand-made C Data Interface arrays

struct Column {
  ArrowSchema schema{};
  ArrowArray array{};
  std::vector<const void*> buffers;
  std::vector<ArrowSchema*> childSchemas;
  std::vector<ArrowArray*> childArrays;
};

/// A struct ("+s") schema and array of `columns` (not released: nothing owns memory).
struct Batch {
  ArrowSchema schema{};
  ArrowArray array{};
  std::vector<ArrowSchema*> schemas;
  std::vector<ArrowArray*> arrays;
  const void* noBuffer = nullptr;

  Batch(std::vector<Column*> columns, int64_t length) {
    for (Column* c : columns) {
      schemas.push_back(&c->schema);
      arrays.push_back(&c->array);
    }
    schema.format = "+s";
    schema.name = "";
    schema.n_children = static_cast<int64_t>(columns.size());
    schema.children = schemas.data();
    array.length = length;
    array.n_buffers = 1;
    array.buffers = &noBuffer;
    array.n_children = static_cast<int64_t>(columns.size());
    array.children = arrays.data();
  }
};

void fill(Column& c, const char* format, const char* name, int64_t length, int64_t nulls,
          std::vector<const void*> buffers) {
  c.buffers = std::move(buffers);
  c.schema.format = format;
  c.schema.name = name;
  c.schema.flags = ARROW_FLAG_NULLABLE;
  c.array.length = length;
  c.array.null_count = nulls;
  c.array.n_buffers = static_cast<int64_t>(c.buffers.size());
  c.array.buffers = c.buffers.data();
}

std::string write(Batch& batch, int64_t first = 0, int64_t length = -1) {
  std::string out;
  IpcStreamWriter writer([&out](std::string_view bytes) { out += bytes; });
  writer.writeSchema(batch.schema);
  writer.writeBatch(batch.array, first, length < 0 ? batch.array.length : length);
  writer.end();
  return out;
}

/// The RecordBatch's FieldNode i (length, null_count) and Buffer i (offset, length).
std::pair<int64_t, int64_t> pairAt(const Table& recordBatch, int id, uint32_t i) {
  const uint8_t* element = recordBatch.vector(id).second + 16 * i;
  return {load<int64_t>(element), load<int64_t>(element + 8)};
}

TEST(IpcStreamWriter, AnInt32ColumnIsASchemaARecordBatchAndTheEndMarker) {
  const int32_t values[] = {1, 0, 3};
  const uint8_t validity = 0b101;
  Column x;
  fill(x, "i", "x", 3, 1, {&validity, values});
  Batch batch({&x}, 3);
  const std::string stream = write(batch);

  size_t offset = 0;
  const Message schema = readMessage(stream, offset);
  EXPECT_EQ(schema.message.scalar<uint8_t>(1), 1) << "MessageHeader Schema";
  EXPECT_EQ(schema.bodyLength, 0);
  const Table schemaTable = schema.message.table(2);
  EXPECT_EQ(schemaTable.scalar<int16_t>(0), 0) << "Endianness Little";
  ASSERT_EQ(schemaTable.vector(1).first, 1u);
  const Table field = schemaTable.tableAt(1, 0);
  EXPECT_EQ(field.string(0), "x");
  EXPECT_EQ(field.scalar<uint8_t>(1), 1) << "nullable";
  EXPECT_EQ(field.scalar<uint8_t>(2), 2) << "Type Int";
  EXPECT_EQ(field.table(3).scalar<int32_t>(0), 32) << "bitWidth";
  EXPECT_EQ(field.table(3).scalar<uint8_t>(1), 1) << "is_signed";
  EXPECT_EQ(field.vector(5).first, 0u) << "no children";

  const Message records = readMessage(stream, offset);
  EXPECT_EQ(records.message.scalar<uint8_t>(1), 3) << "MessageHeader RecordBatch";
  const Table recordBatch = records.message.table(2);
  EXPECT_EQ(recordBatch.scalar<int64_t>(0), 3) << "length";
  ASSERT_EQ(recordBatch.vector(1).first, 1u);
  EXPECT_EQ(pairAt(recordBatch, 1, 0), (std::pair<int64_t, int64_t>{3, 1})) << "FieldNode";
  ASSERT_EQ(recordBatch.vector(2).first, 2u);
  // Each buffer starts 8-aligned in the body: the bitmap's byte padded to 8, then 12 bytes of
  // values.
  EXPECT_EQ(pairAt(recordBatch, 2, 0), (std::pair<int64_t, int64_t>{0, 1}));
  EXPECT_EQ(pairAt(recordBatch, 2, 1), (std::pair<int64_t, int64_t>{8, 12}));
  EXPECT_EQ(records.bodyLength, 24);
  EXPECT_EQ(records.body[0], 0b101);
  EXPECT_EQ(std::memcmp(records.body + 8, values, 12), 0);

  ASSERT_EQ(offset + 8, stream.size()) << "the end-of-stream marker ends the stream";
  EXPECT_EQ(stream.substr(offset), std::string("\xFF\xFF\xFF\xFF\0\0\0\0", 8));
}

TEST(IpcStreamWriter, ASliceShiftsTheBitmapAndRebasesStringOffsets) {
  // Rows 1..2 of ["ab", NULL, "cde", "f"]: [NULL, "cde"] with offsets 0, 0, 3.
  const int64_t offsets[] = {0, 2, 2, 5, 6};
  const char data[] = "abcdef";
  const uint8_t validity = 0b1101;
  Column s;
  fill(s, "U", "s", 4, 1, {&validity, offsets, data});
  Batch batch({&s}, 4);
  const std::string stream = write(batch, 1, 2);
  size_t offset = 0;
  readMessage(stream, offset);
  const Message records = readMessage(stream, offset);
  const Table recordBatch = records.message.table(2);
  EXPECT_EQ(recordBatch.scalar<int64_t>(0), 2);
  EXPECT_EQ(pairAt(recordBatch, 1, 0), (std::pair<int64_t, int64_t>{2, 1}));
  const auto [bitsAt, bitsLength] = pairAt(recordBatch, 2, 0);
  EXPECT_EQ(bitsLength, 1);
  EXPECT_EQ(records.body[bitsAt] & 0b11, 0b10) << "row 1's bit is bit 0";
  const auto [offsetsAt, offsetsLength] = pairAt(recordBatch, 2, 1);
  ASSERT_EQ(offsetsLength, 24);
  EXPECT_EQ(load<int64_t>(records.body + offsetsAt + 8), 0);
  EXPECT_EQ(load<int64_t>(records.body + offsetsAt + 16), 3);
  const auto [dataAt, dataLength] = pairAt(recordBatch, 2, 2);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(records.body + dataAt),
                        static_cast<size_t>(dataLength)),
            "cde");
  EXPECT_EQ(dataAt % 8, 0);
}

TEST(IpcStreamWriter, AColumnWithoutNullsLeavesItsBitmapOut) {
  const double values[] = {0.5, -0.0};
  Column d;
  fill(d, "g", "d", 2, 0, {nullptr, values});
  Batch batch({&d}, 2);
  const std::string stream = write(batch);
  size_t offset = 0;
  const Message schema = readMessage(stream, offset);
  const Table field = schema.message.table(2).tableAt(1, 0);
  EXPECT_EQ(field.scalar<uint8_t>(2), 3) << "Type FloatingPoint";
  EXPECT_EQ(field.table(3).scalar<int16_t>(0), 2) << "Precision DOUBLE";
  const Message records = readMessage(stream, offset);
  const Table recordBatch = records.message.table(2);
  EXPECT_EQ(pairAt(recordBatch, 2, 0).second, 0) << "validity buffer of length 0";
  EXPECT_EQ(pairAt(recordBatch, 2, 1), (std::pair<int64_t, int64_t>{0, 16}));
  EXPECT_EQ(std::memcmp(records.body, values, 16), 0);
}

TEST(IpcStreamWriter, TypesCarryTheirParametersAndAListItsChild) {
  const int64_t listOffsets[] = {0, 2};
  const int32_t elements[] = {7, 8};
  const int64_t stamps[] = {1};
  Column item, list, ts, dec;
  fill(item, "i", "item", 2, 0, {nullptr, elements});
  fill(list, "+L", "l", 1, 0, {nullptr, listOffsets});
  list.childSchemas = {&item.schema};
  list.childArrays = {&item.array};
  list.schema.n_children = list.array.n_children = 1;
  list.schema.children = list.childSchemas.data();
  list.array.children = list.childArrays.data();
  fill(ts, "tsu:UTC", "ts", 1, 0, {nullptr, stamps});
  const __int128 decimals[] = {1234};
  fill(dec, "d:9,2", "dec", 1, 0, {nullptr, decimals});
  Batch batch({&list, &ts, &dec}, 1);
  const std::string stream = write(batch);
  size_t offset = 0;
  const Table schema = readMessage(stream, offset).message.table(2);
  const Table l = schema.tableAt(1, 0);
  EXPECT_EQ(l.scalar<uint8_t>(2), 21) << "Type LargeList";
  ASSERT_EQ(l.vector(5).first, 1u);
  EXPECT_EQ(l.tableAt(5, 0).string(0), "item");
  EXPECT_EQ(l.tableAt(5, 0).scalar<uint8_t>(2), 2) << "Type Int";
  const Table t = schema.tableAt(1, 1);
  EXPECT_EQ(t.scalar<uint8_t>(2), 10) << "Type Timestamp";
  EXPECT_EQ(t.table(3).scalar<int16_t>(0), 2) << "MICROSECOND";
  EXPECT_EQ(t.table(3).string(1), "UTC");
  const Table d = schema.tableAt(1, 2);
  EXPECT_EQ(d.scalar<uint8_t>(2), 7) << "Type Decimal";
  EXPECT_EQ(d.table(3).scalar<int32_t>(0), 9);
  EXPECT_EQ(d.table(3).scalar<int32_t>(1), 2);
  EXPECT_EQ(d.table(3).scalar<int32_t>(2), 128);
  const Table recordBatch = readMessage(stream, offset).message.table(2);
  // Nodes depth first: the list, its child, the timestamp, the decimal.
  EXPECT_EQ(recordBatch.vector(1).first, 4u);
  EXPECT_EQ(pairAt(recordBatch, 1, 1), (std::pair<int64_t, int64_t>{2, 0}));
  EXPECT_EQ(recordBatch.vector(2).first, 8u);
}

TEST(IpcStreamWriter, AnUnknownFormatOrADictionaryOfNonStringsIsRefusedNamingTheColumn) {
  Column odd;
  fill(odd, "+m", "m", 0, 0, {nullptr});
  Batch batch({&odd}, 0);
  try {
    write(batch);
    ADD_FAILURE() << "a map was written";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("'m'"), std::string::npos) << e.what();
  }
  Column keys, numbers;
  fill(numbers, "g", "", 0, 0, {nullptr, nullptr});
  fill(keys, "i", "k", 0, 0, {nullptr, nullptr});
  keys.schema.dictionary = &numbers.schema;
  keys.array.dictionary = &numbers.array;
  Batch coded({&keys}, 0);
  try {
    write(coded);
    ADD_FAILURE() << "a dictionary of doubles was written";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("column 'k'"), std::string::npos) << e.what();
  }
}

TEST(IpcStreamWriter, ADictionaryOfStringsIsWrittenAsItsValuesDecoded) {
  // Indices [2, 0, x, 1, 2] (x null) into ["rail", "air", "sea"], rows 1..4 written:
  // the field is Utf8 and the body is "rail", null, "air", "sea" laid end to end.
  const int32_t wordOffsets[] = {0, 4, 7, 10};
  const char wordBytes[] = "railairsea";
  const int16_t indices[] = {2, 0, 99, 1, 2};
  const uint8_t validity = 0b11011;
  Column keys, words;
  fill(words, "u", "", 3, 0, {nullptr, wordOffsets, wordBytes});
  fill(keys, "s", "mode", 5, 1, {&validity, indices});
  keys.schema.dictionary = &words.schema;
  keys.array.dictionary = &words.array;
  Batch batch({&keys}, 5);
  const std::string stream = write(batch, 1, 4);

  size_t offset = 0;
  const Table field = readMessage(stream, offset).message.table(2).tableAt(1, 0);
  EXPECT_EQ(field.string(0), "mode");
  EXPECT_EQ(field.scalar<uint8_t>(2), 5) << "Type Utf8, not the indices' Int";
  EXPECT_EQ(field.target(4), nullptr) << "no DictionaryEncoding";
  const Message records = readMessage(stream, offset);
  const Table recordBatch = records.message.table(2);
  EXPECT_EQ(pairAt(recordBatch, 1, 0), (std::pair<int64_t, int64_t>{4, 1})) << "FieldNode";
  ASSERT_EQ(recordBatch.vector(2).first, 3u);
  const auto [bitsAt, bitsLength] = pairAt(recordBatch, 2, 0);
  EXPECT_EQ(bitsLength, 1);
  EXPECT_EQ(records.body[bitsAt], 0b1101) << "rows 1..4 of 0b11011, shifted to bit 0";
  const auto [offsetsAt, offsetsLength] = pairAt(recordBatch, 2, 1);
  ASSERT_EQ(offsetsLength, 5 * 4);
  const int32_t wantOffsets[] = {0, 4, 4, 7, 10};
  EXPECT_EQ(std::memcmp(records.body + offsetsAt, wantOffsets, sizeof(wantOffsets)), 0);
  const auto [bytesAt, bytesLength] = pairAt(recordBatch, 2, 2);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(records.body + bytesAt),
                        static_cast<size_t>(bytesLength)),
            "railairsea");
}

TEST(IpcStreamWriter, ADictionaryIndexPastTheDictionaryIsAnError) {
  const int64_t wordOffsets[] = {0, 3};
  const char wordBytes[] = "air";
  const int32_t indices[] = {0, 1};
  Column keys, words;
  fill(words, "U", "", 1, 0, {nullptr, wordOffsets, wordBytes});
  fill(keys, "i", "mode", 2, 0, {nullptr, indices});
  keys.schema.dictionary = &words.schema;
  keys.array.dictionary = &words.array;
  Batch batch({&keys}, 2);
  try {
    write(batch);
    ADD_FAILURE() << "an index past the dictionary was written";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("index 1 is past a dictionary of 1 values"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace quarry::arrow
