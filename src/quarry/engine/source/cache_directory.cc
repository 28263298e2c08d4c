#include "quarry/engine/source/cache_directory.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <string_view>
#include <utility>
#include <vector>

#include "quarry/io/local_stamp.h"

namespace quarry::engine {
namespace {

constexpr const char* kSecretName = "secret";
/// Temporary files start so; evict removes those older than an hour.
constexpr std::string_view kTemporaryPrefix = ".qmc-";

/// Says why the cache is not used, once per process.
void warnOnce(const std::string& why) {
  static std::atomic<bool> warned{false};
  if (warned.exchange(true)) return;
  std::fprintf(stderr, "quarry: warning: %s; running without the metadata cache\n", why.c_str());
}

/// Opens `name` under `dir` for reading when it is a regular file owned by the
/// user (and, with `privateOnly`, closed to its group and others) of at most
/// `maxBytes`; -1 otherwise. `size` receives its size.
int openOwnRegularFile(int dir, const char* name, bool privateOnly, uint64_t maxBytes,
                       uint64_t& size) {
  // O_NOFOLLOW: a symbolic link is not followed elsewhere; O_NONBLOCK: a FIFO does
  // not hang the query waiting for a writer.
  const int fd = ::openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() ||
      (privateOnly && (st.st_mode & 077) != 0) || st.st_size <= 0 ||
      static_cast<uint64_t>(st.st_size) > maxBytes) {
    ::close(fd);
    return -1;
  }
  size = static_cast<uint64_t>(st.st_size);
  return fd;
}

bool readWhole(int fd, std::span<uint8_t> out) {
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::read(fd, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

bool writeWhole(int fd, std::span<const uint8_t> bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

bool randomBytes(std::span<uint8_t> out) {
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::getrandom(out.data() + done, out.size() - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

/// A fresh temporary file under `dir` (0600, O_EXCL), its name in `name`; -1 on failure.
int createTemporary(int dir, std::string& name) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    uint8_t random[8];
    if (!randomBytes(random)) return -1;
    char hex[17];
    for (size_t i = 0; i < sizeof random; ++i) std::snprintf(hex + 2 * i, 3, "%02x", random[i]);
    name = std::string(kTemporaryPrefix) + hex;
    const int fd =
        ::openat(dir, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

/// Creates `directory` and its parents (mode 0700 for those it creates).
bool makeDirectories(const std::string& directory) {
  for (size_t slash = directory.find('/', 1);; slash = directory.find('/', slash + 1)) {
    const std::string part = directory.substr(0, slash);
    if (!part.empty() && ::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return false;
    if (slash == std::string::npos) return true;
  }
}

}  // namespace

CacheDirectory::CacheDirectory(std::string path) : path_(std::move(path)) {
  open();
}

CacheDirectory::~CacheDirectory() {
  if (fd_ >= 0) ::close(fd_);
}

bool CacheDirectory::open() {
  const int fd = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  std::string why;
  if (::fstat(fd, &st) != 0) {
    why = "cannot stat the metadata cache directory " + path_;
  } else if (st.st_uid != ::geteuid()) {
    why = "the metadata cache directory " + path_ + " belongs to another user (uid " +
          std::to_string(st.st_uid) + ")";
  } else if ((st.st_mode & 022) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    why = "the metadata cache directory " + path_ + " is writable by its group or others (mode " +
          mode + "; chmod go-w it)";
  }
  if (!why.empty()) {
    ::close(fd);
    refused_ = true;
    warnOnce(why);
    return false;
  }
  fd_ = fd;
  return true;
}

std::span<const uint8_t> CacheDirectory::map(const std::string& name, uint64_t maxBytes) const {
  if (fd_ < 0) return {};
  uint64_t size = 0;
  const int fd = openOwnRegularFile(fd_, name.c_str(), false, maxBytes, size);
  if (fd < 0) return {};
  // Mapped rather than read: no copy, and no fresh pages to fill (the page cache's
  // are mapped in as the checksum reads them, several at a fault; asking for all
  // of them up front with MAP_POPULATE measured slower). An entry is only ever
  // replaced by a rename, never truncated in place, so the mapping stays whole
  // (git maps its index the same way).
  void* bytes = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (bytes == MAP_FAILED) return {};
  return {static_cast<const uint8_t*>(bytes), static_cast<size_t>(size)};
}

std::optional<CacheDirectory::Secret> CacheDirectory::secret() const {
  if (fd_ < 0) return std::nullopt;
  uint64_t size = 0;
  const int fd = openOwnRegularFile(fd_, kSecretName, true, kSecretBytes, size);
  if (fd < 0) return std::nullopt;
  Secret secret{};
  const bool read = size == kSecretBytes && readWhole(fd, secret);
  ::close(fd);
  if (!read) return std::nullopt;
  return secret;
}

std::optional<CacheDirectory::Secret> CacheDirectory::prepareForWriting() {
  if (refused_) return std::nullopt;
  if (fd_ < 0 && (!makeDirectories(path_) || !open())) return std::nullopt;
  if (std::optional<Secret> existing = secret()) return existing;
  // None, or one that cannot be trusted (another owner, readable by others, the
  // wrong size, a link or a FIFO): replaced, which only invalidates the entries.
  if (::unlinkat(fd_, kSecretName, 0) != 0 && errno != ENOENT) return std::nullopt;
  Secret secret{};
  if (!randomBytes(secret)) return std::nullopt;
  std::string temporary;
  const int fd = createTemporary(fd_, temporary);
  if (fd < 0) return std::nullopt;
  const bool written = writeWhole(fd, secret);
  ::close(fd);
  // link() does not replace: when another query linked its secret first, that one
  // is used.
  const bool linked = written && ::linkat(fd_, temporary.c_str(), fd_, kSecretName, 0) == 0;
  ::unlinkat(fd_, temporary.c_str(), 0);
  if (linked) return secret;
  return this->secret();
}

bool CacheDirectory::write(const std::string& name, std::span<const uint8_t> bytes) {
  if (fd_ < 0) return false;
  std::string temporary;
  const int fd = createTemporary(fd_, temporary);
  if (fd < 0) return false;
  const bool written = writeWhole(fd, bytes);
  ::close(fd);
  if (!written || ::renameat(fd_, temporary.c_str(), fd_, name.c_str()) != 0) {
    ::unlinkat(fd_, temporary.c_str(), 0);
    return false;
  }
  return true;
}

void CacheDirectory::evict(size_t keep) {
  if (fd_ < 0) return;
  const int listed = ::dup(fd_);
  if (listed < 0) return;
  DIR* dir = ::fdopendir(listed);
  if (dir == nullptr) {
    ::close(listed);
    return;
  }
  ::rewinddir(dir);
  constexpr int64_t kAbandonedNs = int64_t{3600} * 1'000'000'000;
  const int64_t now = io::nowNs();
  std::vector<std::pair<int64_t, std::string>> caches;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view name = entry->d_name;
    const bool temporary = name.starts_with(kTemporaryPrefix);
    if (!name.ends_with(".qmc") && !temporary) continue;
    struct stat st {};
    if (::fstatat(fd_, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    const int64_t written =
        static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    if (temporary) {
      if (now - written > kAbandonedNs) ::unlinkat(fd_, entry->d_name, 0);
      continue;
    }
    caches.emplace_back(written, std::string(name));
  }
  ::closedir(dir);
  if (caches.size() <= keep) return;
  std::sort(caches.begin(), caches.end());
  for (size_t i = 0; i + keep < caches.size(); ++i) ::unlinkat(fd_, caches[i].second.c_str(), 0);
}

}  // namespace quarry::engine
