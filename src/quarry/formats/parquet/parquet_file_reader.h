#pragma once

#include <memory>
#include <string>

#include "quarry/formats/parquet/column_chunk_reader.h"
#include "quarry/formats/parquet/column_projection.h"
#include "quarry/formats/parquet/footer.h"
#include "quarry/formats/parquet/record_assembly.h"
#include "quarry/formats/parquet/schema.h"
#include "quarry/io/storage.h"

/// The entry point of the Parquet reader: one open file, its footer and schema,
/// and the decoding of its row groups.
namespace quarry::parquet {

class RowReader;
class RowReaderBuilder;
class ColumnReaders;
class FilterPredicate;
struct PageSelection;
class BoundPredicate;
struct ScanMemory;
struct ReaderMetrics;

struct ReaderOptions {
  /// Verifies page CRCs where pages carry them (a mismatch is CorruptFile).
  bool verifyChecksums = true;
  /// Threads decoding a row group's column chunks in parallel; 0 picks the
  /// machine's hardware concurrency.
  int threads = 0;
  /// Prunes with file metadata (row-group statistics, Bloom filters and
  /// dictionaries; page indexes later): a filter skips the units no row of which
  /// can match and evaluates no row of units every row of which matches. Off,
  /// every row group is read and filtered row by row; results are the same.
  bool metadataPruning = true;
  /// With a filter, ColumnReaders leaves each batch's row group whole and lists
  /// the rows the filter selects (ColumnReaders::selectedRows) instead of copying
  /// them out of every column: for callers that gather the rows they convert
  /// anyway. Off, a batch holds the selected rows only.
  bool selectionVector = false;
  /// ColumnReaders only: BYTE_ARRAY chunks whose data pages are all
  /// dictionary-encoded come as dictionary indices plus the chunk's dictionary
  /// (ColumnChunkData::dictionary; ColumnChunkData::bytes(i) still gives each
  /// value). Other readers decode plain whatever this says.
  bool dictionaryIds = false;
};

class ParquetFileReader {
 public:
  /// Opens the file at `uri` and reads its footer (one request for most files).
  static std::unique_ptr<ParquetFileReader> open(const std::string& uri, ReaderOptions options = {});
  static std::unique_ptr<ParquetFileReader> open(std::unique_ptr<io::StorageObject> file,
                                                 ReaderOptions options = {});
  /// Opens `file` with its footer already decoded (a FooterCache hit): no read.
  /// (No default for `options`: open(file, {}) stays the overload above.)
  static std::unique_ptr<ParquetFileReader> open(std::unique_ptr<io::StorageObject> file,
                                                 std::shared_ptr<const ParquetFooter> footer,
                                                 ReaderOptions options);

  const std::string& uri() const { return file_->uri(); }
  const FileMetaData& metadata() const { return footer_->metadata; }
  const FileSchema& schema() const { return schema_; }
  int numRowGroups() const { return static_cast<int>(footer_->metadata.row_groups.size()); }
  io::StorageObject& storage() { return *file_; }
  const ReaderOptions& options() const { return options_; }

  /// Decodes the projected columns of row group `index` and assembles its rows.
  /// Throws CorruptFile naming the file, row group and column on any defect.
  AssembledRowGroup readRowGroup(int index, const ResolvedProjection& projection);
  /// As above, decoding into `memory` (its buffers reused and kept, its columns
  /// consumed: give them back from the previous group's releaseColumns()).
  AssembledRowGroup readRowGroup(int index, const ResolvedProjection& projection,
                                 ScanMemory& memory);
  /// Decodes the rows `selection` keeps of row group `index` (page_pruning.h),
  /// reading only the pages that hold them where a chunk has an OffsetIndex; the
  /// assembled group holds those rows alone. Counts the pages in `metrics`.
  AssembledRowGroup readRowGroupRows(int index, const ResolvedProjection& projection,
                                     const PageSelection& selection, ReaderMetrics& metrics,
                                     ScanMemory& memory);

  /// Returns whether readSelectedRows can spare pages for `selection`: some
  /// leaf of `projection` outside `filter` has an OffsetIndex in it.
  static bool materializesLate(const ResolvedProjection& projection, const BoundPredicate& filter,
                               const PageSelection& selection);
  /// Late materialization: decodes the rows `selection` keeps of the filter's
  /// leaves only, evaluates `filter` on them, then reads of the other leaves of
  /// `projection` only the rows it selects (the pages holding one, where a chunk
  /// has an OffsetIndex). The assembled group holds the selected rows alone;
  /// `rows` receives their indices in the row group. Counts the pages in
  /// `metrics` (not the rows decoded: selection.rows.rowCount()).
  AssembledRowGroup readSelectedRows(int index, const ResolvedProjection& projection,
                                     const BoundPredicate& filter, const PageSelection& selection,
                                     ReaderMetrics& metrics, ScanMemory& memory,
                                     std::vector<int64_t>& rows);

  /// Returns a reader over every row of the file, with `projection`'s columns.
  std::unique_ptr<RowReader> rowReader(const ColumnProjection& projection = ColumnProjection::all());
  /// Returns a reader over the rows `filter` selects, with `projection`'s columns.
  /// Binds the filter to this file's schema: throws InvalidArgument for a column or
  /// literal it cannot take (query-controls.txt, "Predicate literals by column type").
  std::unique_ptr<RowReader> rowReader(const ColumnProjection& projection,
                                       const FilterPredicate& filter);
  /// Returns a builder: buildRowReader().projection(p).filter(f).build().
  RowReaderBuilder buildRowReader();

  /// Returns a reader of `projection`'s columns in aligned batches (one per row group).
  std::unique_ptr<ColumnReaders> columnReaders(
      const ColumnProjection& projection = ColumnProjection::all());
  /// Returns a reader of `projection`'s columns whose batches hold only the rows
  /// `filter` selects (a row group with none gives no batch). Binds the filter as
  /// rowReader(projection, filter) does, with the same errors.
  std::unique_ptr<ColumnReaders> columnReaders(const ColumnProjection& projection,
                                               const FilterPredicate& filter);

 private:
  ParquetFileReader(std::unique_ptr<io::StorageObject> file,
                    std::shared_ptr<const ParquetFooter> footer, ReaderOptions options);

  std::unique_ptr<io::StorageObject> file_;
  ReaderOptions options_;
  std::shared_ptr<const ParquetFooter> footer_;
  FileSchema schema_;
};

}  // namespace quarry::parquet
