#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

/// Transparent huge pages for large buffers.
///
/// A buffer of decoded values, a decompressed page or the text of a long value is
/// written once from start to end, and every 4 KiB page of it costs a page fault
/// when first touched; on a virtual machine a fault costs tens of microseconds,
/// which makes a gigabyte of fresh memory take seconds before a byte is copied.
/// With the kernel's transparent huge pages in `madvise` mode (Debian's default)
/// a buffer that asks for them faults once per 2 MiB instead: printing
/// parquet-testing's large_string_map.brotli.parquet (two 1 GiB strings) went from
/// about a minute to a fraction of it.
///
/// Only output text asks for them. The decoders' buffers (RawVector) did too for a
/// while, and the lineitem queries lost 10-25 % (Q6-like 100 -> 129 ms): a
/// short-lived buffer of a few MiB pays for the kernel's zeroing and compaction
/// of whole huge pages and gains little.
namespace quarry {

/// Buffers at least this large ask for huge pages; smaller ones would not fill one.
inline constexpr size_t kHugePageAdviceBytes = size_t{4} << 20;

/// Asks the kernel to back the 2 MiB-aligned part of [data, data + bytes) with
/// huge pages (madvise MADV_HUGEPAGE); a no-op below kHugePageAdviceBytes, and
/// harmless where the kernel declines.
void adviseHugePages(void* data, size_t bytes);

/// Makes room in `out` for `extra` more bytes when they are many: capacity grows
/// at least geometrically, with a little to spare for the quote or line break
/// that usually follows (which would otherwise copy the whole buffer into one
/// without the advice), and the new buffer asks for huge pages. Small appends are
/// left to std::string's own growth.
inline void reserveForAppend(std::string& out, size_t extra) {
  if (extra < kHugePageAdviceBytes || out.size() + extra <= out.capacity()) return;
  constexpr size_t kSpare = 4096;
  out.reserve(std::max(out.size() + extra + kSpare, out.capacity() * 2));
  adviseHugePages(out.data(), out.capacity());
}

/// Appends `text` to `out`, making room first as reserveForAppend does.
inline void appendBulk(std::string& out, std::string_view text) {
  reserveForAppend(out, text.size());
  out.append(text);
}

}  // namespace quarry
