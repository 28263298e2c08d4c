#pragma once

#include <string>
#include <string_view>

/// Well-known text (WKT) of a well-known binary (WKB) geometry: what a Parquet
/// GEOMETRY or GEOGRAPHY value holds, shown as text.
///
/// WKB is a tree of geometries, each a byte order (0 big endian, 1 little
/// endian; each nested geometry has its own), a 32-bit type, then its body:
/// POINT: the coordinates; LINESTRING: a count and that many points; POLYGON: a
/// count of rings, each a LINESTRING body; MULTIPOINT, MULTILINESTRING,
/// MULTIPOLYGON, GEOMETRYCOLLECTION: a count of whole nested geometries. The type
/// is 1-7 plus 1000 for Z, 2000 for M, 3000 for ZM (ISO), or with EWKB's flags
/// (0x80000000 Z, 0x40000000 M, 0x20000000 an SRID of 4 bytes after the type,
/// which WKT does not show). Worked example, little endian:
///
///   01 | 01000000 | 000000000000F03F 0000000000000040   ->  POINT (1 2)
///
/// The text follows DuckDB 1.5 (its GEOMETRY's CAST to VARCHAR): "POINT Z (1 2
/// 3)"; a point whose coordinates are all NaN is "POINT EMPTY"; no count is
/// "LINESTRING EMPTY"; a MULTIPOINT lists bare coordinates, "MULTIPOINT (1 2, 3
/// 4)"; an empty member of a multi-geometry or ring is "EMPTY". Numbers are
/// formatted by the caller.
///
/// The bytes are untrusted: every count is checked against the bytes that remain
/// before anything is read or written for it (the text is at most a small
/// multiple of the input), nesting is bounded by kMaxWkbDepth, and any defect
/// throws CorruptFile saying what and at which byte: a cut-off value, an unknown
/// byte order or type, a MULTIPOINT member that is not a POINT (and so on), a
/// member whose Z/M differs from its parent's, or bytes after the geometry.
/// DuckDB refuses all of these too (its query fails), but for the last it reads
/// the trailing bytes as further geometries and fails only if they do not parse.
namespace quarry::parquet {

/// Geometries nested deeper than this (GEOMETRYCOLLECTIONs in GEOMETRYCOLLECTIONs;
/// the outermost is at depth 0) are refused, as DuckDB refuses them.
constexpr int kMaxWkbDepth = 16;

/// Appends the text of one coordinate to `out`.
using WktNumberFormat = void (*)(double value, std::string& out);

/// Appends the WKT of the WKB geometry `wkb` to `out`, each coordinate written by
/// `formatNumber`. Throws CorruptFile (the message names the byte offset) when
/// `wkb` is not exactly one well-formed geometry; `out` may then hold part of it.
void appendWktOfWkb(std::string_view wkb, WktNumberFormat formatNumber, std::string& out);

}  // namespace quarry::parquet
