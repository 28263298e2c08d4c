#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "quarry/engine/source/cache_directory.h"
#include "quarry/engine/source/format_reader.h"
#include "quarry/io/file_patterns.h"
#include "quarry/io/local_stamp.h"

/// What resolving a FROM clause learnt from local files, kept on disk for the next
/// query with the same clause: the files each glob matched, with the stamps of the
/// directories it read, and each file's SourceMetadata (schema, statistics,
/// splits: everything the footer read gave), with the file's stamp.
///
/// Nothing is reused unless a fresh look proves it unchanged: a listing only while
/// every directory it read has its recorded stamp, a file's metadata only while
/// the file has its recorded stamp (io::LocalStamp: device, inode, size,
/// modification and change times). Only settled stamps are recorded (a file
/// written less than a second before is read again next time).
///
/// An S3 object's metadata is kept with the size and ETag its listing gave, and
/// reused while a fresh listing (every query lists again: that is how a change is
/// seen) gives the same: the object replaced has another ETag and its footer is
/// read again. Objects nothing lists (an http(s):// URI, an s3:// URI without a
/// wildcard) have no identity before they are opened, and are not kept.
///
/// One file per clause, `<directory>/<hash of key>.qmc`, holding the key, written
/// whole to a temporary file and renamed into place (concurrent queries each leave
/// a complete file; the last rename wins). The directory must be the user's own,
/// and each file is keyed with the user's secret (CacheDirectory): a file anyone
/// else could have written is never believed. A file that is missing, unreadable,
/// not a regular file of the user's, for another key, of another version, or
/// corrupt (its keyed hash or any field) is an empty cache: the clause is resolved
/// from the files and the cache rewritten. A refused directory is no cache at all.
/// At most kMaxFiles clauses are kept; saving evicts the least recently written
/// (and temporary files an interrupted save left over an hour before).
namespace quarry::engine {

class MetadataCache : public io::ListingMemory {
 public:
  /// Clauses kept in one directory.
  static constexpr size_t kMaxFiles = 256;

  /// The cache of the clause `key` (its patterns, format option and working
  /// directory) under `directory`, loaded now; never throws. A directory that is
  /// not the user's own is refused (CacheDirectory): a warning, and no cache.
  MetadataCache(std::string directory, std::string key);
  ~MetadataCache() override;
  MetadataCache(const MetadataCache&) = delete;
  MetadataCache& operator=(const MetadataCache&) = delete;

  // io::ListingMemory
  std::optional<std::vector<std::string>> recall(const std::string& pattern,
                                                 ThreadPool* pool) override;
  void remember(const std::string& pattern, const io::GlobListing& listing,
                const std::vector<std::string>& matches) override;
  void listed(const std::string& uri, const io::ObjectIdentity& identity) override;
  std::optional<std::vector<std::string>> recallRemoteListing(const std::string& pattern) override;
  void rememberRemoteListing(const std::string& pattern,
                             const std::vector<std::string>& matches) override;

  /// Lets remote listings younger than `ttlNs` answer for a new one (0, the
  /// default: every remote glob is listed again).
  void setRemoteListingTtl(int64_t ttlNs) { remoteListingTtlNs_ = ttlNs; }

  struct Recalled {
    std::string_view format;  // "parquet", "orc"
    SourceMetadata metadata;
  };
  /// What was recorded for `uri` when `stamp` (taken just now) is the stamp
  /// recorded with it. `position` is where `uri` is among the files the clause
  /// resolves to: the cache keeps its files in that order, so that finding one is
  /// a comparison (an index is built the first time a file is elsewhere). Safe
  /// from several threads at once, as is record().
  std::optional<Recalled> recallFile(const std::string& uri, size_t position,
                                     const io::LocalStamp& stamp) const;
  /// Takes, in one loop on `pool` (or here when null), everything the cache will be
  /// asked about: a fresh stamp of every directory its listings read and of every
  /// file it holds, and the decoded metadata of each file whose stamp is still the
  /// one recorded. recall then compares the stamps taken here, preparedStamp hands
  /// them out, and recallFile the decoded metadata. One loop rather than three
  /// (directory stamps, file stamps, decoding) spares two waits for the slowest
  /// thread. Called once, before anything else is asked.
  void prepare(ThreadPool* pool);
  /// The stamp prepare took of `uri` (the file at `position` among the clause's
  /// files, as for recallFile); nullopt when it took none, or the file is gone.
  std::optional<io::LocalStamp> preparedStamp(std::string_view uri, size_t position) const;

  /// Keeps `metadata` of `uri` read in `format` after `stamp` was taken at `takenAtNs`,
  /// when the stamp is settled and is the file the read pinned (every split's file
  /// size and version are the stamp's).
  void record(const std::string& uri, const io::LocalStamp& stamp, int64_t takenAtNs,
              const std::string& format, const SourceMetadata& metadata);

  /// The size and ETag this query's listing gave for the remote `uri`, if it listed it.
  std::optional<io::ObjectIdentity> listedIdentity(const std::string& uri) const;
  /// What was recorded for the remote `uri` (at `position`, as for recallFile) when
  /// `identity` (its listing's, just now) is the one recorded with it.
  std::optional<Recalled> recallRemote(const std::string& uri, size_t position,
                                       const io::ObjectIdentity& identity) const;
  /// Keeps `metadata` of the remote `uri` read in `format` when its read pinned the
  /// object `identity` describes (every split's size and version are the listing's).
  void recordRemote(const std::string& uri, const io::ObjectIdentity& identity,
                    const std::string& format, const SourceMetadata& metadata);

  /// Writes the cache back when anything new was learnt, keeping the files of
  /// `uris` (what the clause resolved to) only, in that order; errors are ignored
  /// (a cache that cannot be written is a cache that does not help). The cache's
  /// last act: called once, when the clause is resolved.
  void save(std::span<const std::string_view> uris);

  /// The file this clause's cache lives in.
  const std::string& path() const { return path_; }

  /// The file's contents, as views into the bytes decoded. Loading decodes no
  /// file's metadata (decodeMetadata, when a query asks for it) and copies no
  /// string, so that loading a cache of many files costs little.
  struct Listing {
    std::vector<std::pair<std::string_view, io::LocalStamp>>
        directories;  // "" is the working directory
    std::vector<std::string_view> matches;
    int64_t listedAtNs = 0;  // a remote listing's time (io::nowNs); 0 for a local one
  };
  struct FileEntry {
    std::string_view uri;
    io::LocalStamp stamp;     // of a local file; a remote object's has its size only
    std::string_view version;  // a remote object's ETag; empty for a local file
    std::string_view format;
    std::span<const uint8_t> metadata;  // encodeMetadata's bytes
  };
  struct Contents {
    std::string_view key;
    std::vector<std::pair<std::string_view, Listing>> listings;  // by pattern
    std::vector<FileEntry> files;  // in the order of the clause's files
  };
  /// The file's bytes, and back (tests, the fuzzer), keyed with `secret`. decode's
  /// views point into `bytes`. Both decoders throw CorruptFile naming the field for
  /// anything they do not accept: a wrong magic, version, length or keyed hash (bytes
  /// framed under another secret, or under none), a truncated or
  /// out-of-range field, a duplicate pattern or column, trailing bytes. (Two
  /// entries for one file, which only a forged file holds, are not looked for:
  /// the first is found, and a save keeps one.)
  using Secret = CacheDirectory::Secret;
  static std::vector<uint8_t> encode(const Contents& contents, const Secret& secret);
  /// A cache file around an encoded `payload`: magic, version, length, and the
  /// payload's XXH3-128 under `secret`.
  static std::vector<uint8_t> frame(std::span<const uint8_t> payload, const Secret& secret);
  static Contents decode(std::span<const uint8_t> bytes, const Secret& secret);
  static std::vector<uint8_t> encodeMetadata(const SourceMetadata& metadata);
  static SourceMetadata decodeMetadata(std::span<const uint8_t> bytes);

 private:
  /// The entry of `uri`, looked for at `position` first; nullptr when there is none.
  const FileEntry* find(std::string_view uri, size_t position) const;
  /// A view of `text` that lives as long as the cache.
  std::string_view keep(std::string_view text);

  CacheDirectory directory_;
  std::string name_;  // of the cache file in directory_
  std::string path_;
  std::string key_;
  std::span<const uint8_t> mapped_;  // the cache file; contents_' views point into it
  Contents contents_;
  mutable std::once_flag indexed_;
  mutable std::unordered_map<std::string_view, size_t> index_;  // uri -> contents_.files
  // What prepare() took (all empty when it did not run): the stamps of every
  // listing's directories, listing after listing, and where each pattern's begin;
  // by position in contents_.files, each file's stamp and decoded metadata, the
  // latter taken once (taken_) by recallFile.
  std::vector<std::optional<io::LocalStamp>> directoryStamps_;
  std::vector<std::pair<std::string_view, size_t>> listingStamps_;
  std::vector<std::optional<io::LocalStamp>> fileStamps_;
  mutable std::vector<std::optional<SourceMetadata>> decoded_;
  mutable std::unique_ptr<std::atomic<bool>[]> taken_;
  mutable std::mutex mutex_;
  // What remember() and record() learnt, and the bytes recorded entries view.
  std::deque<std::string> strings_;
  std::deque<std::vector<uint8_t>> blobs_;
  std::vector<FileEntry> recorded_;  // merged by save()
  std::unordered_map<std::string, io::ObjectIdentity> listed_;  // by listed()
  int64_t remoteListingTtlNs_ = 0;
  bool changed_ = false;
};

/// Where the CLI keeps the cache: $QUARRY_CACHE_DIR when set ("" or "off": no
/// cache), else $XDG_CACHE_HOME/quarry, else $HOME/.cache/quarry; with
/// "/metadata" appended. Empty when there is none.
std::string defaultMetadataCacheDirectory();

}  // namespace quarry::engine
