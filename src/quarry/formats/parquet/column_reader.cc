#include "quarry/formats/parquet/column_reader.h"

#include <stdexcept>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"

namespace quarry::parquet {

std::vector<const NodeSlots*> ColumnBatch::nesting() const {
  std::vector<const NodeSlots*> path;
  for (const SchemaNode* n = leaf_; n != nullptr && !n->isRoot(); n = n->parent) {
    path.insert(path.begin(), group_->slots(n));
  }
  return path;
}

namespace {

/// Decoding memory a finished ColumnReaders leaves to the next one on its thread:
/// without it, every file of a scan would fault in (and glibc hand back to the
/// kernel) its column buffers afresh.
struct ScanMemory {
  std::vector<ChunkBuffers> buffers;
  std::vector<ColumnChunkData> columns;
};

/// Kept only up to this many bytes: an idle thread must not hold on to more.
constexpr size_t kMaxKeptBytes = size_t{256} << 20;

thread_local ScanMemory keptMemory;

size_t bytesOf(const ScanMemory& memory) {
  size_t total = 0;
  for (const auto& b : memory.buffers) total += b.rawCapacity + b.pageCapacity + b.levels.capacity() * 2;
  for (const auto& c : memory.columns) {
    total += c.definitionLevels.capacity() * 2 + c.repetitionLevels.capacity() * 2 +
             c.fixedValues.capacity() + c.offsets.capacity() * 8 + c.byteData.capacity();
  }
  return total;
}

}  // namespace

ColumnReaders::ColumnReaders(ParquetFileReader& file, ResolvedProjection projection)
    : file_(file), projection_(std::move(projection)) {
  buffers_ = std::move(keptMemory.buffers);
  spare_ = std::move(keptMemory.columns);
  keptMemory = ScanMemory{};
}

ColumnReaders::~ColumnReaders() {
  ScanMemory memory{std::move(buffers_), current_ ? current_->releaseColumns() : std::move(spare_)};
  if (bytesOf(memory) <= kMaxKeptBytes && bytesOf(memory) >= bytesOf(keptMemory)) {
    keptMemory = std::move(memory);
  }
}

bool ColumnReaders::nextBatch() {
  ColumnChunkReadOptions options;
  options.verifyChecksums = file_.options().verifyChecksums;
  while (nextRowGroup_ < file_.numRowGroups()) {
    const int index = nextRowGroup_++;
    // The previous batch is done with once this is called: its memory is reused.
    std::vector<ColumnChunkData> columns;
    if (current_) {
      columns = current_->releaseColumns();
    } else {
      columns = std::move(spare_);
    }
    current_.reset();
    const RowGroup& group = file_.metadata().row_groups[static_cast<size_t>(index)];
    readRowGroupChunks(file_.storage(), index, group, projection_.leaves(), options,
                       file_.options().threads, buffers_, columns);
    try {
      current_.emplace(AssembledRowGroup::assemble(std::move(columns), group.num_rows));
    } catch (const CorruptFile& e) {
      throw CorruptFile(file_.uri() + ": row group " + std::to_string(index) + ": " + e.what());
    }
    if (current_->numRows() > 0) return true;
  }
  current_.reset();
  return false;
}

ColumnBatch ColumnReaders::column(size_t index) const {
  if (index >= projection_.columnOrder().size()) {
    throw std::out_of_range("column index " + std::to_string(index) + " is past the " +
                            std::to_string(projection_.columnOrder().size()) + " projected columns");
  }
  if (!current_) throw InvalidArgument("ColumnReaders: call nextBatch() before reading a column");
  return ColumnBatch(&*current_, projection_.columnOrder()[index]);
}

}  // namespace quarry::parquet
