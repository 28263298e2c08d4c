#pragma once

#include <optional>
#include <string>
#include <vector>

#include "quarry/engine/parse/ast.h"
#include "quarry/engine/source/format_reader.h"

/// Turns a FROM clause's sources into files, their footers and one schema.
///
/// Schema resolution (WITH {"schema_resolution": ...}), over files in the order of
/// ResolvedSource::files:
///   first_file_wins  the first file's columns, in its order. A later file's extra
///                    columns are ignored, a column it lacks reads as null, and a
///                    column it has must widen losslessly (type_widening.h) to the
///                    first file's type, else an error naming the column, both
///                    types and both files.
///   strict           every file has the same column names, in the same order, with
///                    the same types; else an error naming both files and the column.
///   union_by_name    every column of every file, by name, in order of first
///                    appearance; a column's type is the common type (type_widening.h)
///                    of its types in the files that have it, else an error naming
///                    the column, both types and both files. A file lacking a column
///                    reads it as null.
namespace quarry::engine {

struct ResolvedFile {
  std::string uri;
  const FormatReader* reader;
  SourceMetadata metadata;
};

struct ResolvedSource {
  Schema schema;                  // the reconciled schema (file columns only, not _file.*)
  std::vector<ResolvedFile> files;   // sorted by URI within each pattern, patterns in order
};

struct ResolveOptions {
  std::optional<std::string> format;             // "parquet"/"orc"; else by extension, then magic
  SchemaResolution schemaResolution = SchemaResolution::kFirstFileWins;  // parse/ast.h enum
  int threads = 2;                               // footer reads in parallel
  /// Where MetadataCache keeps what resolving learns from local files, for the
  /// next query with the same FROM clause; empty: no cache.
  std::string metadataCacheDirectory;
};

/// Footer reads in flight at once when a source is remote (each waits on a round
/// trip rather than on a core).
inline constexpr size_t kRemoteFooterReads = 16;

class ExternalSourceResolver {
 public:
  // Expands globs (local, s3://; http(s) literal), reads every footer (in parallel), reconciles.
  // Errors name the file / pattern: a pattern matching nothing, a file neither format, strict-mode
  // mismatch naming both files and the column, conflicting types naming the column and both types.
  static ResolvedSource resolve(const std::vector<std::string>& patterns, const ResolveOptions& options);

  /// Reconciles the schemas of `files` (already read) under `mode`; throws
  /// InvalidArgument as resolve() does.
  static Schema reconcile(const std::vector<ResolvedFile>& files, SchemaResolution mode);
};

}  // namespace quarry::engine
