#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

/// The directory the metadata cache keeps its files in, and what makes them
/// trustworthy: an answer read from a cache entry is an answer, so whoever can
/// write an entry can change a query's result.
///
/// The directory is used only when it is the user's own and closed to everyone
/// else (owned by the effective user, not writable by its group or others);
/// otherwise it is refused, with one warning on stderr per process, and queries
/// run uncached. Entries are opened relative to the directory's descriptor,
/// without following a symbolic link (O_NOFOLLOW) or blocking on a FIFO
/// (O_NONBLOCK), and used only when they are regular files of the user's.
///
/// Entries are keyed with a per-user secret (`secret`, kSecretBytes random bytes
/// from getrandom, mode 0600, created with O_EXCL and linked into place so that
/// concurrent queries agree on one), read under the same checks. The cache keys
/// its files with XXH3-128 under that secret: against forgery by other local
/// users, who cannot read the secret; not a cryptographic MAC.
namespace quarry::engine {

class CacheDirectory {
 public:
  /// XXH3's secret must hold at least 136 bytes.
  static constexpr size_t kSecretBytes = 192;
  using Secret = std::array<uint8_t, kSecretBytes>;

  /// Opens `path` when it exists, refusing it as the class comment says.
  explicit CacheDirectory(std::string path);
  ~CacheDirectory();
  CacheDirectory(const CacheDirectory&) = delete;
  CacheDirectory& operator=(const CacheDirectory&) = delete;

  /// Whether the directory was refused: nothing is read from it or written to it.
  bool refused() const { return refused_; }

  /// Maps entry `name` read-only when it is a regular file of the user's of at most
  /// `maxBytes`; empty otherwise. The caller unmaps it (munmap).
  std::span<const uint8_t> map(const std::string& name, uint64_t maxBytes) const;

  /// The secret, when the directory holds one that can be trusted.
  std::optional<Secret> secret() const;

  /// Makes the directory ready to write: creates it (mode 0700) when missing and
  /// checks it, and returns its secret, created when missing or not trustworthy;
  /// nullopt when the directory cannot be used.
  std::optional<Secret> prepareForWriting();

  /// Writes entry `name` whole: a temporary file (0600) renamed into place, so that
  /// a reader sees the old file or the new one.
  bool write(const std::string& name, std::span<const uint8_t> bytes);

  /// Removes the least recently written `.qmc` entries beyond `keep`, and temporary
  /// files an interrupted write left more than an hour ago.
  void evict(size_t keep);

 private:
  /// Opens and checks path_; false (fd_ stays -1) when it does not exist or is refused.
  bool open();

  std::string path_;
  int fd_ = -1;
  bool refused_ = false;
};

}  // namespace quarry::engine
