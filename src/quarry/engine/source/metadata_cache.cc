#include "quarry/engine/source/metadata_cache.h"

#include <sys/mman.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

#include "quarry/common/error.h"
#include "quarry/common/thread_pool.h"
#include "quarry/engine/source/byte_codec.h"
#include "quarry/engine/source/file_split.h"

namespace quarry::engine {
namespace {

constexpr char kMagic[8] = {'Q', 'U', 'A', 'R', 'R', 'Y', 'M', 'C'};
// 3: the checksum became a keyed hash (CacheDirectory's secret).
// 4: a file's entry carries a version (a remote object's ETag).
constexpr uint64_t kVersion = 4;
constexpr size_t kHeaderBytes = sizeof kMagic + 4 * 8;  // magic, version, length, keyed hash
/// Larger caches are not written (nor read).
constexpr uint64_t kMaxBytes = uint64_t{1} << 30;

void writeStamp(ByteWriter& w, const io::LocalStamp& s) {
  w.u64(s.device);
  w.u64(s.inode);
  w.u64(s.size);
  w.i64(s.modifiedNs);
  w.i64(s.changedNs);
  w.u64(s.mode);
}

io::LocalStamp readStamp(ByteReader& r) {
  io::LocalStamp s;
  s.device = r.u64("device");
  s.inode = r.u64("inode");
  s.size = r.u64("size");
  s.modifiedNs = r.i64("modification time");
  s.changedNs = r.i64("change time");
  const uint64_t mode = r.u64("mode");
  if (mode > UINT32_MAX) r.fail("mode " + std::to_string(mode) + " out of range");
  s.mode = static_cast<uint32_t>(mode);
  return s;
}

void writeMetadata(ByteWriter& w, const SourceMetadata& m) {
  w.u64(m.schema.size());
  for (const Field& field : m.schema) {
    w.str(field.name);
    w.u8(static_cast<uint8_t>(field.type.kind));
    w.i64(field.type.precision);
    w.i64(field.type.scale);
    w.u8(static_cast<uint8_t>(field.type.unit));
    w.u8(field.type.utcAdjusted ? 1 : 0);
    w.u8(static_cast<uint8_t>(field.type.elementKind));
  }
  w.u64(m.unreadColumns.size());
  for (const UnreadColumn& column : m.unreadColumns) {
    w.str(column.name);
    w.str(column.what);
  }
  w.u8(m.statistics ? 1 : 0);
  if (m.statistics) w.statistics(*m.statistics);
  w.u64(m.fileSize);
  w.u64(m.splits.size());
  for (const FileSplit& split : m.splits) {
    // A split whose statistics are the file's (one row group) shares them again.
    const bool shares = split.statistics != nullptr && split.statistics == m.statistics;
    w.u8(shares ? 1 : 0);
    if (shares) {
      FileSplit bare = split;
      bare.statistics = nullptr;
      w.bytes(serialize(bare));
    } else {
      w.bytes(serialize(split));
    }
  }
}

TypeKind readKind(ByteReader& r, const char* field) {
  const uint8_t kind = r.u8(field);
  if (kind > static_cast<uint8_t>(TypeKind::kList)) {
    r.fail(std::string("unknown ") + field + " " + std::to_string(kind));
  }
  return static_cast<TypeKind>(kind);
}

SourceMetadata readMetadata(ByteReader& r) {
  SourceMetadata m;
  const uint64_t fields = r.count("column count", 8 + 1 + 16 + 3);
  m.schema.reserve(fields);
  for (uint64_t i = 0; i < fields; ++i) {
    Field field;
    field.name = r.str("column name");
    field.type.kind = readKind(r, "type kind");
    const int64_t precision = r.i64("precision");
    const int64_t scale = r.i64("scale");
    if (precision < 0 || precision > 38 || scale < 0 || scale > 38) {
      r.fail("column '" + field.name + "' has decimal precision " + std::to_string(precision) +
             " and scale " + std::to_string(scale));
    }
    field.type.precision = static_cast<int32_t>(precision);
    field.type.scale = static_cast<int32_t>(scale);
    const uint8_t unit = r.u8("time unit");
    if (unit > static_cast<uint8_t>(TimeUnit::kNanos))
      r.fail("unknown time unit " + std::to_string(unit));
    field.type.unit = static_cast<TimeUnit>(unit);
    field.type.utcAdjusted = r.flag("UTC flag");
    field.type.elementKind = readKind(r, "element kind");
    if (field.type.elementKind == TypeKind::kList)
      r.fail("column '" + field.name + "' nests lists");
    m.schema.push_back(std::move(field));
  }
  const uint64_t unread = r.count("unread column count", 16);
  for (uint64_t i = 0; i < unread; ++i) {
    UnreadColumn column;
    column.name = r.str("unread column name");
    column.what = r.str("unread column type");
    m.unreadColumns.push_back(std::move(column));
  }
  if (r.flag("statistics flag"))
    m.statistics = std::make_shared<const SourceStatistics>(r.statistics());
  m.fileSize = r.u64("file size");
  const uint64_t splits = r.count("split count", 9);
  m.splits.reserve(splits);
  for (uint64_t i = 0; i < splits; ++i) {
    const bool shares = r.flag("shared statistics flag");
    if (shares && m.statistics == nullptr) r.fail("a split shares statistics the file lacks");
    FileSplit split = deserializeFileSplit(r.bytes("split"));
    if (shares) {
      if (split.statistics != nullptr) r.fail("a split sharing the file's statistics has its own");
      split.statistics = m.statistics;
    }
    m.splits.push_back(std::move(split));
  }
  return m;
}

/// The path a listing's directory is stamped by ("" is the working directory).
std::string_view stampPath(std::string_view directory) {
  return directory.empty() ? std::string_view(".") : directory;
}

std::string hexHash(std::string_view text) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(XXH64(text.data(), text.size(), 0)));
  return hex;
}

/// XXH3-128 of `payload` under `secret`: what only the secret's reader can compute.
XXH128_hash_t keyedHash(std::span<const uint8_t> payload, const CacheDirectory::Secret& secret) {
  static_assert(CacheDirectory::kSecretBytes >= XXH3_SECRET_SIZE_MIN);
  return XXH3_128bits_withSecret(payload.data(), payload.size(), secret.data(), secret.size());
}

}  // namespace

std::vector<uint8_t> MetadataCache::encode(const Contents& contents, const Secret& secret) {
  ByteWriter payload;
  payload.str(contents.key);
  payload.u64(contents.listings.size());
  for (const auto& [pattern, listing] : contents.listings) {
    payload.str(pattern);
    payload.u64(listing.directories.size());
    for (const auto& [directory, stamp] : listing.directories) {
      payload.str(directory);
      writeStamp(payload, stamp);
    }
    payload.u64(listing.matches.size());
    for (const std::string_view match : listing.matches) payload.str(match);
    payload.i64(listing.listedAtNs);
  }
  payload.u64(contents.files.size());
  for (const FileEntry& file : contents.files) {
    payload.str(file.uri);
    writeStamp(payload, file.stamp);
    payload.str(file.version);
    payload.str(file.format);
    payload.bytes(file.metadata);
  }
  return frame(payload.buffer(), secret);
}

std::vector<uint8_t> MetadataCache::frame(std::span<const uint8_t> payload, const Secret& secret) {
  ByteWriter out;
  for (char c : kMagic) out.u8(static_cast<uint8_t>(c));
  out.u64(kVersion);
  out.u64(payload.size());
  const XXH128_hash_t hash = keyedHash(payload, secret);
  out.u64(hash.low64);
  out.u64(hash.high64);
  std::vector<uint8_t> bytes = out.take();
  bytes.insert(bytes.end(), payload.begin(), payload.end());
  return bytes;
}

MetadataCache::Contents MetadataCache::decode(std::span<const uint8_t> bytes, const Secret& secret) {
  ByteReader header(bytes, "metadata cache");
  header.need(kHeaderBytes, "header");
  if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    header.fail("not a quarry metadata cache");
  for (size_t i = 0; i < sizeof kMagic; ++i) header.u8("magic");
  const uint64_t version = header.u64("version");
  if (version != kVersion) header.fail("unknown version " + std::to_string(version));
  const uint64_t length = header.u64("length");
  XXH128_hash_t recorded;
  recorded.low64 = header.u64("keyed hash");
  recorded.high64 = header.u64("keyed hash");
  if (length != header.remaining()) {
    header.fail("length " + std::to_string(length) + " is not the " +
                std::to_string(header.remaining()) + " bytes that follow");
  }
  const std::span<const uint8_t> body = bytes.subspan(kHeaderBytes);
  // Compared before any field is read: bytes not written with this user's secret
  // (another user's forgery, a bare checksum) give nothing, however well formed.
  if (!XXH128_isEqual(keyedHash(body, secret), recorded)) header.fail("keyed hash mismatch");
  ByteReader r(body, "metadata cache");
  Contents contents;
  contents.key = r.view("key");
  const uint64_t listings = r.count("listing count", 32);
  contents.listings.reserve(listings);
  std::unordered_set<std::string_view> patterns;
  for (uint64_t i = 0; i < listings; ++i) {
    const std::string_view pattern = r.view("pattern");
    if (!patterns.insert(pattern).second) r.fail("duplicate pattern");
    Listing listing;
    const uint64_t directories = r.count("directory count", 8 + 48);
    listing.directories.reserve(directories);
    for (uint64_t d = 0; d < directories; ++d) {
      const std::string_view directory = r.view("directory");
      listing.directories.emplace_back(directory, readStamp(r));
    }
    const uint64_t matches = r.count("match count", 8);
    listing.matches.reserve(matches);
    for (uint64_t m = 0; m < matches; ++m) listing.matches.push_back(r.view("match"));
    listing.listedAtNs = r.i64("listing time");
    contents.listings.emplace_back(pattern, std::move(listing));
  }
  const uint64_t files = r.count("file count", 8 + 48 + 8 + 8 + 8);
  contents.files.reserve(files);
  for (uint64_t i = 0; i < files; ++i) {
    FileEntry file;
    file.uri = r.view("uri");
    file.stamp = readStamp(r);
    file.version = r.view("version");
    file.format = r.view("format");
    file.metadata = r.bytes("metadata");
    contents.files.push_back(file);
  }
  if (r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " trailing bytes");
  return contents;
}

std::vector<uint8_t> MetadataCache::encodeMetadata(const SourceMetadata& metadata) {
  ByteWriter w;
  writeMetadata(w, metadata);
  return w.take();
}

SourceMetadata MetadataCache::decodeMetadata(std::span<const uint8_t> bytes) {
  ByteReader r(bytes, "metadata cache: file metadata");
  SourceMetadata metadata = readMetadata(r);
  if (r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " trailing bytes");
  return metadata;
}

MetadataCache::MetadataCache(std::string directory, std::string key)
    : directory_(directory),
      name_(hexHash(key) + ".qmc"),
      path_(directory + "/" + name_),
      key_(std::move(key)) {
  contents_.key = key_;
  mapped_ = directory_.map(name_, kMaxBytes);
  if (mapped_.empty()) return;
  const std::optional<Secret> secret = directory_.secret();
  try {
    if (!secret) throw CorruptFile("metadata cache: no secret to check it with");
    Contents loaded = decode(mapped_, *secret);
    if (loaded.key == key_) contents_ = std::move(loaded);
  } catch (const Error&) {
    changed_ = true;  // rewritten whole by save()
  }
}

std::optional<std::vector<std::string>> MetadataCache::recall(const std::string& pattern,
                                                              ThreadPool* pool) {
  std::lock_guard lock(mutex_);
  auto it = std::find_if(contents_.listings.begin(), contents_.listings.end(),
                         [&](const auto& listing) { return listing.first == pattern; });
  if (it == contents_.listings.end() || it->second.listedAtNs != 0) return std::nullopt;
  const Listing& listing = it->second;
  // prepare()'s stamps of these directories, else fresh ones.
  auto prepared = std::find_if(listingStamps_.begin(), listingStamps_.end(),
                               [&](const auto& start) { return start.first == pattern; });
  std::vector<std::optional<io::LocalStamp>> fresh;
  if (prepared == listingStamps_.end()) {
    std::vector<std::string_view> paths;
    paths.reserve(listing.directories.size());
    for (const auto& [directory, stamp] : listing.directories)
      paths.push_back(stampPath(directory));
    fresh = io::stampsOf(paths, pool);
  }
  const std::span<const std::optional<io::LocalStamp>> now =
      prepared != listingStamps_.end()
          ? std::span(directoryStamps_).subspan(prepared->second, listing.directories.size())
          : std::span(fresh);
  bool same = true;
  for (size_t i = 0; i < listing.directories.size() && same; ++i)
    same = now[i] && *now[i] == listing.directories[i].second;
  if (!same) {
    if (prepared != listingStamps_.end()) listingStamps_.erase(prepared);
    contents_.listings.erase(it);
    changed_ = true;
    return std::nullopt;
  }
  return std::vector<std::string>(listing.matches.begin(), listing.matches.end());
}

void MetadataCache::remember(const std::string& pattern, const io::GlobListing& listing,
                             const std::vector<std::string>& matches) {
  if (!listing.reusable || matches.empty()) return;
  std::lock_guard lock(mutex_);
  Listing kept;
  kept.directories.reserve(listing.directories.size());
  for (const auto& [directory, stamp] : listing.directories)
    kept.directories.emplace_back(keep(directory), stamp);
  kept.matches.reserve(matches.size());
  for (const std::string& match : matches) kept.matches.push_back(keep(match));
  std::erase_if(contents_.listings, [&](const auto& other) { return other.first == pattern; });
  std::erase_if(listingStamps_, [&](const auto& start) { return start.first == pattern; });
  contents_.listings.emplace_back(keep(pattern), std::move(kept));
  changed_ = true;
}

MetadataCache::~MetadataCache() {
  if (!mapped_.empty()) ::munmap(const_cast<uint8_t*>(mapped_.data()), mapped_.size());
}

std::string_view MetadataCache::keep(std::string_view text) {
  return strings_.emplace_back(text);  // a deque's elements stay where they are
}

const MetadataCache::FileEntry* MetadataCache::find(std::string_view uri, size_t position) const {
  const std::vector<FileEntry>& files = contents_.files;
  if (position < files.size() && files[position].uri == uri) return &files[position];
  std::call_once(indexed_, [&] {
    index_.reserve(files.size());
    for (size_t i = 0; i < files.size(); ++i) index_.emplace(files[i].uri, i);  // the first stays
  });
  auto it = index_.find(uri);
  return it == index_.end() ? nullptr : &files[it->second];
}

std::optional<MetadataCache::Recalled> MetadataCache::recallFile(
    const std::string& uri, size_t position, const io::LocalStamp& stamp) const {
  // contents_ changes only in recall and remember (before any file is looked up)
  // and in save (after).
  const FileEntry* entry = find(uri, position);
  if (entry == nullptr || !entry->version.empty() || !(entry->stamp == stamp)) return std::nullopt;
  // What prepare() decoded is handed out once; a second caller for the same entry
  // (a file the clause lists twice) decodes it again.
  const size_t index = static_cast<size_t>(entry - contents_.files.data());
  if (index < decoded_.size() && decoded_[index] && !taken_[index].exchange(true)) {
    return Recalled{entry->format, std::move(*decoded_[index])};
  }
  try {
    return Recalled{entry->format, decodeMetadata(entry->metadata)};
  } catch (const Error&) {
    return std::nullopt;  // read from the file, and recorded again
  }
}

void MetadataCache::prepare(ThreadPool* pool) {
  // Directories and files are stamped kPrepareChunk at a time (each chunk from the
  // directory its paths share, io::stampsOf); a file chunk then decodes the entries
  // whose stamps held.
  constexpr size_t kPrepareChunk = 64;
  std::vector<std::string_view> directories;
  for (const auto& [pattern, listing] : contents_.listings) {
    listingStamps_.emplace_back(pattern, directories.size());
    for (const auto& [directory, stamp] : listing.directories)
      directories.push_back(stampPath(directory));
  }
  directoryStamps_.assign(directories.size(), std::nullopt);
  const std::vector<FileEntry>& files = contents_.files;
  fileStamps_.assign(files.size(), std::nullopt);
  decoded_.assign(files.size(), std::nullopt);
  taken_ = std::make_unique<std::atomic<bool>[]>(files.size());
  const size_t directoryChunks = (directories.size() + kPrepareChunk - 1) / kPrepareChunk;
  const size_t fileChunks = (files.size() + kPrepareChunk - 1) / kPrepareChunk;
  auto chunk = [&](size_t c) {
    const bool ofFiles = c >= directoryChunks;
    const size_t begin = (ofFiles ? c - directoryChunks : c) * kPrepareChunk;
    const size_t n = std::min(kPrepareChunk, (ofFiles ? files.size() : directories.size()) - begin);
    if (!ofFiles) {
      const auto stamps = io::stampsOf(std::span(directories).subspan(begin, n), nullptr);
      std::copy(stamps.begin(), stamps.end(),
                directoryStamps_.begin() + static_cast<ptrdiff_t>(begin));
      return;
    }
    // Remote entries are not stamped: recallRemote checks them against the listing.
    std::vector<std::string_view> uris;
    std::vector<size_t> at;
    for (size_t i = 0; i < n; ++i) {
      if (!files[begin + i].version.empty()) continue;
      uris.push_back(files[begin + i].uri);
      at.push_back(begin + i);
    }
    const auto stamps = io::stampsOf(uris, nullptr);
    for (size_t k = 0; k < at.size(); ++k) {
      const size_t i = at[k] - begin;
      fileStamps_[begin + i] = stamps[k];
      if (!stamps[k] || !(*stamps[k] == files[begin + i].stamp)) continue;
      try {
        decoded_[begin + i] = decodeMetadata(files[begin + i].metadata);
      } catch (const Error&) {
        // Left to recallFile, which finds the entry corrupt again and reads the file.
      }
    }
  };
  const size_t chunks = directoryChunks + fileChunks;
  if (pool != nullptr) {
    pool->parallelFor(chunks, chunk);
  } else {
    for (size_t c = 0; c < chunks; ++c) chunk(c);
  }
}

std::optional<io::LocalStamp> MetadataCache::preparedStamp(std::string_view uri,
                                                           size_t position) const {
  const FileEntry* entry = find(uri, position);
  if (entry == nullptr) return std::nullopt;
  const size_t index = static_cast<size_t>(entry - contents_.files.data());
  return index < fileStamps_.size() ? fileStamps_[index] : std::nullopt;
}

void MetadataCache::record(const std::string& uri, const io::LocalStamp& stamp, int64_t takenAtNs,
                           const std::string& format, const SourceMetadata& metadata) {
  if (!io::isRegularFile(stamp) || metadata.fileSize != stamp.size ||
      !io::settled(uri, stamp, takenAtNs)) {
    return;
  }
  // The stamp answers for the metadata only if it is the file the footer read
  // pinned: its splits carry that read's size and version, which a scan's open
  // checks the file against.
  const std::string version = io::localFileVersion(stamp);
  for (const FileSplit& split : metadata.splits) {
    if (split.fileSize != stamp.size || split.fileVersion != version) return;
  }
  std::vector<uint8_t> bytes = encodeMetadata(metadata);
  std::lock_guard lock(mutex_);
  recorded_.push_back(
      FileEntry{keep(uri), stamp, {}, keep(format), blobs_.emplace_back(std::move(bytes))});
}

namespace {

/// An ETag without the quotes around it (and a weak one's W/): a listing and a
/// response may write the same ETag differently.
std::string_view bareEtag(std::string_view etag) {
  if (etag.starts_with("W/")) etag.remove_prefix(2);
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"')
    etag = etag.substr(1, etag.size() - 2);
  return etag;
}

}  // namespace

void MetadataCache::listed(const std::string& uri, const io::ObjectIdentity& identity) {
  if (!identity.version || identity.version->empty()) return;
  std::lock_guard lock(mutex_);
  listed_.insert_or_assign(uri, identity);
}

std::optional<std::vector<std::string>> MetadataCache::recallRemoteListing(
    const std::string& pattern) {
  if (remoteListingTtlNs_ <= 0) return std::nullopt;
  std::lock_guard lock(mutex_);
  auto it = std::find_if(contents_.listings.begin(), contents_.listings.end(),
                         [&](const auto& listing) { return listing.first == pattern; });
  if (it == contents_.listings.end() || it->second.listedAtNs == 0) return std::nullopt;
  const int64_t age = io::nowNs() - it->second.listedAtNs;
  if (age < 0 || age >= remoteListingTtlNs_) return std::nullopt;
  // The objects are taken to be what they were: each one's recorded identity
  // stands for the listing's.
  std::vector<std::string> matches;
  for (const std::string_view match : it->second.matches) {
    matches.emplace_back(match);
    const FileEntry* entry = find(match, matches.size() - 1);
    if (entry != nullptr && !entry->version.empty())
      listed_.insert_or_assign(matches.back(), io::ObjectIdentity{entry->stamp.size, std::string(entry->version)});
  }
  return matches;
}

void MetadataCache::rememberRemoteListing(const std::string& pattern,
                                          const std::vector<std::string>& matches) {
  if (remoteListingTtlNs_ <= 0) return;
  std::lock_guard lock(mutex_);
  Listing kept;
  kept.matches.reserve(matches.size());
  for (const std::string& match : matches) kept.matches.push_back(keep(match));
  kept.listedAtNs = io::nowNs();
  std::erase_if(contents_.listings, [&](const auto& other) { return other.first == pattern; });
  contents_.listings.emplace_back(keep(pattern), std::move(kept));
  changed_ = true;
}

std::optional<io::ObjectIdentity> MetadataCache::listedIdentity(const std::string& uri) const {
  std::lock_guard lock(mutex_);
  auto it = listed_.find(uri);
  if (it == listed_.end()) return std::nullopt;
  return it->second;
}

std::optional<MetadataCache::Recalled> MetadataCache::recallRemote(
    const std::string& uri, size_t position, const io::ObjectIdentity& identity) const {
  const FileEntry* entry = find(uri, position);
  if (entry == nullptr || entry->version.empty() || !identity.version ||
      entry->version != *identity.version || entry->stamp.size != identity.size) {
    return std::nullopt;
  }
  try {
    return Recalled{entry->format, decodeMetadata(entry->metadata)};
  } catch (const Error&) {
    return std::nullopt;  // read from the object, and recorded again
  }
}

void MetadataCache::recordRemote(const std::string& uri, const io::ObjectIdentity& identity,
                                 const std::string& format, const SourceMetadata& metadata) {
  if (!identity.version || identity.version->empty() || metadata.fileSize != identity.size) return;
  // The listing's identity answers for the metadata only if it is the object the
  // footer read pinned: every split carries that read's size and ETag, which a
  // scan's open checks the object against.
  for (const FileSplit& split : metadata.splits) {
    if (split.fileSize != identity.size || !split.fileVersion ||
        bareEtag(*split.fileVersion) != bareEtag(*identity.version)) {
      return;
    }
  }
  io::LocalStamp sized;
  sized.size = identity.size;
  std::vector<uint8_t> bytes = encodeMetadata(metadata);
  std::lock_guard lock(mutex_);
  recorded_.push_back(FileEntry{keep(uri), sized, keep(*identity.version), keep(format),
                                blobs_.emplace_back(std::move(bytes))});
}

void MetadataCache::save(std::span<const std::string_view> uris) {
  std::lock_guard lock(mutex_);
  if (directory_.refused()) return;
  // The clause's files in its order: each one's entry recorded by this query, else
  // the one loaded. Nothing is written when nothing was learnt and that is what was
  // loaded (the common case, decided without copying an entry).
  std::unordered_map<std::string_view, const FileEntry*> recorded;
  for (const FileEntry& entry : recorded_) recorded.insert_or_assign(entry.uri, &entry);
  std::vector<const FileEntry*> kept;
  kept.reserve(uris.size());
  for (size_t i = 0; i < uris.size(); ++i) {
    auto it = recorded.find(uris[i]);
    if (const FileEntry* entry = it != recorded.end() ? it->second : find(uris[i], i))
      kept.push_back(entry);
  }
  if (!changed_ && recorded.empty() && kept.size() == contents_.files.size() &&
      std::equal(
          kept.begin(), kept.end(), contents_.files.begin(),
          [](const FileEntry* entry, const FileEntry& loaded) { return entry == &loaded; })) {
    return;
  }
  std::vector<FileEntry> files;
  files.reserve(kept.size());
  for (const FileEntry* entry : kept) files.push_back(*entry);
  Contents next{contents_.key, contents_.listings, std::move(files)};
  const std::optional<Secret> secret = directory_.prepareForWriting();
  if (!secret) return;
  const std::vector<uint8_t> bytes = encode(next, *secret);
  if (bytes.size() > kMaxBytes || !directory_.write(name_, bytes)) return;
  changed_ = false;
  directory_.evict(kMaxFiles);
}

std::string defaultMetadataCacheDirectory() {
  std::string base;
  if (const char* dir = std::getenv("QUARRY_CACHE_DIR")) {
    base = dir;
    if (base == "off") return {};
  } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/') {
    base = std::string(xdg) + "/quarry";
  } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') {
    base = std::string(home) + "/.cache/quarry";
  }
  if (base.empty()) return {};
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  return base + "/metadata";
}

}  // namespace quarry::engine
