#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quarry/formats/orc/orc_column_reader.h"
#include "quarry/formats/orc/orc_predicate.h"
#include "quarry/formats/orc/orc_pruning.h"
#include "quarry/formats/orc/orc_schema.h"
#include "quarry/formats/orc/orc_tail.h"
#include "quarry/formats/orc/stripe_reader.h"
#include "quarry/io/storage.h"

/// Reading an ORC file: its tail and schema on open, then stripes on demand,
/// each decoded column-at-a-time into ColumnVectors for a projected set of
/// columns; and a row cursor over those vectors for tests and `quarry print`.
namespace quarry::orc {

/// Counts of what OrcFileReader::readStripe fetched (an OrcRowReader keeps its
/// own OrcScanMetrics).
struct OrcReaderMetrics {
  uint64_t stripesRead = 0;
  uint64_t streamBytesDecompressed = 0;
};

/// A file's tail and the schema built from it: what every reader of one file
/// shares (OrcFormatReader keeps them per file, so that a split does not read
/// the tail again).
struct OrcFileMeta {
  OrcTail tail;
  OrcSchema schema;
};

/// Reads and validates the tail of `file` and builds its schema (see readOrcTail
/// and OrcSchema::build for errors).
std::shared_ptr<const OrcFileMeta> readOrcFileMeta(io::StorageObject& file);

class OrcFileReader {
 public:
  /// Opens `file` and reads its tail and schema (see readOrcTail for errors).
  explicit OrcFileReader(std::unique_ptr<io::StorageObject> file);
  /// Opens `file` with its tail and schema already read (readOrcFileMeta).
  OrcFileReader(std::unique_ptr<io::StorageObject> file, std::shared_ptr<const OrcFileMeta> meta);
  /// Opens the object at `uri` (a local path or any scheme io::openObject knows).
  static std::unique_ptr<OrcFileReader> open(const std::string& uri);

  const OrcTail& tail() const { return meta_->tail; }
  const OrcSchema& schema() const { return meta_->schema; }
  const std::shared_ptr<const OrcFileMeta>& meta() const { return meta_; }
  io::StorageObject& file() { return *file_; }
  uint64_t rowCount() const { return meta_->tail.footer.numberofrows(); }
  size_t stripeCount() const { return meta_->tail.stripeCount(); }
  const OrcReaderMetrics& metrics() const { return metrics_; }

  /// Returns flags (by column id) selecting every column.
  std::vector<bool> projectAll() const;
  /// Returns flags selecting the columns at the dotted `paths` with their
  /// descendants and ancestors; throws InvalidArgument for an unknown path.
  std::vector<bool> project(const std::vector<std::string>& paths) const;

  /// Reads the footer of stripe `index`.
  StripeFooter readStripeFooter(size_t index);
  /// Reads and decodes stripe `index`'s `projected` columns; returns the root
  /// column with one slot per row of the stripe.
  std::unique_ptr<ColumnVector> readStripe(size_t index, const std::vector<bool>& projected);

 private:
  std::unique_ptr<io::StorageObject> file_;
  std::shared_ptr<const OrcFileMeta> meta_;
  OrcReaderMetrics metrics_;
};

/// How an OrcRowReader filters.
struct OrcScanOptions {
  /// Rows are returned only where the filter is true (three-valued: a null
  /// comparison is not true). Bound to the file's schema when the reader is
  /// created; see OrcBoundPredicate::bind for what is refused.
  std::optional<FilterPredicate> filter;
  /// Prunes with metadata: stripes by their stripe statistics, then row groups
  /// (rowIndexStride rows) by the row index. Units no row of which can match
  /// are skipped, units every row of which matches are returned without
  /// evaluating the filter. Off, every row is read and filtered; results are
  /// the same.
  bool metadataPruning = true;
  /// A split's byte range [start, end): only the stripes whose midpoint (offset
  /// plus half of index, data and footer lengths) lies in it are read, the
  /// convention of Parquet row groups (parquet/row_limits.h). None: every stripe.
  std::optional<std::pair<uint64_t, uint64_t>> byteRange;
};

/// What an OrcRowReader did, as Parquet's ReaderMetrics.
struct OrcScanMetrics {
  /// Stripes considered: every stripe of the file, but for those outside the byte range.
  int64_t stripesTotal = 0;
  /// Stripes skipped unread: their statistics prove no row matches.
  int64_t stripesPrunedByStatistics = 0;
  /// Stripes whose statistics keep them but whose row index (statistics of each
  /// row group) proves no row matches: only their index streams were read.
  int64_t stripesPrunedByRowIndex = 0;
  /// Stripes ruled out row group by row group where Bloom filters were needed.
  int64_t stripesPrunedByBloomFilter = 0;
  /// Stripes whose statistics prove every row matches (filter columns not read).
  int64_t stripesMatchedByStatistics = 0;
  /// Stripes whose streams were fetched and decoded.
  int64_t stripesRead = 0;
  /// Row groups (rowIndexStride rows each) of all stripes considered, when the
  /// file has a row index.
  int64_t stridesTotal = 0;
  /// Row groups no row of which matches: in pruned stripes, or ruled out by the
  /// row index or Bloom filters (where their stripe is read, they are decoded
  /// with it, but neither filtered nor returned).
  int64_t stridesSkipped = 0;
  /// Those of them that row-index statistics keep but a Bloom filter rules out.
  int64_t stridesPrunedByBloomFilter = 0;
  /// Row groups the row index proves every row of which matches.
  int64_t stridesMatchedByStatistics = 0;
  uint64_t bytesFetched = 0;
  uint64_t requestsFetched = 0;
  /// Rows of the stripes decoded.
  int64_t rowsDecoded = 0;
  /// Rows next() returned.
  int64_t rowsReturned = 0;
};

/// Iterates the rows of a file stripe by stripe, optionally filtered. A stripe
/// the stripe statistics keep is read as its footer, then (with pruning and a
/// row index) the filter columns' ROW_INDEX and BLOOM_FILTER_UTF8 streams, which
/// decide each row group, then, unless every row group is ruled out, the
/// projected and filter columns' data streams in one readRanges call. The
/// stripe is decoded whole and its selected rows are returned in order: row
/// groups ruled out are decoded with it (streams are not seeked to row-group
/// positions) but never evaluated nor returned.
class OrcRowReader {
 public:
  /// Throws InvalidArgument when the filter does not bind to the file's schema.
  OrcRowReader(OrcFileReader& reader, std::vector<bool> projected, OrcScanOptions options = {});

  /// Moves to the next row; returns false after the last.
  bool next();
  /// Bulk reading (not to be mixed with next()): moves to the next stripe with
  /// a selected row; false after the last. root() is then the stripe and
  /// selectedSlots() its selected slots, ascending.
  bool nextStripe();
  const std::vector<uint64_t>& selectedSlots() const { return selected_; }
  /// Returns the current row's stripe-level root column and slot.
  const ColumnVector& root() const { return *stripe_; }
  uint64_t slot() const { return slot_; }
  /// Appends the current row as one JSON object (the form of the ORC tools'
  /// expected/*.jsn files): see appendJson.
  void appendRowJson(std::string& out) const;
  const OrcScanMetrics& metrics() const { return metrics_; }

 private:
  /// Reads stripes until one has a selected row; false at the end.
  bool loadNextStripe();
  /// Decides the row groups of a stripe from the filter columns' row indexes and
  /// Bloom filters (in `index`); counts Bloom-filter decisions in the metrics.
  std::vector<UnitDecision> decideStrides(const StripeFooter& footer, const StripeStreams& index);

  OrcFileReader& reader_;
  std::vector<bool> projected_;
  std::optional<OrcBoundPredicate> filter_;
  bool pruning_ = true;
  std::optional<std::pair<uint64_t, uint64_t>> byteRange_;
  PruningContext pruningContext_;
  bool bloomFilters_ = false;
  OrcScanMetrics metrics_;
  std::unique_ptr<ColumnVector> stripe_;
  /// The stripe's selected slots, ascending.
  std::vector<uint64_t> selected_;
  size_t position_ = 0;
  size_t nextStripe_ = 0;
  uint64_t slot_ = 0;
};

/// Appends slot `slot` of `column` as JSON: null; true/false; numbers (decimals
/// exactly at their scale, floats in their shortest form, NaN and infinities as
/// strings); strings escaped; binary as an array of byte values; dates as
/// "YYYY-MM-DD"; timestamps as "YYYY-MM-DD HH:MM:SS.f" (the writer's wall clock,
/// fraction without trailing zeros, at least one digit); structs as objects;
/// lists as arrays; maps as arrays of {"key", "value"}; unions as {"tag", "value"}.
void appendJson(const ColumnVector& column, uint64_t slot, std::string& out);

}  // namespace quarry::orc
