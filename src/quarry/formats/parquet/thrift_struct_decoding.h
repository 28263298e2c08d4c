#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/thrift_compact_reader.h"

/// The shared vocabulary of quarry's parquet.thrift decoders
/// (metadata_decoder.cc, page_metadata_decoder.cc); not a public API.
///
/// Each decoder reads one struct by its field ids. The policy, the same for all:
/// - an unknown field id is skipped (a newer writer's field);
/// - a known field whose wire type differs from the spec's is skipped as well,
///   as the code thrift generates for Arrow, parquet-mr and DuckDB does; if the
///   field was required, the missing-field check then rejects the struct;
/// - a required field that is absent is CorruptFile naming struct and field,
///   except ColumnChunk.file_offset, deprecated and given a default by the spec;
/// - enum values are kept as read, known or not;
/// - a union keeps its first member; an empty union counts as absent.
///
/// The macros below keep each field a one-line case: `CASE(3, IS(I64),
/// s.null_count = r.readI64())`. Include this header after all others.
namespace quarry::parquet::detail {

using T = ThriftType;
using Reader = ThriftCompactReader;
using Field = ThriftFieldHeader;

inline constexpr uint32_t bit(int id) {
  return 1u << id;
}

/// Tells whether the field has the wire type the spec declares; skips it if not.
inline bool expect(Reader& r, const Field& f, T type) {
  if (f.type == type) [[likely]]
    return true;
  r.skip(f.type);
  return false;
}

inline bool expectBool(Reader& r, const Field& f) {
  if (isBool(f.type)) [[likely]]
    return true;
  r.skip(f.type);
  return false;
}

/// Reads the header of a list field of `elementType` into `size`. Returns false
/// (with the field skipped) when the field is not such a list.
inline bool expectList(Reader& r, const Field& f, T elementType, uint32_t& size) {
  if (!expect(r, f, T::LIST)) return false;
  ThriftListHeader h = r.readListHeader();
  bool match = h.elementType == elementType || (isBool(elementType) && isBool(h.elementType));
  if (h.size != 0 && !match) {
    r.skipListElements(h);
    return false;
  }
  size = h.size;
  return true;
}

inline void require(Reader& r, uint32_t seen, int id, const char* name) {
  if (!(seen & bit(id))) [[unlikely]]
    r.fail(std::string(name) + " missing");
}

template <class E>
inline E readEnum(Reader& r) {
  return static_cast<E>(r.readI32());
}

/// Reserves room for a list's `n` elements, but never for more bytes than remain
/// in the input: a corrupt size then costs the regrowth of a vector filled by
/// elements actually decoded, not one allocation larger than the file.
template <class Vector>
inline void reserveListElements(Vector& out, uint32_t n, const Reader& r) {
  size_t fit = r.remaining() / sizeof(typename Vector::value_type) + 1;
  out.reserve(std::min<size_t>(n, fit));
}

/// Appends one of a list's `n` elements. Growth doubles as usual but stops at
/// `n`, so a list reserved short by reserveListElements never ends up with more
/// room than the complete list needs.
template <class Vector>
inline typename Vector::reference appendListElement(Vector& out, uint32_t n) {
  if (out.size() == out.capacity()) {
    out.reserve(std::min<size_t>(n, std::max<size_t>(1, 2 * out.capacity())));
  }
  return out.emplace_back();
}

// The list readers below return false, the field skipped, when the field is
// not a list of the declared element type.

inline bool readI64List(Reader& r, const Field& f, std::vector<int64_t>& out) {
  uint32_t n = 0;
  if (!expectList(r, f, T::I64, n)) return false;
  out.clear();
  reserveListElements(out, n, r);
  for (uint32_t i = 0; i < n; ++i) out.push_back(r.readI64());
  return true;
}

inline bool readI64List(Reader& r, const Field& f, std::optional<std::vector<int64_t>>& out) {
  if (!readI64List(r, f, out.emplace())) out.reset();
  return out.has_value();
}

inline bool readBinaryList(Reader& r, const Field& f, std::vector<std::string>& out) {
  uint32_t n = 0;
  if (!expectList(r, f, T::BINARY, n)) return false;
  out.clear();
  reserveListElements(out, n, r);
  for (uint32_t i = 0; i < n; ++i) out.emplace_back(r.readBinaryView());
  return true;
}

/// Decodes the elements of a list<struct> field, each with `decode`.
template <class Element, class Decode>
inline bool readStructList(Reader& r, const Field& f, std::vector<Element>& out, Decode&& decode) {
  uint32_t n = 0;
  if (!expectList(r, f, T::STRUCT, n)) return false;
  out.clear();
  reserveListElements(out, n, r);
  for (uint32_t i = 0; i < n; ++i) decode(r, appendListElement(out, n), i);
  return true;
}

template <class Element, class Decode>
inline bool readStructList(Reader& r, const Field& f, std::optional<std::vector<Element>>& out,
                           Decode&& decode) {
  if (!readStructList(r, f, out.emplace(), decode)) out.reset();
  return out.has_value();
}

// Loops over the fields of a struct; the body switches on `f.id`.
#define FOR_EACH_FIELD(r, f) \
  for (Field f = r.readFieldHeader(); !f.isStop(); f = r.readFieldHeader())

// Records a field as seen when it had the declared wire type.
#define CASE(id, check, action) \
  case id:                      \
    if (check) {                \
      action;                   \
      seen |= bit(id);          \
    }                           \
    break;

// Records a list field as seen when it had the declared type.
#define LIST_CASE(id, read)    \
  case id:                     \
    if (read) seen |= bit(id); \
    break;

// Skips a field the options do not want, without decoding it.
#define WANTED_CASE(id, wanted, check, action) \
  case id:                                     \
    if (!(wanted))                             \
      r.skip(f.type);                          \
    else if (check)                            \
      action;                                  \
    break;

#define IS(type) expect(r, f, T::type)
#define IS_BOOL expectBool(r, f)

void decodeStatistics(ThriftCompactReader& r, Statistics& s);

/// Decodes a union whose members are empty structs: returns the member's field
/// id, or 0 for an empty union, skipping the member's content.
int16_t decodeEmptyMemberUnion(ThriftCompactReader& r);

}  // namespace quarry::parquet::detail
