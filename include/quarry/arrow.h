#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/arrow/c_interface.h"
#include "quarry/batch.h"
#include "quarry/data_type.h"
#include "quarry/session.h"

/// Query results as Arrow data without an Arrow dependency: the Arrow C Data
/// Interface and C Stream Interface (a stable ABI of the Arrow specification,
/// declared in quarry/arrow/c_interface.h under the specification's own guards,
/// so that a program that also includes Arrow's or nanoarrow's declarations gets
/// one definition), exportArrowStream, which hands a Result to any Arrow
/// consumer (arrow::ImportRecordBatchReader, nanoarrow, DuckDB, Polars, ...),
/// and writeArrowIpcStream, which writes any such stream in the Arrow IPC
/// streaming format (what `quarry query --format arrow` writes).
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
/// exportArrowStream gives a kString or kBinary column dictionary-encoded (int32
/// indices "i" whose dictionary is "U" or "Z") when the result's first batch
/// holds it so, as a Parquet column chunk's dictionary: the indices are the
/// engine's ids and the dictionary the file's, both without copies. A later batch
/// of that column in the plain form is a dictionary of its own values (indices
/// 0, 1, 2, ...); a column plain in the first batch stays plain (a later
/// dictionary batch is decoded). ArrowStreamOptions::dictionaries = false gives
/// every column plain. exportArrowSchema and exportArrowArray give the plain form.
///
/// Values are not copied where the layouts agree (fixed-width values, decimal
/// values, string and list offsets and bytes): an array keeps its batch alive
/// until released. Validity bitmaps are built from the engine's byte per row,
/// booleans packed into bits, TIME in milliseconds narrowed to 32 bits, UUIDs
/// laid end to end.

namespace quarry::parquet {
class ColumnReaders;
class ParquetFileReader;
}  // namespace quarry::parquet

namespace quarry {

struct ArrowStreamOptions {
  /// Whether columns dictionary-encoded in the first batch are exported as
  /// dictionary arrays (above); false decodes them into the plain form.
  bool dictionaries = true;
  /// Called once, when get_next has given the last batch, with the query's
  /// warnings (Result::warnings(), known only once every row is read): the stream
  /// owns the Result, so this is how its reader learns them. Not called when the
  /// stream is released before its end or fails.
  std::function<void(const std::vector<std::string>&)> onWarnings = nullptr;
};

/// Moves `result` into `out`, a stream the consumer owns: get_next computes the
/// next batch (Result::next) and ends with a released array; an error (the
/// files', a cancelled result's) makes get_next return EIO (EINVAL for a
/// get_schema or get_next on a released stream) and get_last_error give its
/// message. The consumer calls out->release once, which releases the result.
/// The first get_schema or get_next computes the first batch (which says which
/// columns are dictionary-encoded); should that fail, get_schema still gives the
/// result's columns, and the failure comes with get_next.
void exportArrowStream(Result result, ArrowArrayStream* out, ArrowStreamOptions options = {});

/// Moves `readers` (quarry/parquet.h) into `out`, with `file`, the reader it
/// reads (null when the caller keeps the file alive longer than the stream): a
/// batch per ColumnReaders batch (a row group's rows, the filter's only), a
/// column per position, converted as a query's scan converts the file (the
/// mapping above): a flat leaf named by its path, the element leaf of a list as
/// the list, named by the list's path. Strings come dictionary-encoded as above
/// when the file was opened with ReaderOptions::dictionaryIds. A position the
/// engine does not read (a map's, a struct's inside a list) throws Unsupported
/// naming the file and the column; a `file` other than the readers' throws
/// InvalidArgument. A file's error while reading makes get_next return EIO.
void exportArrowStream(std::unique_ptr<parquet::ParquetFileReader> file,
                       std::unique_ptr<parquet::ColumnReaders> readers, ArrowArrayStream* out,
                       ArrowStreamOptions options = {});

/// Fills `out` with the schema of `fields` as a struct ("+s"); the consumer
/// releases it.
void exportArrowSchema(const std::vector<Field>& fields, ArrowSchema* out);

/// Fills `out` with `batch` as a struct array ("+s"); the consumer releases it.
void exportArrowArray(const Batch& batch, ArrowArray* out);

/// Writes every batch of `stream` in the Arrow IPC streaming format (a Schema
/// message, a RecordBatch message per batch, the end-of-stream marker: the
/// format tableFromIPC, pyarrow.ipc.open_stream and arrow::ipc read), each piece
/// handed to `write` in order. Any stream of the C Data Interface's common
/// formats is written (those exportArrowStream gives, and 32-bit offsets,
/// smaller integers, floats, structs); a dictionary-encoded column of strings or
/// binaries is written as its values (decoded); another format throws Unsupported
/// naming the column. `stream` stays the caller's to
/// release; a failing get_next throws IoError with its last error.
void writeArrowIpcStream(ArrowArrayStream* stream,
                         const std::function<void(std::string_view bytes)>& write);

/// Writes `stream` as above into `out`; a failed write throws IoError.
void writeArrowIpcStream(ArrowArrayStream* stream, std::FILE* out);

}  // namespace quarry
