#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

/// A FlatBuffers builder of quarry's own, just large enough for the Arrow IPC
/// messages (Message.fbs, Schema.fbs): tables of scalars and references,
/// strings, vectors of references and vectors of structs laid out as raw bytes.
///
/// The buffer is built back to front, as FlatBuffers builders do, so that every
/// reference (an unsigned 32-bit offset) points forward: an object is finished
/// before the table that refers to it, and a Ref is its distance from the end
/// of the buffer. Alignment is kept relative to that end; finish() pads the
/// front so that the whole buffer is a multiple of 8 bytes, which makes the
/// alignment absolute. A table is written as its fields (each aligned to its
/// size), preceded by a 32-bit signed offset back to its vtable (u16 vtable
/// size, u16 table size, a u16 offset per field id, 0 for an absent field),
/// which is placed just before the table.
///
/// Example: a table with one int16 field (id 0) = 4 as the root, 24 bytes:
///   10 00 00 00 | 00 x 6 | 06 00 08 00 06 00 | 06 00 00 00 | 00 00 04 00
///   root offset   pad      vtable (6, 8, +6)   soffset = 6   pad, field
/// (the root offset 16 leads to the table at byte 16, whose soffset leads back
/// to the vtable at byte 10; field 0 is at table + 6, byte 22).
namespace quarry::arrow {

class FlatBuilder {
 public:
  /// An object's position: its distance from the end of the buffer.
  using Ref = uint32_t;

  Ref createString(std::string_view text);
  /// A vector of `count` structs of `elementSize` bytes each, laid out in `bytes`,
  /// aligned to `alignment`.
  Ref createStructVector(const void* bytes, size_t count, size_t elementSize, size_t alignment);
  Ref createRefVector(const std::vector<Ref>& refs);

  /// Starts a table; fields are added by id, then endTable() finishes it.
  void startTable();
  void addInt8(int id, uint8_t value) { addScalar(id, &value, 1); }
  void addInt16(int id, int16_t value) { addScalar(id, &value, 2); }
  void addInt32(int id, int32_t value) { addScalar(id, &value, 4); }
  void addInt64(int id, int64_t value) { addScalar(id, &value, 8); }
  void addRef(int id, Ref ref);
  Ref endTable();

  /// Returns the buffer, `root` its root table.
  std::vector<uint8_t> finish(Ref root);

 private:
  uint32_t size() const { return static_cast<uint32_t>(bytes_.size() - head_); }
  /// Pads the front with zeros so that `width` bytes prepended next end aligned to `alignment`.
  void align(size_t width, size_t alignment);
  void prepend(const void* bytes, size_t n);
  void addScalar(int id, const void* value, size_t n);
  void patch(Ref at, const void* bytes, size_t n);

  std::vector<uint8_t> bytes_;  // the buffer is bytes_[head_, end)
  size_t head_ = 0;
  struct FieldSlot {
    int id;
    Ref at;
  };
  std::vector<FieldSlot> fields_;  // the open table's
  Ref tableStart_ = 0;
};

}  // namespace quarry::arrow
