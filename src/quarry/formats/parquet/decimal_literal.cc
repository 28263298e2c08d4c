#include "quarry/formats/parquet/decimal_literal.h"

#include <vector>

#include "quarry/common/error.h"

// Rescaling works on decimal digit strings, so a literal of any size and scale is
// exact: 1.255 to scale 2 is the digits "125" with a non-zero remainder, whose
// floor is 125 and ceiling 126 (for -1.255: floor -126, ceiling -125).
namespace quarry::parquet {
namespace {

constexpr Int128 kSaturated = Int128{1} << 120;

void increment(std::string& digits) {
  for (size_t i = digits.size(); i-- > 0;) {
    if (digits[i] == '9') {
      digits[i] = '0';
    } else {
      ++digits[i];
      return;
    }
  }
  digits.insert(digits.begin(), '1');
}

std::string stripZeros(std::string digits) {
  const size_t first = digits.find_first_not_of('0');
  return first == std::string::npos ? "0" : digits.substr(first);
}

}  // namespace

ScaledDecimal rescale(const Decimal& literal, int32_t scale, const std::string& column) {
  const std::string text = literal.toString();
  ScaledDecimal out;
  out.negative = !text.empty() && text[0] == '-';
  std::string digits;
  int64_t fraction = 0;
  bool afterPoint = false;
  for (char c : text) {
    if (c == '.') {
      afterPoint = true;
    } else if (c >= '0' && c <= '9') {
      digits += c;
      fraction += afterPoint;
    }
  }
  std::string truncated;
  bool remainder = false;
  if (scale >= fraction) {
    if (scale - fraction > 100'000) {
      throw InvalidArgument(column + ": the literal " + text +
                            " needs more than 100000 digits at the column's scale");
    }
    truncated = digits + std::string(static_cast<size_t>(scale - fraction), '0');
  } else {
    const size_t keep = digits.size() - static_cast<size_t>(fraction - scale);
    truncated = digits.substr(0, keep);
    remainder = digits.find_first_not_of('0', keep) != std::string::npos;
  }
  truncated = stripZeros(truncated);
  out.exact = !remainder;
  out.floorDigits = truncated;
  out.ceilDigits = truncated;
  const bool zero = truncated == "0";
  out.floorNegative = out.negative && !zero;
  out.ceilNegative = out.negative && !zero;
  if (remainder) {
    // |x| lies strictly between truncated and truncated + 1.
    if (out.negative) {
      increment(out.floorDigits);
      out.floorNegative = true;
    } else {
      increment(out.ceilDigits);
    }
    out.ceilNegative = out.negative && out.ceilDigits != "0";
  }
  return out;
}

Int128 toSaturatedInt128(bool negative, const std::string& digits) {
  if (digits.size() > 36) return negative ? -kSaturated : kSaturated;
  Int128 v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  return negative ? -v : v;
}

/// Big-endian two's complement, minimal length (at least one byte).
std::string toTwosComplement(bool negative, const std::string& digits) {
  std::vector<uint8_t> little;  // magnitude, little endian base 256
  for (char c : digits) {
    uint32_t carry = static_cast<uint32_t>(c - '0');
    for (auto& b : little) {
      const uint32_t cur = b * 10u + carry;
      b = static_cast<uint8_t>(cur);
      carry = cur >> 8;
    }
    while (carry) {
      little.push_back(static_cast<uint8_t>(carry));
      carry >>= 8;
    }
  }
  little.push_back(0);  // room for the sign bit
  if (negative) {
    for (auto& b : little) b = static_cast<uint8_t>(~b);
    for (auto& b : little) {
      if (++b != 0) break;
    }
  }
  // Drop redundant sign bytes.
  while (little.size() > 1) {
    const uint8_t top = little.back();
    const uint8_t next = little[little.size() - 2];
    if ((top == 0x00 && !(next & 0x80)) || (top == 0xFF && (next & 0x80))) {
      little.pop_back();
    } else {
      break;
    }
  }
  return std::string(little.rbegin(), little.rend());
}

}  // namespace quarry::parquet
