#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"
#include "quarry/engine/source/file_split.h"
#include "quarry/engine/source/format_reader.h"
#include "quarry/engine/source/scan_metrics.h"

/// The scan of one split as every format's read() runs it: the file is opened
/// on the first page asked for, the format's reader (with the request's
/// projection, pushed filter and byte range) steps from batch to batch (row
/// group, stripe), each batch is cut into pages of at most kMaxPageRows rows
/// and at most the request's limit, and what the reader and storage did is
/// added to the request's ScanMetrics as the scan goes. A page holds, per
/// requested column, the format's block, the constant `_file.path` /
/// `_file.size`, the row's position in the file (`_row.position`, formats that
/// have it) or hive partition value (FileSplit::partition), or nulls for
/// a column the file lacks, widened to the request's output type where the
/// file's differs. A partition column the file also holds is read from the
/// file and must equal the path's value on every row, else an error naming the
/// file, the column and both values.
///
/// A format supplies the hooks: open() opens the file and resolves the
/// requested columns (resolveColumns), advanceReader() / batchRows() move to
/// the next batch, fileColumn() converts a column's rows of it, publishTo()
/// adds its reader's figures, closeReader() releases the reader at the end and
/// fails the scan when the file changed while it was read.
namespace quarry::engine {

class SplitScan {
 public:
  SplitScan(FileSplit split, ReadRequest request) : split_(std::move(split)), request_(std::move(request)) {}
  virtual ~SplitScan() = default;
  SplitScan(const SplitScan&) = delete;
  SplitScan& operator=(const SplitScan&) = delete;

  /// Returns the next page, or nothing after the last (do not call again then).
  std::optional<Page> next();

 protected:
  /// Where a requested column's values come from; a format's own sources are >= 0.
  /// Partition column k of the split is source kPartition - k.
  enum : int { kAbsent = -1, kPath = -2, kSize = -3, kRowPosition = -4, kPartition = -5 };

  /// A requested column the file holds: the format's source for it (>= 0) and its type in the file.
  struct FileColumn {
    int source = 0;
    DataType type;
  };

  /// Sorts each requested column i (named `name`) into a metadata column, a
  /// column `find` finds in the file, or an absent one, with its output type.
  void resolveColumns(const std::function<std::optional<FileColumn>(size_t i, const std::string& name)>& find);

  /// Opens the file: sets fileSize_ and resolves the requested columns.
  virtual void open() = 0;
  /// Moves the reader to its next batch; false after the last.
  virtual bool advanceReader() = 0;
  /// Returns the rows of the batch advanceReader moved to, readying its columns.
  virtual int64_t batchRows() = 0;
  /// Returns rows [offset, offset + count) of the batch's requested column `i`
  /// (its source >= 0) as a block of fileTypes_[i].
  virtual Block fileColumn(size_t i, int64_t offset, int64_t count) = 0;
  /// Returns the file's index of each of rows [offset, offset + count) of the
  /// batch (kRowPositionColumn); the default: the format has none (Unsupported).
  virtual Block rowPositions(int64_t offset, int64_t count);
  /// Adds what the reader and storage did since the last call to `metrics`.
  virtual void publishTo(ScanMetrics& metrics) = 0;
  /// Releases the reader once the scan has ended, then throws IoError when the
  /// file is no longer the one opened (io::StorageObject::checkUnchanged).
  virtual void closeReader() = 0;

  const FileSplit split_;
  const ReadRequest request_;
  uint64_t fileSize_ = 0;
  /// Per requested column: its source, its type in the file and the type to produce.
  std::vector<int> sources_;
  std::vector<DataType> fileTypes_;
  std::vector<DataType> outTypes_;
  /// Per requested column: the partition value its file column must agree with
  /// (a hive partition column the file also has), else -1.
  std::vector<int> partitionChecks_;
  /// Whether a requested column is kRowPositionColumn.
  bool wantsRowPositions_ = false;
  StorageReadPublisher storage_;

 private:
  bool advance();
  Page makePage(int64_t offset, int64_t count);
  /// Throws when a row of `block` (requested column i) differs from its partition value.
  void checkPartition(const Block& block, size_t i) const;
  void publish();
  std::optional<Page> finish();

  /// The `_file.path` column's dictionary: the split's URI.
  std::shared_ptr<const ByteDictionary> pathDictionary_;
  bool opened_ = false;
  int64_t batchRows_ = 0;
  int64_t batchOffset_ = 0;
  int64_t returned_ = 0;
};

}  // namespace quarry::engine
