// process_timer RESULT_FILE PROGRAM [ARGS...]: runs PROGRAM with ARGS (stdin,
// stdout and stderr inherited), waits for it, writes its wall time in
// milliseconds to RESULT_FILE, and exits with its status.
//
// The whole-query benchmark starts quarry through this small process rather than
// straight from node: node forks a parent of hundreds of megabytes (DuckDB is
// loaded in it), and that fork alone costs several milliseconds that are node's,
// not quarry's. Timed from here, a run is quarry's own start-up, work and exit.

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

extern char** environ;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: process_timer RESULT_FILE PROGRAM [ARGS...]\n");
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  pid_t child = 0;
  if (const int error = posix_spawn(&child, argv[2], nullptr, nullptr, argv + 2, environ); error != 0) {
    std::fprintf(stderr, "process_timer: cannot start %s: %s\n", argv[2], std::strerror(error));
    return 127;
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      std::fprintf(stderr, "process_timer: waiting for %s: %s\n", argv[2], std::strerror(errno));
      return 2;
    }
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (FILE* out = std::fopen(argv[1], "w")) {
    std::fprintf(out, "%.3f\n", ms);
    std::fclose(out);
  } else {
    std::fprintf(stderr, "process_timer: cannot write %s\n", argv[1]);
    return 2;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
