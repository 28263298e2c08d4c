// Hostile-bytes corpus test for the footer path: every file of parquet-testing
// is truncated at every offset of its last 64 KiB, and its footer is mutated
// byte by byte. Each variant must either decode or fail with one of quarry's
// errors: never crash, hang, or make an allocation the bytes cannot justify.
// The ASan/UBSan build runs the same test. The corpus is cut into kCorpusSlices
// slices, one test per slice and kind of damage, so that the suite's ctest shards
// (QUARRY_SHARDED_SUITES in CMakeLists.txt) share its minutes under ASan.
#include <gtest/gtest.h>

// GCC cannot see that the replaced operator new below allocates with malloc,
// and flags the matching free() in operator delete.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <random>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/footer.h"
#include "quarry/formats/parquet/schema.h"
#include "quarry/io/memory_storage.h"
#include "tests/support/testdata.h"

// Tracks the largest single allocation made while `gTracking` is set. Replacing
// the global operator new is the one way to see allocations made inside
// std::vector and std::string.
namespace {
std::atomic<bool> gTracking{false};
std::atomic<size_t> gLargestAllocation{0};

void noteAllocation(size_t size) {
  if (!gTracking.load(std::memory_order_relaxed)) return;
  size_t seen = gLargestAllocation.load(std::memory_order_relaxed);
  while (size > seen && !gLargestAllocation.compare_exchange_weak(seen, size)) {
  }
}
}  // namespace

void* operator new(size_t size) {
  noteAllocation(size);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size) {
  noteAllocation(size);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
// The nothrow forms too (std::stable_sort's temporary buffer uses them): every
// form that allocates must pair with the delete above, or a sanitizer build sees
// its own operator new freed with free().
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  noteAllocation(size);
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  noteAllocation(size);
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}

namespace quarry::parquet {
namespace {

using quarry::testing::filesUnder;
using quarry::testing::parquetTestingDir;
using quarry::testing::readFileBytes;

constexpr size_t kTruncationWindow = 64 * 1024;
constexpr size_t kMaxMutationsPerFile = 3000;

/// The most one allocation may take while decoding a damaged variant of a file:
/// no more than the file itself (plus the 64 KiB tail read), or than decoding
/// the intact file needs. The second term exists because decoded structs are
/// larger than their compact-protocol encoding (a ColumnChunk of a few dozen
/// wire bytes is 752 in memory), so an intact footer of many columns may itself
/// need a vector larger than the file. A length field never sets the bound.
size_t allocationBound(size_t fileBytes, size_t intactLargest) {
  return std::max(fileBytes + 64 * 1024, intactLargest);
}

struct Outcome {
  bool decoded = false;
  std::string unexpected;  // set when something other than quarry's errors escaped
};

/// Opens `bytes` as a Parquet file and builds its schema, as `quarry inspect` does.
Outcome openFooter(std::span<const uint8_t> bytes) {
  Outcome outcome;
  auto file = io::MemoryObject::borrow("mem://corpus", bytes);
  try {
    const ParquetFooter footer = readFooter(file);
    FileSchema::build(footer.metadata.schema);
    outcome.decoded = true;
  } catch (const Error&) {
    // CorruptFile, Unsupported, IoError: the expected ways to refuse bad bytes.
  } catch (const std::exception& e) {
    outcome.unexpected = std::string("unexpected exception: ") + e.what();
  }
  return outcome;
}

constexpr int kCorpusSlices = 4;

/// What checking one file costs, roughly, in the units of one metadata byte decoded:
/// its truncated variants (one per byte of its last 64 KiB, each ~400 such units
/// under ASan) and its cut and flipped footers (up to kMaxMutationsPerFile each,
/// each decoding up to the whole metadata).
uint64_t checkingCost(const std::filesystem::path& path) {
  const uint64_t size = std::filesystem::file_size(path);
  uint64_t metadata = 0;
  if (size >= 12) {
    std::ifstream in(path, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(size - 8));
    uint8_t trailer[4] = {};
    in.read(reinterpret_cast<char*>(trailer), sizeof trailer);
    const uint64_t length =
        trailer[0] | trailer[1] << 8 | trailer[2] << 16 | static_cast<uint64_t>(trailer[3]) << 24;
    if (length <= size - 12) metadata = length;
  }
  return std::min<uint64_t>(size, kTruncationWindow) * 400 +
         std::min<uint64_t>(metadata, kMaxMutationsPerFile) * metadata;
}

/// The `slice`-th of kCorpusSlices slices of parquet-testing's files: the slices
/// together are the whole corpus, each file in one of them, and of about equal cost
/// (the costliest file first, each to the slice of least cost so far), in path order.
std::vector<std::filesystem::path> corpus(int slice) {
  auto files = filesUnder(parquetTestingDir(), ".parquet");
  for (auto& f : filesUnder(parquetTestingDir(), ".parquet.encrypted")) files.push_back(f);
  std::vector<std::pair<uint64_t, std::filesystem::path>> byCost;
  for (auto& f : files) byCost.emplace_back(checkingCost(f), f);
  std::sort(byCost.begin(), byCost.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<uint64_t> totals(kCorpusSlices, 0);
  std::vector<std::filesystem::path> sliced;
  for (const auto& [cost, path] : byCost) {
    const auto least = std::min_element(totals.begin(), totals.end()) - totals.begin();
    totals[least] += cost;
    if (least == slice) sliced.push_back(path);
  }
  std::sort(sliced.begin(), sliced.end());
  return sliced;
}

class TrackAllocations {
 public:
  TrackAllocations() {
    gLargestAllocation = 0;
    gTracking = true;
  }
  ~TrackAllocations() { gTracking = false; }
  size_t largest() const { return gLargestAllocation.load(); }
};

/// Returns the largest single allocation decoding the intact `bytes` makes.
size_t intactLargestAllocation(std::span<const uint8_t> bytes) {
  TrackAllocations tracker;
  openFooter(bytes);
  return tracker.largest();
}

/// The parameter is the corpus slice (corpus()).
class FooterRobustnessTest : public ::testing::TestWithParam<int> {};

TEST_P(FooterRobustnessTest, TruncationAtEveryOffsetOfTheLastWindowNeverCrashes) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto files = corpus(GetParam());
  ASSERT_FALSE(files.empty());
  size_t variants = 0;
  for (const auto& path : files) {
    const auto bytes = readFileBytes(path);
    const size_t intact = intactLargestAllocation(bytes);
    const size_t first = bytes.size() > kTruncationWindow ? bytes.size() - kTruncationWindow : 0;
    for (size_t length = first; length < bytes.size(); ++length) {
      TrackAllocations tracker;
      const Outcome outcome = openFooter(std::span<const uint8_t>(bytes.data(), length));
      ASSERT_TRUE(outcome.unexpected.empty())
          << path << " truncated to " << length << ": " << outcome.unexpected;
      ASSERT_LE(tracker.largest(), allocationBound(bytes.size(), intact))
          << path << " truncated to " << length;
      ++variants;
    }
  }
  std::printf("[          ] %zu truncated variants of %zu files\n", variants, files.size());
}

TEST_P(FooterRobustnessTest, MetadataCutShortBehindAValidTrailerNeverCrashes) {
  // Truncation above removes the trailer, so most variants fail at the magic.
  // Here the trailer is rewritten to announce the cut length, so the thrift
  // decoder itself meets every possible premature end of real metadata.
  QUARRY_SKIP_WITHOUT_TESTDATA();
  size_t variants = 0;
  for (const auto& path : corpus(GetParam())) {
    const auto bytes = readFileBytes(path);
    if (bytes.size() < 12 || std::memcmp(bytes.data() + bytes.size() - 4, "PAR1", 4) != 0) continue;
    const size_t size = bytes.size();
    const uint32_t length = bytes[size - 8] | bytes[size - 7] << 8 | bytes[size - 6] << 16 |
                            static_cast<uint32_t>(bytes[size - 5]) << 24;
    if (length > size - 12) continue;
    const size_t intact = intactLargestAllocation(bytes);
    const uint8_t* metadata = bytes.data() + size - 8 - length;
    const size_t stride = std::max<size_t>(1, length / kMaxMutationsPerFile);
    for (uint32_t cut = 1; cut < length; cut += stride) {
      std::vector<uint8_t> file = {'P', 'A', 'R', '1'};
      file.insert(file.end(), metadata, metadata + cut);
      for (int i = 0; i < 4; ++i) file.push_back(static_cast<uint8_t>(cut >> (8 * i)));
      file.insert(file.end(), {'P', 'A', 'R', '1'});
      TrackAllocations tracker;
      const Outcome outcome = openFooter(file);
      ASSERT_TRUE(outcome.unexpected.empty())
          << path << " metadata cut to " << cut << ": " << outcome.unexpected;
      ASSERT_LE(tracker.largest(), allocationBound(size, intact)) << path << " cut to " << cut;
      ++variants;
    }
  }
  std::printf("[          ] %zu cut metadata variants\n", variants);
}

TEST_P(FooterRobustnessTest, FlippedFooterBytesNeverCrash) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  std::mt19937 random(20261130 + GetParam());
  size_t variants = 0;
  size_t decoded = 0;
  for (const auto& path : corpus(GetParam())) {
    auto bytes = readFileBytes(path);
    if (bytes.size() < 12) continue;
    const size_t size = bytes.size();
    const size_t intact = intactLargestAllocation(bytes);
    const uint32_t length = bytes[size - 8] | bytes[size - 7] << 8 | bytes[size - 6] << 16 |
                            static_cast<uint32_t>(bytes[size - 5]) << 24;
    // The mutated region: the metadata and the 8-byte trailer.
    const size_t region = std::min<size_t>(static_cast<size_t>(length) + 8, size);
    const size_t start = size - region;
    const size_t stride = std::max<size_t>(1, region / kMaxMutationsPerFile);
    const uint8_t masks[] = {0xFF, 0x01, 0x80, 0x40};
    for (size_t offset = start, i = 0; offset < size; offset += stride, ++i) {
      const uint8_t mask = i % 5 == 4 ? static_cast<uint8_t>(random() | 1) : masks[i % 5 % 4];
      bytes[offset] ^= mask;
      TrackAllocations tracker;
      const Outcome outcome = openFooter(bytes);
      bytes[offset] ^= mask;
      ASSERT_TRUE(outcome.unexpected.empty())
          << path << " with byte " << offset << " ^= " << int(mask) << ": " << outcome.unexpected;
      ASSERT_LE(tracker.largest(), allocationBound(size, intact))
          << path << " with byte " << offset << " ^= " << int(mask);
      ++variants;
      decoded += outcome.decoded;
    }
  }
  std::printf("[          ] %zu mutated footers, %zu still decodable\n", variants, decoded);
}

INSTANTIATE_TEST_SUITE_P(CorpusSlice, FooterRobustnessTest, ::testing::Range(0, kCorpusSlices));

}  // namespace
}  // namespace quarry::parquet
