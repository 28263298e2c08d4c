#pragma once

#include <cstdint>
#include <vector>

#include "quarry/batch.h"
#include "quarry/data_type.h"
#include "quarry/session.h"

/// Query results as Arrow data without an Arrow dependency: the Arrow C Data
/// Interface and C Stream Interface (a stable ABI of the Arrow specification,
/// declared here under the specification's own guards, so that a program that
/// also includes Arrow's or nanoarrow's declarations gets one definition), and
/// exportArrowStream, which hands a Result to any Arrow consumer
/// (arrow::ImportRecordBatchReader, nanoarrow, DuckDB, Polars, ...).
///
/// Each batch is a struct array ("+s") of the result's columns, each child
/// nullable with the column's name:
///
///   kBoolean "b", kInt32 "i", kInt64 "l", kUInt64 "L", kDouble "g",
///   kDecimal "d:P,S" (128-bit), kString "U" and kBinary "Z" (64-bit offsets),
///   kDate "tdD", kTime "ttm" / "ttu" / "ttn", kTimestamp "tsm:" / "tsu:" /
///   "tsn:" followed by "UTC" for an instant (nothing for a local date-time),
///   kUuid "w:16" (metadata ARROW:extension:name is not set), kList "+L" (64-bit
///   offsets) of its element type, kNull "n".
///
/// Values are not copied where the layouts agree (fixed-width values, decimal
/// values, string and list offsets and bytes): an array keeps its batch alive
/// until released. Validity bitmaps are built from the engine's byte per row,
/// booleans packed into bits, TIME in milliseconds narrowed to 32 bits, UUIDs
/// laid end to end.

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

extern "C" {

struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};

}  // extern "C"

#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

extern "C" {

struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};

}  // extern "C"

#endif  // ARROW_C_STREAM_INTERFACE

namespace quarry {

/// Moves `result` into `out`, a stream the consumer owns: get_next computes the
/// next batch (Result::next) and ends with a released array; an error (the
/// files', a cancelled result's) makes get_next return EIO (EINVAL for a
/// get_schema or get_next on a released stream) and get_last_error give its
/// message. The consumer calls out->release once, which releases the result.
void exportArrowStream(Result result, ArrowArrayStream* out);

/// Fills `out` with the schema of `fields` as a struct ("+s"); the consumer
/// releases it.
void exportArrowSchema(const std::vector<Field>& fields, ArrowSchema* out);

/// Fills `out` with `batch` as a struct array ("+s"); the consumer releases it.
void exportArrowArray(const Batch& batch, ArrowArray* out);

}  // namespace quarry
