#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/arrow/c_interface.h"

/// The Arrow IPC streaming format (arrow.apache.org/docs/format/Columnar.html,
/// "Serialization and Interprocess Communication"), written from Arrow C Data
/// Interface arrays: a Schema message, a RecordBatch message per batch, then the
/// end-of-stream marker. Each message is encapsulated: the continuation marker
/// 0xFFFFFFFF, the metadata's length (int32, little-endian), the Message
/// flatbuffer (Message.fbs, Schema.fbs; built by FlatBuilder) padded to 8
/// bytes, then the body: the batch's buffers, each padded to 8 bytes, in the
/// order of a depth-first walk of the columns (a validity bitmap first, then
/// offsets, then values), as the RecordBatch's FieldNodes and Buffers list them.
///
/// Any schema of the C Data Interface formats below is written, so that every
/// exported stream becomes IPC: null "n", boolean "b", integers "c" "C" "s" "S"
/// "i" "I" "l" "L", floats "e" "f" "g", decimals "d:P,S[,128|256]", binary and
/// utf8 with 32-bit ("z" "u") or 64-bit ("Z" "U") offsets, fixed-size binary
/// "w:N", dates "tdD" "tdm", times "tts" "ttm" "ttu" "ttn", timestamps "tsX:zone",
/// durations "tDX", lists "+l" "+L" and structs "+s". A dictionary-encoded
/// column of binary or utf8 values (integer indices, any width) is written as
/// its values, decoded: the stream's field has the dictionary's value type and
/// no DictionaryBatch is sent. Other formats and other dictionaries are refused
/// (Unsupported), naming the column.
/// Arrays with an offset or a slice of a batch are written as their own values
/// (bitmaps shifted, offsets rebased to 0); a bitmap of a column without nulls
/// is left out (length 0), as the format allows. Metadata strings of the C schema
/// are not carried over.
namespace quarry::arrow {

class IpcStreamWriter {
 public:
  /// Receives the stream's bytes, in order.
  using Sink = std::function<void(std::string_view bytes)>;

  explicit IpcStreamWriter(Sink sink) : sink_(std::move(sink)) {}

  /// Writes the Schema message of `schema`, a struct ("+s") whose children are
  /// the columns.
  void writeSchema(const ArrowSchema& schema);

  /// Writes rows [first, first + length) of `batch`, a struct array of the
  /// schema's columns, as a RecordBatch message.
  void writeBatch(const ArrowArray& batch, int64_t first, int64_t length);
  void writeBatch(const ArrowArray& batch) { writeBatch(batch, 0, batch.length); }

  /// Writes the end-of-stream marker.
  void end();

  /// The layout of a column's buffers, told by its format.
  enum class Layout : uint8_t {
    kNull,
    kBoolean,
    kFixed,
    kBinary32,
    kBinary64,
    kList32,
    kList64,
    kStruct
  };
  struct Column {
    std::string name;
    std::string format;
    Layout layout = Layout::kNull;
    int64_t width = 0;  // bytes per value (kFixed)
    std::vector<Column> children;
    /// A dictionary-encoded column (written decoded): its indices' bytes per
    /// value and signedness; 0 for any other column.
    int64_t indexWidth = 0;
    bool indexSigned = true;
  };

 private:
  struct Body;
  void writeMessage(const std::vector<uint8_t>& metadata, const Body* body);
  void addArray(const Column& column, const ArrowArray& array, int64_t start, int64_t length,
                Body& body);
  void addDecodedDictionary(const Column& column, const ArrowArray& array, int64_t start,
                            int64_t length, Body& body);

  Sink sink_;
  std::vector<Column> columns_;
  bool schemaWritten_ = false;
};

/// Writes every batch of `stream` (the consumer's: this reads it, never releases
/// it) as an IPC stream into `sink`. A failing get_schema or get_next throws
/// IoError with the stream's last error.
void writeIpcStream(ArrowArrayStream& stream, const IpcStreamWriter::Sink& sink);

}  // namespace quarry::arrow
