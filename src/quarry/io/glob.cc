#include "quarry/io/glob.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "quarry/common/thread_pool.h"
#include "quarry/io/local_stamp.h"

namespace quarry::io {
namespace {

// Matches one bracket expression at pattern[p] ('[') against `c`; returns the position
// after it, or npos when the bracket is not closed (then '[' is an ordinary character).
size_t matchBracket(std::string_view pattern, size_t p, char c, bool& matched) {
  size_t i = p + 1;
  bool negate = false;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) {
    negate = true;
    ++i;
  }
  bool any = false;
  bool first = true;
  while (i < pattern.size() && (pattern[i] != ']' || first)) {
    first = false;
    const char low = pattern[i];
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      any = any || (c >= low && c <= pattern[i + 2]);
      i += 3;
    } else {
      any = any || c == low;
      ++i;
    }
  }
  if (i >= pattern.size()) return std::string_view::npos;
  matched = (any != negate) && c != '/';
  return i + 1;
}

// A backtracking matcher with a memo of (pattern position, path position) pairs known
// to fail, so that patterns like "*a*a*a*b" stay polynomial on long keys.
class Matcher {
 public:
  Matcher(std::string_view pattern, std::string_view path)
      : pattern_(pattern), path_(path), failed_((pattern.size() + 1) * (path.size() + 1), 0) {}

  bool match(size_t p, size_t s) {
    uint8_t& memo = failed_[p * (path_.size() + 1) + s];
    if (memo != 0) return false;
    const bool result = matchUncached(p, s);
    if (!result) memo = 1;
    return result;
  }

 private:
  bool isDoubleStarSegment(size_t p) const {
    return pattern_.substr(p, 2) == "**" && (p == 0 || pattern_[p - 1] == '/') &&
           (p + 2 == pattern_.size() || pattern_[p + 2] == '/');
  }

  bool matchUncached(size_t p, size_t s) {
    if (p == pattern_.size()) return s == path_.size();
    if (isDoubleStarSegment(p)) {
      if (p + 2 == pattern_.size()) return true;  // "dir/**" takes everything below
      // "**/" consumes zero segments, or one and then is tried again: each state is
      // visited once, so the whole match costs pattern length x path length.
      if (match(p + 3, s)) return true;
      const size_t slash = path_.find('/', s);
      return slash != std::string_view::npos && match(p, slash + 1);
    }
    const char c = pattern_[p];
    if (c == '*') {
      // Matches nothing, or one more character and stays on the star.
      return match(p + 1, s) || (s < path_.size() && path_[s] != '/' && match(p, s + 1));
    }
    if (s == path_.size()) return false;
    if (c == '?') return path_[s] != '/' && match(p + 1, s + 1);
    if (c == '[') {
      bool matched = false;
      const size_t after = matchBracket(pattern_, p, path_[s], matched);
      if (after != std::string_view::npos) return matched && match(after, s + 1);
    }
    return c == path_[s] && match(p + 1, s + 1);
  }

  std::string_view pattern_;
  std::string_view path_;
  std::vector<uint8_t> failed_;
};

}  // namespace

bool hasGlob(std::string_view pattern) {
  return pattern.find_first_of("*?[") != std::string_view::npos;
}

std::string_view globLiteralPrefix(std::string_view pattern) {
  return pattern.substr(0, pattern.find_first_of("*?["));
}

bool globMatch(std::string_view pattern, std::string_view path) {
  return Matcher(pattern, path).match(0, 0);
}

namespace {

/// The entries of one directory, read with getdents64 into a buffer of its own:
/// no DIR to allocate and no fstat, which opendir makes for every directory (a
/// walk of 1,000 partition directories lists little else).
class DirectoryEntries {
 public:
  explicit DirectoryEntries(const char* path) : fd_(::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {}
  ~DirectoryEntries() {
    if (fd_ >= 0) ::close(fd_);
  }
  DirectoryEntries(const DirectoryEntries&) = delete;
  DirectoryEntries& operator=(const DirectoryEntries&) = delete;

  bool opened() const { return fd_ >= 0; }
  int fd() const { return fd_; }

  /// The next entry; nullptr at the end, or on an error (as readdir).
  const dirent64* next() {
    if (offset_ >= size_) {
      const ssize_t n = ::getdents64(fd_, buffer_, sizeof buffer_);
      if (n <= 0) return nullptr;
      size_ = static_cast<size_t>(n);
      offset_ = 0;
    }
    const auto* entry = reinterpret_cast<const dirent64*>(buffer_ + offset_);
    offset_ += entry->d_reclen;
    return entry;
  }

 private:
  int fd_;
  size_t size_ = 0;
  size_t offset_ = 0;
  alignas(dirent64) char buffer_[32 * 1024];
};

/// A walk of the directories below a glob's literal prefix, listing each one at most
/// once (DirectoryEntries): entries' types come from d_type (a stat only where the file
/// system leaves it unknown, or for a symbolic link), and a directory is entered only
/// when a path below it can still match, segment by segment. A file matches when
/// globMatch says so of its whole path, as without the pruning.
class LocalWalk {
 public:
  LocalWalk(const std::string& pattern, std::string_view rest) : pattern_(pattern) {
    // The pattern's segments below the base; pruning by segment needs every '/' to
    // separate segments, which a '/' inside an unclosed '[' would not.
    size_t from = 0;
    bool inBracket = false;
    for (size_t i = 0; i <= rest.size(); ++i) {
      if (i == rest.size() || rest[i] == '/') {
        if (inBracket) prune_ = false;
        segments_.push_back(rest.substr(from, i - from));
        from = i + 1;
      } else if (rest[i] == '[') {
        inBracket = true;
      } else if (rest[i] == ']') {
        inBracket = false;
      }
    }
    for (size_t i = 0; i < segments_.size() && firstDoubleStar_ == std::string_view::npos; ++i) {
      if (segments_[i] == "**") firstDoubleStar_ = i;
    }
  }

  /// Returns the files below `base` ("" for the working directory, else ending in
  /// '/') that match, unsorted. The directories of one depth are listed on `pool`
  /// when there is one and they are many.
  /// With a `record`, each directory is stamped before it is read (GlobListing).
  std::vector<std::string> run(const std::string& base, ThreadPool* pool, GlobListing* record) {
    record_ = record != nullptr;
    takenAtNs_ = record_ ? nowNs() : 0;
    std::vector<std::string> out;
    std::vector<std::string> level{base};
    for (size_t depth = 0; !level.empty(); ++depth) {
      std::vector<Listing> listings(level.size());
      auto listOne = [&](size_t i) { listings[i] = list(level[i], depth); };
      if (pool != nullptr && pool->size() > 1 && level.size() >= kParallelDirectories) {
        pool->parallelFor(level.size(), listOne);
      } else {
        for (size_t i = 0; i < level.size(); ++i) listOne(i);
      }
      std::vector<std::string> next;
      for (size_t i = 0; i < listings.size(); ++i) {
        Listing& listing = listings[i];
        if (record_) {
          if (listing.stamp) {
            record->directories.emplace_back(level[i], *listing.stamp);
          } else {
            record->reusable = false;
          }
        }
        for (std::string& file : listing.files) out.push_back(std::move(file));
        for (std::string& directory : listing.directories) next.push_back(std::move(directory));
      }
      level = std::move(next);
    }
    return out;
  }

 private:
  /// Below this many directories at one depth, handing them to threads costs more
  /// than listing them.
  static constexpr size_t kParallelDirectories = 16;

  struct Listing {
    std::vector<std::string> files;        // that match
    std::vector<std::string> directories;  // that may hold matches, ending in '/'
    /// When recording: the directory's stamp, taken before it was read; absent when
    /// the listing cannot be vouched for (GlobListing::reusable).
    std::optional<LocalStamp> stamp;
  };

  /// Lists `dir` ("" for the working directory, else ending in '/'), whose entries
  /// are at `depth` below the base.
  Listing list(const std::string& dir, size_t depth) const {
    Listing listing;
    DirectoryEntries entries(dir.empty() ? "." : dir.c_str());
    if (!entries.opened()) return listing;  // a directory that cannot be read is skipped
    bool vouched = false;
    if (record_) {
      listing.stamp = stampOf(entries.fd());
      vouched = listing.stamp && settled(dir, *listing.stamp, takenAtNs_);
    }
    while (const dirent64* entry = entries.next()) {
      const std::string_view name = entry->d_name;
      if (name == "." || name == "..") continue;
      std::string path = dir;
      path += name;
      bool file = entry->d_type == DT_REG;
      bool directory = entry->d_type == DT_DIR;
      if (entry->d_type == DT_UNKNOWN || entry->d_type == DT_LNK) {
        // A symbolic link counts as the file it points to but is not walked into.
        // What it points to can change with no change to this directory: no stamp
        // vouches for this listing.
        vouched = false;
        struct stat status {};
        if (::lstat(path.c_str(), &status) != 0) continue;
        const bool link = S_ISLNK(status.st_mode);
        if (link && ::stat(path.c_str(), &status) != 0) continue;
        file = S_ISREG(status.st_mode);
        directory = !link && S_ISDIR(status.st_mode);
      }
      if (file) {
        if (globMatch(pattern_, path)) listing.files.push_back(std::move(path));
      } else if (directory && mayHoldMatches(depth, name)) {
        path += '/';
        listing.directories.push_back(std::move(path));
      }
    }
    if (!vouched) listing.stamp.reset();
    return listing;
  }

  /// Whether a directory `name` at `depth` below the base can hold a match: a "**"
  /// segment at or above it takes any path; otherwise its segment must match and
  /// the pattern must go deeper.
  bool mayHoldMatches(size_t depth, std::string_view name) const {
    if (!prune_ || firstDoubleStar_ <= depth) return true;
    return depth + 1 < segments_.size() && globMatch(segments_[depth], name);
  }

  const std::string& pattern_;
  bool record_ = false;
  int64_t takenAtNs_ = 0;
  std::vector<std::string_view> segments_;
  size_t firstDoubleStar_ = std::string_view::npos;
  bool prune_ = true;
};

}  // namespace

std::vector<std::string> globLocal(const std::string& pattern, ThreadPool* pool,
                                   GlobListing* listing) {
  std::vector<std::string> out;
  if (!hasGlob(pattern)) {
    if (listing != nullptr) listing->reusable = false;
    std::error_code error;
    if (std::filesystem::is_regular_file(pattern, error)) out.push_back(pattern);
    return out;
  }
  // Walk from the deepest directory the pattern names literally.
  const std::string_view prefix = globLiteralPrefix(pattern);
  const size_t slash = prefix.rfind('/');
  const std::string base = slash == std::string_view::npos ? "" : std::string(prefix.substr(0, slash + 1));
  const std::string_view rest =
      slash == std::string_view::npos ? std::string_view(pattern) : std::string_view(pattern).substr(slash + 1);
  out = LocalWalk(pattern, rest).run(base, pool, listing);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace quarry::io
