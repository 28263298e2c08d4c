#include "quarry/cluster/confined_open.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <optional>
#include <vector>

namespace quarry::cluster {

namespace {

/// The kernel's limit on symlinks followed in one resolution (MAXSYMLINKS).
constexpr int kMaxSymlinks = 40;
/// How often the walk starts again when the file changed between its check and its open.
constexpr int kWalkAttempts = 3;

std::string systemError(const std::string& path, const std::string& what, int error) {
  return path + ": " + what + ": " + std::strerror(error);
}

/// openat2(2); -1 with errno ENOSYS where the headers know no such call.
int openat2Call(int directory, const char* path, uint64_t flags, uint64_t resolve) {
#ifdef SYS_openat2
  open_how how{};
  how.flags = flags;
  how.resolve = resolve;
  return static_cast<int>(::syscall(SYS_openat2, directory, path, &how, sizeof(how)));
#else
  (void)directory, (void)path, (void)flags, (void)resolve;
  errno = ENOSYS;
  return -1;
#endif
}

/// Whether an openat2 failure leaves the question to the walk: no openat2
/// (ENOSYS, E2BIG), a seccomp filter (EPERM), a symlink (ELOOP), or a step out
/// of the root (EXDEV) the walk may find legitimate or refuse.
bool walkDecides(int error) {
  return error == ENOSYS || error == E2BIG || error == EPERM || error == ELOOP || error == EXDEV ||
         error == EAGAIN;
}

/// The components of `path` made absolute, `.` and empty ones left out.
std::vector<std::string> componentsOf(const std::string& path) {
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(path, error);
  if (error) throw IoError(systemError(path, "cannot be made absolute", error.value()));
  std::vector<std::string> out;
  for (const std::filesystem::path& part : absolute.relative_path()) {
    const std::string name = part.string();
    if (!name.empty() && name != ".") out.push_back(name);
  }
  return out;
}

std::filesystem::path joined(const std::vector<std::string>& names) {
  std::filesystem::path out = "/";
  for (const std::string& name : names) out /= name;
  return out;
}

bool underAnyRoot(const std::filesystem::path& path, std::span<const std::filesystem::path> roots) {
  return std::any_of(roots.begin(), roots.end(),
                     [&](const std::filesystem::path& root) { return underRoot(path, root); });
}

/// Takes off O_NONBLOCK (set while opening, so that a FIFO cannot block the
/// open) and checks that `fd` is a regular file.
void checkRegular(int fd, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw IoError(systemError(path, "cannot stat", errno));
  if (S_ISDIR(st.st_mode)) throw IoError(path + ": is a directory, not a file");
  if (!S_ISREG(st.st_mode)) throw IoError(path + ": is not a regular file");
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

constexpr uint64_t kReadFlags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;

/// The kernel's resolution below the root the path is lexically under; nullopt
/// when the walk has to decide.
std::optional<ConfinedFile> openWithKernel(const std::string& path,
                                           const std::vector<std::string>& components,
                                           std::span<const std::filesystem::path> roots) {
  if (std::find(components.begin(), components.end(), "..") != components.end())
    return std::nullopt;
  const std::filesystem::path lexical = joined(components);
  for (const std::filesystem::path& root : roots) {
    if (!underRoot(lexical, root)) continue;
    // The components below the root (its own: every one but "/" and a trailing empty one).
    const size_t depth = static_cast<size_t>(std::count_if(
        root.begin(), root.end(),
        [](const std::filesystem::path& part) { return !part.empty() && part != "/"; }));
    if (components.size() <= depth) throw IoError(path + ": is a directory, not a file");
    std::filesystem::path relative;
    for (size_t i = depth; i < components.size(); ++i) relative /= components[i];
    constexpr uint64_t kNoLinks = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    Descriptor directory(
        openat2Call(AT_FDCWD, root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC, kNoLinks));
    if (!directory) return std::nullopt;  // the walk says why
    Descriptor file(
        openat2Call(directory.get(), relative.c_str(), kReadFlags, kNoLinks | RESOLVE_BENEATH));
    if (!file) {
      const int error = errno;
      if (walkDecides(error)) return std::nullopt;
      throw IoError(systemError(path, "cannot open", error));
    }
    checkRegular(file.get(), path);
    return ConfinedFile(file.release(), lexical);
  }
  return std::nullopt;
}

std::string readLink(int link, const std::string& path) {
  std::vector<char> buffer(256);
  while (true) {
    const ssize_t n = ::readlinkat(link, "", buffer.data(), buffer.size());
    if (n < 0) throw IoError(systemError(path, "cannot read a symbolic link on its path", errno));
    if (static_cast<size_t>(n) < buffer.size())
      return std::string(buffer.data(), static_cast<size_t>(n));
    if (buffer.size() >= 1 << 16) throw IoError(path + ": a symbolic link on its path is too long");
    buffer.resize(buffer.size() * 2);
  }
}

/// One walk: the opened file, or nullopt when it changed between the check and the open.
std::optional<ConfinedFile> walkOnce(const std::string& path,
                                     const std::vector<std::string>& components,
                                     std::span<const std::filesystem::path> roots) {
  std::vector<Descriptor> directories;  // directories[i]: "/" then names[0..i)
  directories.emplace_back(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!directories.back()) throw IoError(systemError(path, "cannot open /", errno));
  std::vector<std::string> names;
  std::deque<std::string> pending(components.begin(), components.end());
  int links = 0;
  Descriptor examined;
  struct stat examinedStat {};
  std::string fileName;
  while (!pending.empty()) {
    const std::string name = std::move(pending.front());
    pending.pop_front();
    if (name == "..") {
      if (!names.empty()) {
        names.pop_back();
        directories.pop_back();
      }
      continue;
    }
    Descriptor entry(
        ::openat(directories.back().get(), name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
    if (!entry) throw IoError(systemError(path, "cannot open", errno));
    struct stat st {};
    if (::fstat(entry.get(), &st) != 0) throw IoError(systemError(path, "cannot stat", errno));
    if (S_ISLNK(st.st_mode)) {
      if (++links > kMaxSymlinks) throw IoError(path + ": too many levels of symbolic links");
      const std::string target = readLink(entry.get(), path);
      std::vector<std::string> parts;
      for (const std::filesystem::path& part : std::filesystem::path(target)) {
        const std::string text = part.string();
        if (!text.empty() && text != "." && text != "/") parts.push_back(text);
      }
      pending.insert(pending.begin(), parts.begin(), parts.end());
      if (!target.empty() && target.front() == '/') {
        directories.resize(1);
        names.clear();
      }
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      names.push_back(name);
      directories.push_back(std::move(entry));
      continue;
    }
    if (!pending.empty()) throw IoError(path + ": cannot open: " + std::strerror(ENOTDIR));
    examined = std::move(entry);
    examinedStat = st;
    fileName = name;
  }
  if (!examined) throw IoError(path + ": is a directory, not a file");
  std::vector<std::string> all = names;
  all.push_back(fileName);
  std::filesystem::path canonical = joined(all);
  if (!underAnyRoot(canonical, roots))
    throw OutsideAllowedRoots(path + " is outside the allowed roots");
  if (!S_ISREG(examinedStat.st_mode)) throw IoError(path + ": is not a regular file");

  Descriptor file(::openat(directories.back().get(), fileName.c_str(),
                           static_cast<int>(kReadFlags) | O_NOFOLLOW));
  if (!file) {
    const int error = errno;
    if (error == ELOOP || error == ENOENT) return std::nullopt;  // replaced since examined
    throw IoError(systemError(path, "cannot open", error));
  }
  struct stat opened {};
  if (::fstat(file.get(), &opened) != 0) throw IoError(systemError(path, "cannot stat", errno));
  if (opened.st_dev != examinedStat.st_dev || opened.st_ino != examinedStat.st_ino)
    return std::nullopt;
  checkRegular(file.get(), path);
  return ConfinedFile(file.release(), std::move(canonical));
}

}  // namespace

Descriptor::~Descriptor() {
  if (fd_ >= 0) ::close(fd_);
}

Descriptor& Descriptor::operator=(Descriptor&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

bool underRoot(const std::filesystem::path& path, const std::filesystem::path& root) {
  auto p = path.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++p) {
    if (r->empty()) continue;  // a trailing separator
    if (p == path.end() || *p != *r) return false;
  }
  return true;
}

ConfinedFile openConfined(const std::string& path, std::span<const std::filesystem::path> roots,
                          PathResolution resolution) {
  const std::vector<std::string> components = componentsOf(path);
  if (resolution == PathResolution::kKernelFirst) {
    if (std::optional<ConfinedFile> file = openWithKernel(path, components, roots)) {
      return std::move(*file);
    }
  }
  for (int attempt = 0; attempt < kWalkAttempts; ++attempt) {
    if (std::optional<ConfinedFile> file = walkOnce(path, components, roots))
      return std::move(*file);
  }
  throw IoError(path + ": changed while being opened, " + std::to_string(kWalkAttempts) + " times");
}

}  // namespace quarry::cluster
