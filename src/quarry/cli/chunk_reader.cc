#include "quarry/cli/chunk_reader.h"

#include <algorithm>
#include <optional>
#include <span>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/metadata_decoder.h"

namespace quarry::cli {

namespace {

/// The bytes of a chunk read so far: one window, refilled as the walk moves on.
class ChunkWindow {
 public:
  ChunkWindow(io::StorageObject& file, const ChunkRange& range) : file_(file), range_(range) {}

  /// Returns at least `want` bytes starting at `offset` (want <= bytes left in
  /// the chunk), reading when the window does not hold them.
  std::span<const uint8_t> at(uint64_t offset, uint64_t want) {
    const uint64_t chunkEnd = range_.start + range_.length;
    if (offset < start_ || offset + want > start_ + bytes_.size()) {
      const uint64_t left = chunkEnd - offset;
      const uint64_t length =
          left <= kWholeChunkRead ? left : std::min(left, std::max(want, kPageHeaderRead));
      bytes_.resize(length);
      file_.readAt(offset, bytes_);
      start_ = offset;
    }
    return std::span<const uint8_t>(bytes_).subspan(offset - start_);
  }

 private:
  io::StorageObject& file_;
  ChunkRange range_;
  uint64_t start_ = 0;
  std::vector<uint8_t> bytes_;
};

std::vector<uint8_t> readIndexBytes(io::StorageObject& file, const std::optional<int64_t>& offset,
                                    const std::optional<int32_t>& length, std::string_view what,
                                    const ChunkLocation& where) {
  if (!offset.has_value() || !length.has_value()) {
    throw CorruptFile(where.describe(file) + ": the " + std::string(what) +
                      " location lacks its offset or length");
  }
  if (*offset < 0 || *length <= 0 || static_cast<uint64_t>(*offset) > file.size() ||
      static_cast<uint64_t>(*length) > file.size() - static_cast<uint64_t>(*offset)) {
    throw CorruptFile(where.describe(file) + ": the " + std::string(what) + " at offset " +
                      std::to_string(*offset) + " with length " + std::to_string(*length) +
                      " does not lie within the file of " + std::to_string(file.size()) + " bytes");
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(*length));
  file.readAt(static_cast<uint64_t>(*offset), bytes);
  return bytes;
}

template <typename Decode>
auto decodeIndex(io::StorageObject& file, const std::optional<int64_t>& offset,
                 const std::optional<int32_t>& length, std::string_view what,
                 const ChunkLocation& where, Decode decode) {
  const std::vector<uint8_t> bytes = readIndexBytes(file, offset, length, what, where);
  try {
    return decode(std::span<const uint8_t>(bytes));
  } catch (const CorruptFile& e) {
    throw CorruptFile(where.describe(file) + ": invalid " + std::string(what) + " at offset " +
                      std::to_string(*offset) + ": " + e.what());
  }
}

}  // namespace

std::string ChunkLocation::describe(const io::StorageObject& file) const {
  return file.uri() + ": row group " + std::to_string(rowGroup) + ", column " +
         std::to_string(column) + " '" + path + "'";
}

ChunkRange columnChunkRange(const io::StorageObject& file, const parquet::ColumnMetaData& meta,
                            const ChunkLocation& where) {
  // The first page is the dictionary page where there is one, else the first
  // data page. Writers get these offsets wrong in known ways: a dictionary
  // offset of 0 for a chunk without a dictionary, a data page offset of 0 for
  // a chunk with only a dictionary page. No page can start inside the leading
  // magic, so such an offset is not a page's.
  constexpr int64_t kFirstPageOffset = 4;
  std::optional<int64_t> start;
  if (meta.data_page_offset >= kFirstPageOffset) {
    start = meta.data_page_offset;
  }
  if (meta.dictionary_page_offset.has_value() && *meta.dictionary_page_offset >= kFirstPageOffset &&
      (!start.has_value() || *meta.dictionary_page_offset < *start)) {
    start = meta.dictionary_page_offset;
  }
  const int64_t length = meta.total_compressed_size;
  if (!start.has_value() || length < 0 || static_cast<uint64_t>(*start) > file.size() ||
      static_cast<uint64_t>(length) > file.size() - static_cast<uint64_t>(*start)) {
    throw CorruptFile(where.describe(file) + ": the column chunk at offset " +
                      std::to_string(start.value_or(meta.data_page_offset)) +
                      " with total_compressed_size " + std::to_string(length) +
                      " does not lie within the file of " + std::to_string(file.size()) + " bytes");
  }
  return ChunkRange{static_cast<uint64_t>(*start), static_cast<uint64_t>(length)};
}

std::vector<PageEntry> readPageHeaders(io::StorageObject& file, const ChunkRange& range,
                                       const ChunkLocation& where) {
  std::vector<PageEntry> pages;
  ChunkWindow window(file, range);
  const uint64_t end = range.start + range.length;
  uint64_t offset = range.start;
  while (offset < end) {
    const uint64_t left = end - offset;
    uint64_t want = std::min(left, kPageHeaderRead);
    PageEntry entry;
    entry.offset = offset;
    while (true) {
      const auto bytes = window.at(offset, want).first(want);
      try {
        entry.header = parquet::decodePageHeader(bytes, entry.headerSize);
        break;
      } catch (const CorruptFile& e) {
        // A header larger than what was read fails like a corrupt one; only
        // with every byte up to the chunk's end (or the bound) is it corrupt.
        if (want == left || want >= kMaxPageHeaderSize) {
          throw CorruptFile(where.describe(file) + ": invalid page header at offset " +
                            std::to_string(offset) + " (the column chunk ends at " +
                            std::to_string(end) + "): " + e.what());
        }
        want = std::min({left, want * 4, kMaxPageHeaderSize});
      }
    }
    const int32_t compressedSize = entry.header.compressed_page_size;
    if (compressedSize < 0 || entry.header.uncompressed_page_size < 0) {
      throw CorruptFile(where.describe(file) + ": the page at offset " + std::to_string(offset) +
                        " has a negative size: compressed " + std::to_string(compressedSize) +
                        ", uncompressed " + std::to_string(entry.header.uncompressed_page_size));
    }
    const uint64_t pageEnd = offset + entry.headerSize + static_cast<uint64_t>(compressedSize);
    if (entry.headerSize > left || pageEnd > end) {
      throw CorruptFile(where.describe(file) + ": the page at offset " + std::to_string(offset) +
                        " (header " + std::to_string(entry.headerSize) + " bytes, data " +
                        std::to_string(compressedSize) +
                        " bytes) runs past the column chunk's end at " + std::to_string(end));
    }
    pages.push_back(std::move(entry));
    offset = pageEnd;
  }
  return pages;
}

parquet::OffsetIndex readOffsetIndex(io::StorageObject& file, const parquet::ColumnChunk& chunk,
                                     const ChunkLocation& where) {
  return decodeIndex(
      file, chunk.offset_index_offset, chunk.offset_index_length, "offset index", where,
      [](std::span<const uint8_t> bytes) { return parquet::decodeOffsetIndex(bytes); });
}

parquet::ColumnIndex readColumnIndex(io::StorageObject& file, const parquet::ColumnChunk& chunk,
                                     const ChunkLocation& where) {
  return decodeIndex(
      file, chunk.column_index_offset, chunk.column_index_length, "column index", where,
      [](std::span<const uint8_t> bytes) { return parquet::decodeColumnIndex(bytes); });
}

}  // namespace quarry::cli
