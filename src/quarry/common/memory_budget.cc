#include "quarry/common/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>

#include "quarry/common/error.h"

namespace quarry {
namespace {

std::atomic<uint64_t> limitBytes{0};  // 0: the default, computed when first asked
std::atomic<uint64_t> chargedBytes{0};

}  // namespace

uint64_t defaultMemoryLimit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long pageSize = sysconf(_SC_PAGESIZE);
  uint64_t limit = pages > 0 && pageSize > 0
                       ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) / 2
                       : uint64_t{4} << 30;
  // Under `ulimit -v` an allocation past the address space fails anyway, as
  // bad_alloc and without naming the column: the budget says so first.
  rlimit address{};
  if (getrlimit(RLIMIT_AS, &address) == 0 && address.rlim_cur != RLIM_INFINITY) {
    limit = std::min<uint64_t>(limit, static_cast<uint64_t>(address.rlim_cur) / 2);
  }
  return std::max<uint64_t>(limit, uint64_t{64} << 20);
}

uint64_t memoryLimit() {
  uint64_t limit = limitBytes.load(std::memory_order_relaxed);
  if (limit == 0) {
    uint64_t expected = 0;
    limitBytes.compare_exchange_strong(expected, defaultMemoryLimit());
    limit = limitBytes.load(std::memory_order_relaxed);
  }
  return limit;
}

void setMemoryLimit(uint64_t bytes) {
  if (bytes == 0) throw InvalidArgument("the memory limit must be above 0 bytes");
  limitBytes.store(bytes, std::memory_order_relaxed);
}

uint64_t memoryCharged() { return chargedBytes.load(std::memory_order_relaxed); }

uint64_t parseMemorySize(std::string_view text) {
  auto invalid = [&] {
    return InvalidArgument("'" + std::string(text) +
                           "' is not a memory size (a number and a unit, e.g. 512MB or 2GB)");
  };
  std::string compact;
  for (const char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) {
      compact += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  size_t digits = 0;
  while (digits < compact.size() &&
         (std::isdigit(static_cast<unsigned char>(compact[digits])) || compact[digits] == '.')) {
    ++digits;
  }
  if (digits == 0 || std::count(compact.begin(), compact.begin() + digits, '.') > 1) throw invalid();
  std::string unit = compact.substr(digits);
  if (unit.size() == 3 && unit[1] == 'I' && unit[2] == 'B') unit.erase(1, 1);  // MiB -> MB
  int shift = -1;
  if (unit.empty() || unit == "B") shift = 0;
  if (unit == "K" || unit == "KB") shift = 10;
  if (unit == "M" || unit == "MB") shift = 20;
  if (unit == "G" || unit == "GB") shift = 30;
  if (unit == "T" || unit == "TB") shift = 40;
  if (shift < 0) throw invalid();
  const double number = std::strtod(compact.substr(0, digits).c_str(), nullptr);
  const double bytes = std::ldexp(number, shift);
  if (!(bytes >= 1) || bytes > 0x1p62) throw invalid();
  return static_cast<uint64_t>(bytes);
}

std::string formatMemorySize(uint64_t bytes) {
  static const char* const kUnits[] = {"KB", "MB", "GB", "TB"};
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  double value = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (value == std::floor(value)) {
    std::snprintf(text, sizeof text, "%.0f %s", value, kUnits[unit]);
  } else {
    std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
  }
  return text;
}

MemoryCharge& MemoryCharge::operator=(MemoryCharge&& other) noexcept {
  if (this != &other) {
    release();
    bytes_ = other.bytes_;
    other.bytes_ = 0;
  }
  return *this;
}

void MemoryCharge::add(uint64_t bytes, const char* what) {
  const uint64_t limit = memoryLimit();
  const uint64_t before = chargedBytes.fetch_add(bytes, std::memory_order_relaxed);
  if (bytes > limit || before > limit - bytes) {
    chargedBytes.fetch_sub(bytes, std::memory_order_relaxed);
    throw MemoryLimitExceeded("query exceeded its memory limit of " + formatMemorySize(limit) +
                              " (" + what + " need " + std::to_string(bytes) + " bytes, " +
                              std::to_string(before) + " are in use)");
  }
  bytes_ += bytes;
}

void MemoryCharge::release() noexcept {
  if (bytes_ != 0) chargedBytes.fetch_sub(bytes_, std::memory_order_relaxed);
  bytes_ = 0;
}

}  // namespace quarry
