#pragma once

#include <memory>

/// How a quarry process manages its heap: what it keeps, and what it never frees.
namespace quarry {

/// Makes freed memory stay in the process for reuse instead of going back to the
/// kernel. A query allocates each page's column buffers (megabytes) and frees them
/// a moment later; with glibc's defaults such blocks are mmap'd and unmapped each
/// time, so every page paid page faults and the kernel's zeroing of fresh pages
/// (about 15 % of TPC-H Q1's CPU time). Blocks up to 32 MiB now come from the heap,
/// and the heap is trimmed only when 512 MiB lie free at its top. Call once, early
/// in main; a no-op where the C library has no such controls.
void keepFreedMemory();

/// Keeps `state` alive until the process exits, without ever destroying it. For
/// what a command's last act leaves behind: freeing the state of a query over 1,000
/// files (footers, statistics, splits, plans) took a tenth of that process's time,
/// and the kernel takes the whole heap back at exit anyway. The state stays
/// reachable, so a leak checker does not report it. Thread-safe.
void keepUntilExit(std::shared_ptr<const void> state);

template <typename T>
void keepUntilExit(T&& state) {
  keepUntilExit(std::shared_ptr<const void>(std::make_shared<std::decay_t<T>>(std::forward<T>(state))));
}

}  // namespace quarry
