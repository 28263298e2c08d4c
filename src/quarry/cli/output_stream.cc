#include "quarry/cli/output_stream.h"

#include <unistd.h>

#include <cerrno>
#include <csignal>

#include "quarry/common/error.h"

namespace quarry::cli {

namespace {

[[noreturn]] void endOnClosedPipe() {
  // As git does: die of SIGPIPE, so the shell sees what a default disposition gives.
  std::signal(SIGPIPE, SIG_DFL);
  std::raise(SIGPIPE);
  _exit(128 + SIGPIPE);
}

}  // namespace

void writeOutput(std::FILE* out, std::string_view bytes) {
  errno = 0;
  const bool written =
      bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
  if (written && std::fflush(out) == 0) return;
  if (errno == EPIPE) endOnClosedPipe();
  throw IoError("cannot write the output");
}

}  // namespace quarry::cli
