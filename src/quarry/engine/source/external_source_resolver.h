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
///
/// Hive partitions (hive_partitioning.h): after the patterns are expanded, the
/// paths' `key=value` folders give each file its partition values, and the
/// conjuncts of the query's leading WHEREs that name only partition columns,
/// `_file.path` and `_file.size` drop the files they exclude
/// (partition_pruning.h) before any footer is read: a pruned file is never
/// opened. The schema is then reconciled from the files left (when every file
/// is pruned, the first file's footer still gives the schema, every file's
/// under union_by_name, and no split is read), and the partition columns
/// follow the file columns. A partition
/// column that is also a file column keeps the file's position and takes the
/// partition's type, into which the file's type must widen (else an error
/// naming the file, the column and both types); the scan checks that the
/// values agree (SplitScan). Before that, an s3:// glob over `key=*` folders
/// is narrowed by the WHERE's equalities on its leading keys
/// (narrowByPartitionEqualities), so that its listing asks for a longer prefix.
namespace quarry::engine {

struct ResolvedFile {
  std::string uri;
  const FormatReader* reader;
  SourceMetadata metadata;
};

struct ResolvedSource {
  Schema schema;                  // the reconciled schema and partition columns (not _file.*)
  std::vector<ResolvedFile> files;   // sorted by URI within each pattern, patterns in order
  /// The hive partition columns (also in `schema`); each split of `files` carries
  /// its file's values of them (FileSplit::partition).
  std::vector<Field> partitionColumns;
  /// Files the patterns matched that the WHERE excluded by their paths.
  uint64_t filesPrunedByPartition = 0;
  /// The prefix of each S3 listing made (s3://bucket/literal part), in order:
  /// a glob over `key=*` folders narrowed by the WHERE's partition equalities
  /// (narrowByPartitionEqualities), listed again whole when that matched nothing.
  std::vector<std::string> listedPrefixes;
  /// Every file was pruned: `files` holds those whose footers gave the schema
  /// (the first; all under union_by_name), without splits.
  bool schemaOnly = false;
};

struct ResolveOptions {
  std::optional<std::string> format;             // "parquet"/"orc"; else by extension, then magic
  SchemaResolution schemaResolution = SchemaResolution::kFirstFileWins;  // parse/ast.h enum
  int threads = 2;                               // footer reads in parallel
  /// Where MetadataCache keeps what resolving learns from local files and listed S3
  /// objects, for the next query with the same FROM clause; empty: no cache.
  std::string metadataCacheDirectory;
  /// How long (nanoseconds) a cached S3 listing answers for a new one; 0: every
  /// S3 glob is listed again (MetadataCache::setRemoteListingTtl).
  int64_t remoteListingTtlNs = 0;
  /// WITH {"hive_partitioning": ...}: unset, on when every path has the same keys.
  std::optional<bool> hivePartitioning;
  std::vector<HiveType> hiveTypes;
  /// Conjuncts every row read must satisfy (the query's leading WHEREs): those
  /// decided by paths alone prune files before their footers are read.
  std::vector<Expr> pathConjuncts;
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
