#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

#include "quarry/arrow.h"
#include "quarry/batch.h"
#include "quarry/data_type.h"

/// A query's batches as Python values, read from their Arrow C Data Interface
/// export (quarry/arrow.h), the layout arrow.h documents per engine type:
///
///   fetchRows      a list of tuples: int, float, str, bytes, bool, None,
///                  decimal.Decimal, datetime.date, datetime.datetime (aware,
///                  UTC, for an instant; naive for a local date-time),
///                  datetime.time, uuid.UUID, lists of those
///   pandasColumns  one (name, form, values) per column for quarry.Result.to_pandas:
///                  form "array" (a numpy array: integers, doubles and booleans
///                  without nulls, doubles and decimals as float64 with NaN for
///                  null, integers with nulls as float64 with NaN, as DuckDB's
///                  .df() gives them), "datetime64[ns]" or "datetime64[ns, UTC]"
///                  (int64 nanoseconds, NaT for null), or "object" (a list)
///
/// A numeric column of a single batch without nulls is a numpy view of the
/// exported buffer itself (the array keeps the batch alive); over several
/// batches it is one allocation the batches are copied into.
namespace quarry::python {

/// An exported batch (a struct array of the columns), released when the last
/// reference goes.
struct ExportedBatch {
  ArrowArray array{};
  ExportedBatch() = default;
  ExportedBatch(const ExportedBatch&) = delete;
  ExportedBatch& operator=(const ExportedBatch&) = delete;
  ~ExportedBatch();
};

using ExportedBatches = std::vector<std::shared_ptr<ExportedBatch>>;

/// Exports each batch (exportArrowArray).
ExportedBatches exportBatches(const std::vector<Batch>& batches);

pybind11::list fetchRows(const Schema& schema, const ExportedBatches& batches);

pybind11::list pandasColumns(const Schema& schema, const ExportedBatches& batches);

/// Imports the Python modules the conversions use (decimal, uuid, datetime's C API).
void initConversions();

}  // namespace quarry::python
