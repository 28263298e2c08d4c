#pragma once

/// How a quarry process asks the C library to manage its heap.
namespace quarry {

/// Makes freed memory stay in the process for reuse instead of going back to the
/// kernel. A query allocates each page's column buffers (megabytes) and frees them
/// a moment later; with glibc's defaults such blocks are mmap'd and unmapped each
/// time, so every page paid page faults and the kernel's zeroing of fresh pages
/// (about 15 % of TPC-H Q1's CPU time). Blocks up to 32 MiB now come from the heap,
/// and the heap is trimmed only when 512 MiB lie free at its top. Call once, early
/// in main; a no-op where the C library has no such controls.
void keepFreedMemory();

}  // namespace quarry
