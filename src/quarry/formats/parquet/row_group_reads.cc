#include "quarry/formats/parquet/row_group_reads.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <string>

#include "quarry/common/error.h"
#include "quarry/common/thread_pool.h"
#include "quarry/formats/parquet/row_selection.h"

// A row group is read in two steps: every projected chunk is planned (its byte
// runs, checked against the file) and given room in its ChunkBuffers::raw, the
// runs of all chunks go to storage in one readRanges call, and only then are the
// chunks decoded, in parallel. Local files read each run straight into its
// buffer; remote ones merge near runs into one request (io/read_planner), so a
// projection of a few columns costs one request per row group, not one per chunk.
namespace quarry::parquet {
namespace {

std::string chunkContext(const io::StorageObject& file, int rowGroup, const SchemaNode& leaf) {
  return file.uri() + ": row group " + std::to_string(rowGroup) + ", column '" + leaf.path + "'";
}

/// Checks what decoding a chunk relies on; returns its byte range. `groupRows`:
/// the rows of its row group, or -1 when the caller does not know them.
template <typename Context>
ChunkRange checkedChunkRange(const io::StorageObject& file, const ColumnChunk& chunk,
                             const SchemaNode& leaf, int64_t groupRows, const Context& context) {
  if (!chunk.meta_data) throw CorruptFile(context() + ": the column chunk has no meta_data");
  if (chunk.file_path) {
    throw Unsupported(context() + ": the column chunk lives in another file ('" + *chunk.file_path +
                      "'), which is not supported");
  }
  const ColumnMetaData& meta = *chunk.meta_data;
  if (meta.type != *leaf.physicalType) {
    throw CorruptFile(context() + ": the chunk's type " + toString(meta.type) +
                      " differs from the schema's " + toString(*leaf.physicalType));
  }
  if (meta.num_values < 0) {
    throw CorruptFile(context() + ": num_values is negative (" + std::to_string(meta.num_values) +
                      ")");
  }
  // Each page's count is checked against what remains of num_values before its
  // levels are decoded (column_chunk_reader), so bounding num_values by the row
  // group bounds every count below it: a column that is not repeated has one
  // level entry per row, a repeated one at least one.
  if (groupRows >= 0 && (leaf.maxRepetitionLevel == 0 ? meta.num_values != groupRows
                                                      : meta.num_values < groupRows)) {
    throw CorruptFile(context() + ": the column chunk declares " + std::to_string(meta.num_values) +
                      " values but its row group has " + std::to_string(groupRows) + " rows" +
                      (leaf.maxRepetitionLevel == 0 ? " (one value per row)" : ""));
  }
  const ChunkRange range = columnChunkRange(meta);
  if (range.offset > file.size() || range.length > file.size() - range.offset) {
    throw CorruptFile(context() + ": the chunk's bytes [" + std::to_string(range.offset) + ", " +
                      std::to_string(range.offset + range.length) + ") lie past the end of the " +
                      std::to_string(file.size()) + "-byte file");
  }
  return range;
}

/// Makes `buffers.raw` hold at least `length` bytes (not zero-filled: reads
/// overwrite them).
void reserveRaw(ChunkBuffers& buffers, size_t length) {
  if (length > buffers.rawCapacity) {
    buffers.rawCapacity = length + length / 8;
    buffers.raw = std::make_unique_for_overwrite<uint8_t[]>(buffers.rawCapacity);
  }
}

/// What is read of one chunk: byte runs, laid out one after another in
/// ChunkBuffers::raw; with an OffsetIndex, the pages kept and where their rows land.
struct ChunkPlan {
  /// No OffsetIndex: one run, the whole chunk.
  bool whole = true;
  std::vector<ChunkRange> runs;
  /// The whole chunk, [chunkOffset, chunkOffset + chunkLength) of the file, is
  /// already in ChunkBuffers::raw (readWholeChunks): the runs are not read but
  /// found there.
  bool inBuffers = false;
  uint64_t chunkOffset = 0;
  uint64_t chunkLength = 0;
  /// A kept page's rows [first, end) of the row group are decoded rows [at, ...).
  struct KeptPage {
    int64_t first;
    int64_t end;
    int64_t at;
  };
  std::vector<KeptPage> kept;
  /// The rows the runs decode to (a whole chunk: the row group's).
  int64_t decodedRows = 0;
};

ChunkPlan planChunk(const io::StorageObject& file, int rowGroup, const ColumnChunk& chunk,
                    const SchemaNode& leaf, const OffsetIndex* offsets, const RowRanges* rows,
                    int64_t groupRows, bool inBuffers) {
  auto context = [&] { return chunkContext(file, rowGroup, leaf); };
  const ChunkRange range = checkedChunkRange(file, chunk, leaf, groupRows, context);
  ChunkPlan plan;
  plan.inBuffers = inBuffers;
  plan.chunkOffset = range.offset;
  plan.chunkLength = range.length;
  if (offsets == nullptr) {
    plan.runs.push_back(range);
    plan.decodedRows = groupRows;
    return plan;
  }
  plan.whole = false;
  const auto& pages = offsets->page_locations;
  auto pageEnd = [&](size_t i) {
    return i + 1 < pages.size() ? pages[i + 1].first_row_index : groupRows;
  };
  // The dictionary (whatever precedes the first data page), then each run of
  // adjacent pages holding a selected row.
  if (range.offset < static_cast<uint64_t>(pages.front().offset)) {
    plan.runs.push_back({range.offset, static_cast<uint64_t>(pages.front().offset) - range.offset});
  }
  for (size_t i = 0; i < pages.size(); ++i) {
    if (!rows->overlaps(pages[i].first_row_index, pageEnd(i))) continue;
    plan.kept.push_back({pages[i].first_row_index, pageEnd(i), plan.decodedRows});
    plan.decodedRows += pageEnd(i) - pages[i].first_row_index;
    const auto offset = static_cast<uint64_t>(pages[i].offset);
    const auto length = static_cast<uint64_t>(pages[i].compressed_page_size);
    if (!plan.runs.empty() && plan.runs.back().offset + plan.runs.back().length == offset) {
      plan.runs.back().length += length;
    } else {
      plan.runs.push_back({offset, length});
    }
  }
  return plan;
}

/// Makes room for `plan`'s runs in `buffers.raw` and adds a range reading each there.
void addReads(const ChunkPlan& plan, ChunkBuffers& buffers, std::vector<io::ReadRange>& reads) {
  if (plan.inBuffers) return;
  uint64_t total = 0;
  for (const ChunkRange& run : plan.runs) total += run.length;
  reserveRaw(buffers, static_cast<size_t>(total));
  uint64_t at = 0;
  for (const ChunkRange& run : plan.runs) {
    reads.push_back({run.offset, {buffers.raw.get() + at, static_cast<size_t>(run.length)}});
    at += run.length;
  }
}

/// Decodes a chunk whose runs `plan` are in `buffers.raw`; with `rows` keeps
/// those rows only. Returns the data pages decoded of a chunk with an OffsetIndex.
int64_t decodeChunk(const io::StorageObject& file, int rowGroup, const ColumnChunk& chunk,
                    const SchemaNode& leaf, const ChunkPlan& plan, const RowRanges* rows,
                    const ColumnChunkReadOptions& options, ChunkBuffers& buffers,
                    ColumnChunkData& out) {
  auto context = [&] { return chunkContext(file, rowGroup, leaf); };
  std::vector<PageRun> runs;
  runs.reserve(plan.runs.size());
  uint64_t at = 0;
  for (const ChunkRange& run : plan.runs) {
    if (plan.inBuffers) {
      // Where the run lies in the whole chunk read before.
      if (run.offset < plan.chunkOffset || run.offset - plan.chunkOffset > plan.chunkLength ||
          run.length > plan.chunkLength - (run.offset - plan.chunkOffset)) {
        throw CorruptFile(context() + ": the pages at bytes [" + std::to_string(run.offset) + ", " +
                          std::to_string(run.offset + run.length) + ") lie outside the chunk's [" +
                          std::to_string(plan.chunkOffset) + ", " +
                          std::to_string(plan.chunkOffset + plan.chunkLength) + ")");
      }
      at = run.offset - plan.chunkOffset;
    }
    runs.push_back({{buffers.raw.get() + at, static_cast<size_t>(run.length)}, run.offset});
    at += run.length;
  }
  if (rows == nullptr) {
    decodeColumnChunkRuns(runs, true, *chunk.meta_data, leaf, options, context, buffers, out);
    return 0;
  }
  // Every row the runs hold is wanted (all the group's, or pages that hold
  // exactly the rows kept): decoded in place, nothing trimmed.
  const bool everyDecodedRow = rows->rowCount() == plan.decodedRows;
  ColumnChunkData& decoded = everyDecodedRow ? out : buffers.pages;
  // A whole chunk of which only leading rows are wanted (a head) is decoded only
  // as far as the last of them.
  ColumnChunkReadOptions prefix = options;
  const bool leading = plan.whole && !everyDecodedRow && leaf.maxRepetitionLevel == 0 &&
                       !rows->ranges().empty();
  if (leading) prefix.rowLimit = rows->ranges().back().end;
  decodeColumnChunkRuns(runs, plan.whole && !leading, *chunk.meta_data, leaf, prefix, context,
                        buffers, decoded);
  if (plan.whole) {
    // No page locations: the whole chunk, then its rows.
    if (!everyDecodedRow) out = keepRows(decoded, rows->rows(), std::move(out));
    return 0;
  }
  // The pages must hold the rows the offset index says they do.
  const int64_t rowsDecoded =
      decoded.repetitionLevels.empty()
          ? decoded.levelCount
          : std::count(decoded.repetitionLevels.begin(), decoded.repetitionLevels.end(), 0);
  if (rowsDecoded != plan.decodedRows ||
      (!decoded.repetitionLevels.empty() && decoded.repetitionLevels[0] != 0)) {
    throw CorruptFile(context() + ": the " + std::to_string(plan.kept.size()) +
                      " pages read hold " + std::to_string(rowsDecoded) +
                      " rows, the offset index gives them " + std::to_string(plan.decodedRows));
  }
  if (everyDecodedRow) return static_cast<int64_t>(plan.kept.size());
  std::vector<int64_t> local;
  local.reserve(static_cast<size_t>(rows->rowCount()));
  size_t page = 0;
  for (const RowRanges::Range& r : rows->ranges()) {
    for (int64_t row = r.first; row < r.end; ++row) {
      while (page < plan.kept.size() && plan.kept[page].end <= row) ++page;
      local.push_back(plan.kept[page].at + (row - plan.kept[page].first));
    }
  }
  out = keepRows(decoded, local, std::move(out));
  return static_cast<int64_t>(plan.kept.size());
}

/// Runs `decode(i)` for each of `n` leaves, in parallel unless `threads` is 1.
template <typename Decode>
void forEachLeaf(size_t n, int threads, const Decode& decode) {
  if (threads == 1 || n <= 1) {
    for (size_t i = 0; i < n; ++i) decode(i);
  } else {
    ThreadPool::shared().parallelFor(n, decode);
  }
}

/// Plans, reads (one readRanges call) and decodes the chunks of `leaves`; with
/// `rows`, only those rows (each leaf with its OffsetIndex where present).
int64_t readChunks(io::StorageObject& file, int rowGroup, const RowGroup& group,
                   std::span<const SchemaNode* const> leaves, const RowRanges* rows,
                   std::span<const std::optional<OffsetIndex>> offsetIndexes,
                   std::span<const uint8_t> chunkInBuffers, const ColumnChunkReadOptions& options, int threads,
                   std::vector<ChunkBuffers>& buffers, std::vector<ColumnChunkData>& columns) {
  columns.resize(leaves.size());
  if (buffers.size() < leaves.size()) buffers.resize(leaves.size());
  auto chunkOf = [&](size_t i) -> const ColumnChunk& {
    return group.columns.at(static_cast<size_t>(leaves[i]->leafIndex));
  };
  // A chunk whose metadata is defective is not read; its error is thrown where
  // decoding it would have begun, so that a file with several defects reports
  // the first column's, as when each chunk was read on its own.
  std::vector<ChunkPlan> plans(leaves.size());
  std::vector<std::exception_ptr> planErrors(leaves.size());
  std::vector<io::ReadRange> reads;
  for (size_t i = 0; i < leaves.size(); ++i) {
    const OffsetIndex* offsets =
        i < offsetIndexes.size() && offsetIndexes[i] ? &*offsetIndexes[i] : nullptr;
    try {
      plans[i] = planChunk(file, rowGroup, chunkOf(i), *leaves[i], offsets, rows, group.num_rows,
                           i < chunkInBuffers.size() && chunkInBuffers[i] != 0);
    } catch (...) {
      planErrors[i] = std::current_exception();
      continue;
    }
    addReads(plans[i], buffers[i], reads);
  }
  file.readRanges(reads);
  std::vector<int64_t> pagesRead(leaves.size());
  forEachLeaf(leaves.size(), threads, [&](size_t i) {
    if (planErrors[i]) std::rethrow_exception(planErrors[i]);
    pagesRead[i] = decodeChunk(file, rowGroup, chunkOf(i), *leaves[i], plans[i], rows, options,
                               buffers[i], columns[i]);
  });
  int64_t total = 0;
  for (const int64_t n : pagesRead) total += n;
  return total;
}

}  // namespace

void readColumnChunk(io::StorageObject& file, int rowGroup, const ColumnChunk& chunk,
                     const SchemaNode& leaf, const ColumnChunkReadOptions& options,
                     ChunkBuffers& buffers, ColumnChunkData& out) {
  const ChunkPlan plan = planChunk(file, rowGroup, chunk, leaf, nullptr, nullptr, -1, false);
  std::vector<io::ReadRange> reads;
  addReads(plan, buffers, reads);
  file.readRanges(reads);
  decodeChunk(file, rowGroup, chunk, leaf, plan, nullptr, options, buffers, out);
}

ColumnChunkData readColumnChunk(io::StorageObject& file, int rowGroup, const ColumnChunk& chunk,
                                const SchemaNode& leaf, const ColumnChunkReadOptions& options) {
  ChunkBuffers buffers;
  ColumnChunkData out;
  readColumnChunk(file, rowGroup, chunk, leaf, options, buffers, out);
  return out;
}

int64_t readColumnChunkRows(io::StorageObject& file, int rowGroup, const ColumnChunk& chunk,
                            const SchemaNode& leaf, const OffsetIndex* offsets,
                            const RowRanges& rows, int64_t groupRows,
                            const ColumnChunkReadOptions& options, ChunkBuffers& buffers,
                            ColumnChunkData& out) {
  const ChunkPlan plan = planChunk(file, rowGroup, chunk, leaf, offsets, &rows, groupRows, false);
  std::vector<io::ReadRange> reads;
  addReads(plan, buffers, reads);
  file.readRanges(reads);
  return decodeChunk(file, rowGroup, chunk, leaf, plan, &rows, options, buffers, out);
}

void readRowGroupChunks(io::StorageObject& file, int rowGroup, const RowGroup& group,
                        std::span<const SchemaNode* const> leaves,
                        const ColumnChunkReadOptions& options, int threads,
                        std::vector<ChunkBuffers>& buffers, std::vector<ColumnChunkData>& columns) {
  readChunks(file, rowGroup, group, leaves, nullptr, {}, {}, options, threads, buffers, columns);
}

int64_t readRowGroupRows(io::StorageObject& file, int rowGroup, const RowGroup& group,
                         std::span<const SchemaNode* const> leaves, const RowRanges& rows,
                         std::span<const std::optional<OffsetIndex>> offsetIndexes,
                         std::span<const uint8_t> chunkInBuffers,
                         const ColumnChunkReadOptions& options, int threads,
                         std::vector<ChunkBuffers>& buffers,
                         std::vector<ColumnChunkData>& columns) {
  return readChunks(file, rowGroup, group, leaves, &rows, offsetIndexes, chunkInBuffers, options,
                    threads, buffers, columns);
}

std::vector<uint8_t> readWholeChunks(io::StorageObject& file, int rowGroup, const RowGroup& group,
                                     std::span<const SchemaNode* const> leaves,
                                     std::span<const uint8_t> wanted,
                                     std::vector<ChunkBuffers>& buffers) {
  if (buffers.size() < leaves.size()) buffers.resize(leaves.size());
  std::vector<uint8_t> read(leaves.size(), 0);
  std::vector<io::ReadRange> reads;
  for (size_t i = 0; i < leaves.size() && i < wanted.size(); ++i) {
    if (wanted[i] == 0) continue;
    ChunkPlan plan;
    try {
      plan = planChunk(file, rowGroup, group.columns.at(static_cast<size_t>(leaves[i]->leafIndex)),
                       *leaves[i], nullptr, nullptr, group.num_rows, false);
    } catch (const Error&) {
      continue;
    }
    addReads(plan, buffers[i], reads);
    read[i] = 1;
  }
  if (!reads.empty()) file.readRanges(reads);
  return read;
}

}  // namespace quarry::parquet
