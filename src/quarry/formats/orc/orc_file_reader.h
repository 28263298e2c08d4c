#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quarry/formats/orc/orc_column_reader.h"
#include "quarry/formats/orc/orc_schema.h"
#include "quarry/formats/orc/orc_tail.h"
#include "quarry/formats/orc/stripe_reader.h"
#include "quarry/io/storage.h"

/// Reading an ORC file: its tail and schema on open, then stripes on demand,
/// each decoded column-at-a-time into ColumnVectors for a projected set of
/// columns; and a row cursor over those vectors for tests and `quarry print`.
namespace quarry::orc {

/// Counts of what a reader fetched, for tests and metrics.
struct OrcReaderMetrics {
  uint64_t stripesRead = 0;
  uint64_t streamBytesDecompressed = 0;
};

class OrcFileReader {
 public:
  /// Opens `file` and reads its tail and schema (see readOrcTail for errors).
  explicit OrcFileReader(std::unique_ptr<io::StorageObject> file);
  /// Opens the object at `uri` (a local path or any scheme io::openObject knows).
  static std::unique_ptr<OrcFileReader> open(const std::string& uri);

  const OrcTail& tail() const { return tail_; }
  const OrcSchema& schema() const { return schema_; }
  io::StorageObject& file() { return *file_; }
  uint64_t rowCount() const { return tail_.footer.numberofrows(); }
  size_t stripeCount() const { return tail_.stripeCount(); }
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
  OrcTail tail_;
  OrcSchema schema_;
  OrcReaderMetrics metrics_;
};

/// Iterates the rows of a file stripe by stripe.
class OrcRowReader {
 public:
  OrcRowReader(OrcFileReader& reader, std::vector<bool> projected);

  /// Moves to the next row; returns false after the last.
  bool next();
  /// Returns the current row's stripe-level root column and slot.
  const ColumnVector& root() const { return *stripe_; }
  uint64_t slot() const { return slot_; }
  /// Appends the current row as one JSON object (the form of the ORC tools'
  /// expected/*.jsn files): see appendJson.
  void appendRowJson(std::string& out) const;

 private:
  OrcFileReader& reader_;
  std::vector<bool> projected_;
  std::unique_ptr<ColumnVector> stripe_;
  size_t nextStripe_ = 0;
  uint64_t slot_ = 0;
  bool started_ = false;
};

/// Appends slot `slot` of `column` as JSON: null; true/false; numbers (decimals
/// exactly at their scale, floats in their shortest form, NaN and infinities as
/// strings); strings escaped; binary as an array of byte values; dates as
/// "YYYY-MM-DD"; timestamps as "YYYY-MM-DD HH:MM:SS.f" (the writer's wall clock,
/// fraction without trailing zeros, at least one digit); structs as objects;
/// lists as arrays; maps as arrays of {"key", "value"}; unions as {"tag", "value"}.
void appendJson(const ColumnVector& column, uint64_t slot, std::string& out);

}  // namespace quarry::orc
