#include "quarry/formats/orc/encoding/timezone.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>

#include "quarry/common/error.h"

namespace quarry::orc {
namespace {

/// 2015-01-01 00:00:00 UTC.
constexpr int64_t kOrcEpochUtc = 1420070400;

/// Adds with two's complement wrap-around: a corrupt file's extreme seconds give
/// a wrong time, never undefined behaviour.
int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

/// Zones a Java writer may name that tzdata may lack: the US links only
/// tzdata-legacy ships on newer systems, and java.time's ZoneId.SHORT_IDS.
const std::map<std::string_view, std::string_view>& aliases() {
  static const std::map<std::string_view, std::string_view> kAliases = {
      {"US/Alaska", "America/Anchorage"},
      {"US/Aleutian", "America/Adak"},
      {"US/Arizona", "America/Phoenix"},
      {"US/Central", "America/Chicago"},
      {"US/East-Indiana", "America/Indiana/Indianapolis"},
      {"US/Eastern", "America/New_York"},
      {"US/Hawaii", "Pacific/Honolulu"},
      {"US/Indiana-Starke", "America/Indiana/Knox"},
      {"US/Michigan", "America/Detroit"},
      {"US/Mountain", "America/Denver"},
      {"US/Pacific", "America/Los_Angeles"},
      {"US/Samoa", "Pacific/Pago_Pago"},
      {"ACT", "Australia/Darwin"},
      {"AET", "Australia/Sydney"},
      {"AGT", "America/Argentina/Buenos_Aires"},
      {"ART", "Africa/Cairo"},
      {"AST", "America/Anchorage"},
      {"BET", "America/Sao_Paulo"},
      {"BST", "Asia/Dhaka"},
      {"CAT", "Africa/Harare"},
      {"CNT", "America/St_Johns"},
      {"CST", "America/Chicago"},
      {"CTT", "Asia/Shanghai"},
      {"EAT", "Africa/Addis_Ababa"},
      {"ECT", "Europe/Paris"},
      {"IET", "America/Indiana/Indianapolis"},
      {"IST", "Asia/Kolkata"},
      {"JST", "Asia/Tokyo"},
      {"MIT", "Pacific/Apia"},
      {"NET", "Asia/Yerevan"},
      {"NST", "Pacific/Auckland"},
      {"PLT", "Asia/Karachi"},
      {"PNT", "America/Phoenix"},
      {"PRT", "America/Puerto_Rico"},
      {"PST", "America/Los_Angeles"},
      {"SST", "Pacific/Guadalcanal"},
      {"VST", "Asia/Ho_Chi_Minh"},
  };
  return kAliases;
}

/// Reads big-endian fields of a TZif file, failing on the first read past its end.
class TzifReader {
 public:
  TzifReader(const std::string& name, std::span<const uint8_t> bytes)
      : name_(name), bytes_(bytes) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw IoError("time zone " + name_ + ": not a valid TZif file: " + what + " at offset " +
                  std::to_string(pos_));
  }
  void need(uint64_t n) const {
    if (n > bytes_.size() - pos_)
      fail("it ends early (" + std::to_string(bytes_.size()) + " bytes)");
  }
  uint64_t read(unsigned width) {
    need(width);
    uint64_t value = 0;
    for (unsigned i = 0; i < width; ++i) value = (value << 8) | bytes_[pos_++];
    return value;
  }
  int64_t readSigned(unsigned width) {
    const uint64_t value = read(width);
    return width == 8 ? static_cast<int64_t>(value)
                      : static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(value)));
  }
  void skip(uint64_t n) {
    need(n);
    pos_ += n;
  }
  size_t pos() const { return pos_; }
  std::span<const uint8_t> bytes() const { return bytes_; }

 private:
  const std::string& name_;
  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
};

struct TzifHeader {
  char version = 0;
  uint64_t isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt;
};

TzifHeader readHeader(TzifReader& in) {
  in.need(44);
  const auto bytes = in.bytes().subspan(in.pos());
  if (bytes[0] != 'T' || bytes[1] != 'Z' || bytes[2] != 'i' || bytes[3] != 'f') {
    in.fail("no TZif magic");
  }
  TzifHeader header;
  header.version = static_cast<char>(bytes[4]);
  in.skip(20);
  header.isutcnt = in.read(4);
  header.isstdcnt = in.read(4);
  header.leapcnt = in.read(4);
  header.timecnt = in.read(4);
  header.typecnt = in.read(4);
  header.charcnt = in.read(4);
  if (header.typecnt == 0) in.fail("no local time types");
  return header;
}

uint64_t bodySize(const TzifHeader& h, unsigned timeWidth) {
  return h.timecnt * timeWidth + h.timecnt + h.typecnt * 6 + h.charcnt +
         h.leapcnt * (timeWidth + 4) + h.isstdcnt + h.isutcnt;
}

/// Returns "<+hh[:mm]>" fixed offsets written as GMT+8, GMT-08:00, UTC+5:30.
std::optional<int64_t> fixedOffset(std::string_view name) {
  if (name == "UTC" || name == "GMT" || name == "Z" || name == "Etc/UTC" || name == "Etc/GMT" ||
      name == "UCT" || name == "Universal" || name == "Zulu") {
    return 0;
  }
  if ((name.rfind("GMT", 0) != 0 && name.rfind("UTC", 0) != 0) || name.size() < 5) {
    return std::nullopt;
  }
  const auto rule = PosixTzRule::parse("<GMT>" + std::string(name.substr(3)));
  if (!rule) return std::nullopt;
  // A POSIX string counts west; "GMT+8" is eight hours east as Java reads it.
  return -rule->utcOffsetAt(0);
}

std::filesystem::path zoneDir() {
  const char* dir = std::getenv("TZDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/usr/share/zoneinfo";
}

std::unique_ptr<Timezone> loadZone(const std::string& name) {
  const bool safe = !name.empty() && name.front() != '/' && name.find("..") == std::string::npos;
  if (safe) {
    std::filesystem::path path = zoneDir() / name;
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) {
      if (const auto alias = aliases().find(name); alias != aliases().end()) {
        path = zoneDir() / std::string(alias->second);
      }
    }
    if (std::filesystem::is_regular_file(path, error)) {
      std::ifstream in(path, std::ios::binary);
      const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                       std::istreambuf_iterator<char>());
      if (!in.bad()) return Timezone::fromTzif(name, bytes);
    }
  }
  throw Unsupported("time zone " + name + " is not in the time zone database at " +
                    zoneDir().string() + " (install tzdata or set TZDIR)");
}

}  // namespace

Timezone::Timezone(std::string name, int64_t fixedOffset)
    : name_(std::move(name)), initialOffset_(fixedOffset) {
  orcEpoch_ = kOrcEpochUtc - fixedOffset;
}

const Timezone& Timezone::utc() {
  static const Timezone* const kUtc = &byName("UTC");
  return *kUtc;
}

const Timezone& Timezone::byName(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Timezone>, std::less<>> cache;
  const std::lock_guard lock(mutex);
  if (const auto found = cache.find(name); found != cache.end()) return *found->second;
  std::unique_ptr<Timezone> zone;
  if (const auto offset = fixedOffset(name)) {
    zone.reset(new Timezone(name, *offset));
  } else {
    zone = loadZone(name);
  }
  return *cache.emplace(name, std::move(zone)).first->second;
}

std::unique_ptr<Timezone> Timezone::fromTzif(std::string name, std::span<const uint8_t> bytes) {
  TzifReader in(name, bytes);
  TzifHeader header = readHeader(in);
  unsigned timeWidth = 4;
  if (header.version >= '2') {
    // Skip the 32-bit block: the second header and its 64-bit block follow it.
    in.skip(bodySize(header, 4));
    header = readHeader(in);
    timeWidth = 8;
  }
  in.need(bodySize(header, timeWidth));
  std::unique_ptr<Timezone> zone(new Timezone(std::move(name), 0));
  zone->transitions_.resize(header.timecnt);
  for (auto& transition : zone->transitions_) transition = in.readSigned(timeWidth);
  if (!std::is_sorted(zone->transitions_.begin(), zone->transitions_.end())) {
    in.fail("transition times out of order");
  }
  std::vector<uint8_t> typeIndex(header.timecnt);
  for (auto& index : typeIndex) {
    index = static_cast<uint8_t>(in.read(1));
    if (index >= header.typecnt)
      in.fail("a transition names local time type " + std::to_string(index));
  }
  std::vector<int64_t> typeOffsets(header.typecnt);
  for (auto& offset : typeOffsets) {
    offset = in.readSigned(4);
    in.skip(2);  // isdst, abbreviation index
  }
  zone->offsets_.reserve(header.timecnt);
  for (const uint8_t index : typeIndex) zone->offsets_.push_back(typeOffsets[index]);
  // RFC 8536: local time type 0 applies before the first transition.
  zone->initialOffset_ = typeOffsets[0];
  in.skip(header.charcnt + header.leapcnt * (timeWidth + 4) + header.isstdcnt + header.isutcnt);

  if (timeWidth == 8 && in.pos() < bytes.size() && bytes[in.pos()] == '\n') {
    const auto rest = bytes.subspan(in.pos() + 1);
    const auto end = std::find(rest.begin(), rest.end(), uint8_t{'\n'});
    const std::string footer(rest.begin(), end);
    if (!footer.empty()) {
      zone->future_ = PosixTzRule::parse(footer);
      if (!zone->future_) in.fail("bad footer TZ string '" + footer + "'");
    }
  }
  zone->orcEpoch_ = zone->localToUtc(kOrcEpochUtc);
  return zone;
}

int64_t Timezone::utcOffsetAt(int64_t utcSeconds) const {
  if (transitions_.empty() || utcSeconds < transitions_.front()) {
    // A zone without transitions (Etc/GMT+5) keeps its one rule throughout.
    return future_ && transitions_.empty() ? future_->utcOffsetAt(utcSeconds) : initialOffset_;
  }
  if (future_ && utcSeconds > transitions_.back()) return future_->utcOffsetAt(utcSeconds);
  const auto after = std::upper_bound(transitions_.begin(), transitions_.end(), utcSeconds);
  return offsets_[static_cast<size_t>(after - transitions_.begin()) - 1];
}

int64_t Timezone::localToUtc(int64_t localSeconds) const {
  // Offsets stay within a day of UTC, so the offsets a day before and after are
  // the two sides of any transition near this wall-clock time.
  constexpr int64_t kDay = 86400;
  const int64_t before = utcOffsetAt(wrapAdd(localSeconds, -kDay));
  const int64_t after = utcOffsetAt(wrapAdd(localSeconds, kDay));
  std::optional<int64_t> best;
  for (const int64_t offset : {before, after}) {
    const int64_t candidate = wrapAdd(localSeconds, -offset);
    if (utcOffsetAt(candidate) == offset && (!best || candidate < *best)) best = candidate;
  }
  // None: the clock jumped over this time; read it with the offset before the jump.
  return best ? *best : wrapAdd(localSeconds, -before);
}

int64_t Timezone::utcToLocal(int64_t utcSeconds) const {
  return wrapAdd(utcSeconds, utcOffsetAt(utcSeconds));
}

int64_t writerLocalToUtcSeconds(int64_t localSeconds, const std::string& tzName) {
  return Timezone::byName(tzName).localToUtc(localSeconds);
}

}  // namespace quarry::orc
