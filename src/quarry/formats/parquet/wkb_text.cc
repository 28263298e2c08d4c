#include "quarry/formats/parquet/wkb_text.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

enum class GeometryType : uint32_t {
  kPoint = 1,
  kLineString = 2,
  kPolygon = 3,
  kMultiPoint = 4,
  kMultiLineString = 5,
  kMultiPolygon = 6,
  kGeometryCollection = 7,
};

const char* nameOf(GeometryType type) {
  switch (type) {
    case GeometryType::kPoint: return "POINT";
    case GeometryType::kLineString: return "LINESTRING";
    case GeometryType::kPolygon: return "POLYGON";
    case GeometryType::kMultiPoint: return "MULTIPOINT";
    case GeometryType::kMultiLineString: return "MULTILINESTRING";
    case GeometryType::kMultiPolygon: return "MULTIPOLYGON";
    case GeometryType::kGeometryCollection: return "GEOMETRYCOLLECTION";
  }
  return "?";
}

/// A geometry's byte order and type, as its first bytes give them.
struct Header {
  GeometryType type = GeometryType::kPoint;
  bool littleEndian = true;
  bool hasZ = false;
  bool hasM = false;
  size_t offset = 0;  // of the byte-order byte

  /// The coordinates of one point: 2 to 4.
  uint32_t dimensions() const { return 2 + (hasZ ? 1 : 0) + (hasM ? 1 : 0); }
  /// The text after the type name: " ", " Z ", " M " or " ZM ".
  const char* dimensionText() const {
    if (hasZ) return hasM ? " ZM " : " Z ";
    return hasM ? " M " : " ";
  }
};

constexpr uint32_t kEwkbZ = 0x80000000;
constexpr uint32_t kEwkbM = 0x40000000;
constexpr uint32_t kEwkbSrid = 0x20000000;
constexpr bool kNativeLittleEndian = std::endian::native == std::endian::little;
/// The smallest nested geometry: a byte order and a type.
constexpr uint64_t kMinimumGeometryBytes = 5;

class WkbToWkt {
 public:
  WkbToWkt(std::string_view wkb, WktNumberFormat formatNumber, std::string& out)
      : bytes_(wkb), formatNumber_(formatNumber), out_(out) {}

  void run() {
    geometry(0, nullptr);
    if (pos_ != bytes_.size()) {
      fail(pos_, std::to_string(bytes_.size() - pos_) + " bytes follow the geometry");
    }
  }

 private:
  [[noreturn]] void fail(size_t offset, const std::string& what) const {
    throw CorruptFile("the WKB geometry of " + std::to_string(bytes_.size()) +
                      " bytes is invalid at byte " + std::to_string(offset) + ": " + what);
  }

  size_t remaining() const { return bytes_.size() - pos_; }

  /// Checks that `count` items of at least `bytesEach` bytes fit in what remains.
  void needItems(uint64_t count, uint64_t bytesEach, const char* items) const {
    if (count > remaining() / bytesEach) {
      fail(pos_, std::to_string(count) + " " + items + " need at least " +
                     std::to_string(count * bytesEach) + " bytes, " +
                     std::to_string(remaining()) + " remain");
    }
  }

  template <typename T>
  T load(bool littleEndian) {
    if (remaining() < sizeof(T)) {
      fail(pos_, "the value is cut off (" + std::to_string(sizeof(T)) + " bytes needed, " +
                     std::to_string(remaining()) + " remain)");
    }
    T value;
    std::memcpy(&value, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    if constexpr (sizeof(T) == 4) {
      if (littleEndian != kNativeLittleEndian) {
        value = std::bit_cast<T>(__builtin_bswap32(std::bit_cast<uint32_t>(value)));
      }
    } else if constexpr (sizeof(T) == 8) {
      if (littleEndian != kNativeLittleEndian) {
        value = std::bit_cast<T>(__builtin_bswap64(std::bit_cast<uint64_t>(value)));
      }
    }
    return value;
  }

  Header header() {
    Header h;
    h.offset = pos_;
    const uint8_t order = load<uint8_t>(true);
    if (order > 1) {
      fail(h.offset, "byte order " + std::to_string(order) + " is neither 0 (big endian) nor 1");
    }
    h.littleEndian = order == 1;
    const uint32_t code = load<uint32_t>(h.littleEndian);
    const uint32_t iso = code & ~(kEwkbZ | kEwkbM | kEwkbSrid);
    const uint32_t base = iso % 1000;
    const uint32_t dimensions = iso / 1000;  // 1 Z, 2 M, 3 ZM
    if (base < 1 || base > 7 || dimensions > 3) {
      fail(h.offset + 1, "geometry type " + std::to_string(code) +
                             " is not one of 1-7 (+1000 Z, +2000 M, +3000 ZM)");
    }
    h.type = static_cast<GeometryType>(base);
    h.hasZ = (dimensions & 1) != 0 || (code & kEwkbZ) != 0;
    h.hasM = (dimensions & 2) != 0 || (code & kEwkbM) != 0;
    if ((code & kEwkbSrid) != 0) load<uint32_t>(h.littleEndian);  // not shown in WKT
    return h;
  }

  /// Reads a member of a multi-geometry or collection: its Z/M must be its parent's.
  Header member(const Header& parent, const GeometryType* required) {
    const Header h = header();
    if (required != nullptr && h.type != *required) {
      fail(h.offset, std::string("a ") + nameOf(parent.type) + " holds a " + nameOf(h.type) +
                         " (only " + nameOf(*required) + " members are allowed)");
    }
    if (h.hasZ != parent.hasZ || h.hasM != parent.hasM) {
      fail(h.offset, std::string("a ") + nameOf(h.type) + h.dimensionText() + "in a " +
                         nameOf(parent.type) + parent.dimensionText() +
                         "(members must have their parent's Z and M)");
    }
    return h;
  }

  /// Writes one point's coordinates, space-separated, or "EMPTY" when all are NaN
  /// (WKB's empty point); `parenthesized` puts "(...)" around them.
  void point(const Header& h, bool parenthesized) {
    double values[4];
    bool allNaN = true;
    for (uint32_t d = 0; d < h.dimensions(); ++d) {
      values[d] = load<double>(h.littleEndian);
      allNaN = allNaN && std::isnan(values[d]);
    }
    if (allNaN) {
      out_ += "EMPTY";
      return;
    }
    if (parenthesized) out_ += '(';
    for (uint32_t d = 0; d < h.dimensions(); ++d) {
      if (d > 0) out_ += ' ';
      formatNumber_(values[d], out_);
    }
    if (parenthesized) out_ += ')';
  }

  /// A LINESTRING's body (a polygon's ring too): "EMPTY" or "(x y, x y)".
  void lineString(const Header& h) {
    const uint32_t count = load<uint32_t>(h.littleEndian);
    if (count == 0) {
      out_ += "EMPTY";
      return;
    }
    needItems(count, uint64_t{8} * h.dimensions(), "points");
    out_ += '(';
    for (uint32_t i = 0; i < count; ++i) {
      if (i > 0) out_ += ", ";
      for (uint32_t d = 0; d < h.dimensions(); ++d) {
        if (d > 0) out_ += ' ';
        formatNumber_(load<double>(h.littleEndian), out_);
      }
    }
    out_ += ')';
  }

  /// A POLYGON's body: "EMPTY" or "((ring), (ring))".
  void polygon(const Header& h) {
    const uint32_t rings = load<uint32_t>(h.littleEndian);
    if (rings == 0) {
      out_ += "EMPTY";
      return;
    }
    needItems(rings, 4, "rings");
    out_ += '(';
    for (uint32_t i = 0; i < rings; ++i) {
      if (i > 0) out_ += ", ";
      lineString(h);
    }
    out_ += ')';
  }

  /// The count of a multi-geometry or collection, checked against the bytes left.
  uint32_t memberCount(const Header& h) {
    const uint32_t count = load<uint32_t>(h.littleEndian);
    needItems(count, kMinimumGeometryBytes, "members");
    return count;
  }

  void geometry(int depth, const Header* parent) {
    if (depth >= kMaxWkbDepth) {
      fail(pos_, "geometries are nested more than " + std::to_string(kMaxWkbDepth) + " deep");
    }
    const Header h = parent == nullptr ? header() : member(*parent, nullptr);
    out_ += nameOf(h.type);
    out_ += h.dimensionText();
    switch (h.type) {
      case GeometryType::kPoint:
        point(h, true);
        return;
      case GeometryType::kLineString:
        lineString(h);
        return;
      case GeometryType::kPolygon:
        polygon(h);
        return;
      case GeometryType::kMultiPoint:
      case GeometryType::kMultiLineString:
      case GeometryType::kMultiPolygon:
      case GeometryType::kGeometryCollection:
        break;
    }
    const uint32_t count = memberCount(h);
    if (count == 0) {
      out_ += "EMPTY";
      return;
    }
    out_ += '(';
    for (uint32_t i = 0; i < count; ++i) {
      if (i > 0) out_ += ", ";
      switch (h.type) {
        case GeometryType::kMultiPoint: {
          constexpr GeometryType kRequired = GeometryType::kPoint;
          point(member(h, &kRequired), false);
          break;
        }
        case GeometryType::kMultiLineString: {
          constexpr GeometryType kRequired = GeometryType::kLineString;
          lineString(member(h, &kRequired));
          break;
        }
        case GeometryType::kMultiPolygon: {
          constexpr GeometryType kRequired = GeometryType::kPolygon;
          polygon(member(h, &kRequired));
          break;
        }
        default:
          geometry(depth + 1, &h);
          break;
      }
    }
    out_ += ')';
  }

  std::string_view bytes_;
  WktNumberFormat formatNumber_;
  std::string& out_;
  size_t pos_ = 0;
};

}  // namespace

void appendWktOfWkb(std::string_view wkb, WktNumberFormat formatNumber, std::string& out) {
  WkbToWkt(wkb, formatNumber, out).run();
}

}  // namespace quarry::parquet
