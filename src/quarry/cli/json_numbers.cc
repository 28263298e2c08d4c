#include "quarry/cli/json_numbers.h"

namespace quarry::cli {

namespace {

constexpr std::string_view kTwoTo53 = "9007199254740992";
/// DBL_DIG: every decimal of this many significant digits survives a trip
/// through a double and back to that many digits.
constexpr size_t kDoubleDigits = 15;

}  // namespace

bool fitsDouble(std::string_view digits) {
  if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) digits.remove_prefix(1);
  const size_t point = digits.find('.');
  if (point == std::string_view::npos) {
    while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
    // Compare magnitudes as digit strings: longer is larger.
    return digits.size() < kTwoTo53.size() ||
           (digits.size() == kTwoTo53.size() && digits <= kTwoTo53);
  }
  std::string significant;
  significant.reserve(digits.size());
  for (char c : digits) {
    if (c != '.') significant += c;
  }
  // Trailing zeros of the fraction and leading zeros carry no precision.
  size_t fractionZeros = 0;
  for (size_t i = digits.size(); i > point + 1 && digits[i - 1] == '0'; --i) ++fractionZeros;
  significant.resize(significant.size() - fractionZeros);
  const size_t first = significant.find_first_not_of('0');
  return first == std::string::npos || significant.size() - first <= kDoubleDigits;
}

void appendJsonExactNumber(std::string_view digits, BigNumbers big, std::string& out) {
  const bool quoted = big == BigNumbers::kStrings && !fitsDouble(digits);
  if (quoted) out += '"';
  out += digits;
  if (quoted) out += '"';
}

}  // namespace quarry::cli
