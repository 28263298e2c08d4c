#pragma once

/// The Parquet reader API of the query-controls specification (docs/LIBRARY.md):
/// ParquetFileReader opens a file (local, http(s)://, s3://) and reads its footer;
/// rowReader / buildRowReader give a RowReader (row at a time), columnReaders a
/// ColumnReaders (aligned column batches, one per row group); FilterPredicate and
/// ColumnProjection say which rows and columns. These headers forward to the
/// reader's own; their other declarations are not part of the public API.
#include "quarry/error.h"
#include "quarry/formats/parquet/column_projection.h"
#include "quarry/formats/parquet/column_reader.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "quarry/formats/predicate/filter_predicate.h"
