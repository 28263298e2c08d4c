#include "quarry/engine/source/external_source_resolver.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <optional>
#include <unordered_map>

#include "quarry/common/error.h"
#include "quarry/common/thread_pool.h"
#include "quarry/common/uri_redaction.h"
#include "quarry/engine/source/format_reader_registry.h"
#include "quarry/engine/source/hive_partitioning.h"
#include "quarry/engine/source/metadata_cache.h"
#include "quarry/engine/source/partition_pruning.h"
#include "quarry/engine/source/type_widening.h"
#include "quarry/io/file_patterns.h"
#include "quarry/io/glob.h"
#include "quarry/io/local_stamp.h"
#include "quarry/io/s3_storage.h"
#include "quarry/io/storage.h"

namespace quarry::engine {
namespace {

/// The reader of `uri` from its first bytes: "PAR1" or "ORC".
const FormatReader* readerByMagic(const std::string& uri) {
  auto object = io::openObject(uri);
  uint8_t head[4] = {};
  const uint64_t n = std::min<uint64_t>(object->size(), sizeof head);
  object->readAt(0, std::span<uint8_t>(head, n));
  const FormatReaderRegistry& registry = FormatReaderRegistry::instance();
  if (n >= 4 && std::memcmp(head, "PAR1", 4) == 0) return registry.findByName("parquet");
  if (n >= 3 && std::memcmp(head, "ORC", 3) == 0) return registry.findByName("orc");
  return nullptr;
}

const FormatReader* readerOf(const std::string& uri, const ResolveOptions& options) {
  const FormatReaderRegistry& registry = FormatReaderRegistry::instance();
  if (options.format) {
    const FormatReader* reader = registry.findByName(*options.format);
    if (reader == nullptr) {
      throw InvalidArgument("unknown format \"" + *options.format +
                            "\": expected \"parquet\" or \"orc\"");
    }
    return reader;
  }
  if (const FormatReader* reader = registry.findByExtension(uri)) return reader;
  if (const FormatReader* reader = readerByMagic(uri)) return reader;
  throw InvalidArgument(redactUri(uri) + ": neither a Parquet nor an ORC file (no .parquet/.parq/.pq/.orc "
                              "extension, no PAR1 or ORC magic); name the format with "
                              "WITH {\"format\": \"parquet\"}");
}

/// What names one FROM clause's cache: the working directory when a pattern is
/// relative to it, the format option and the patterns, each length-prefixed.
std::string cacheKey(const std::vector<std::string>& patterns, const ResolveOptions& options) {
  std::string key;
  auto add = [&key](const std::string& part) {
    key += std::to_string(part.size());
    key += ':';
    key += part;
  };
  const bool relative = std::any_of(patterns.begin(), patterns.end(), [](const std::string& p) {
    return !p.starts_with('/') && !p.starts_with("file:///") && !io::isRemoteUri(p);
  });
  char cwd[4096];
  add(relative && ::getcwd(cwd, sizeof cwd) != nullptr ? cwd : "");
  add(options.format.value_or(""));
  for (const std::string& pattern : patterns) add(pattern);
  return key;
}

std::string describe(const Field& field) {
  return "column \"" + field.name + "\" (" + field.type.toString() + ")";
}

/// The sizes of local files, by stat (no open); nullopt when a file is remote or
/// cannot be stat'ed.
std::optional<std::vector<uint64_t>> localSizes(std::span<const std::string> uris, ThreadPool* pool) {
  std::vector<std::string_view> paths;
  for (const std::string& uri : uris) {
    if (io::isRemoteUri(uri)) return std::nullopt;
    paths.push_back(uri);
  }
  std::vector<std::optional<io::LocalStamp>> stamps = io::stampsOf(paths, pool);
  std::vector<uint64_t> sizes;
  for (const std::optional<io::LocalStamp>& stamp : stamps) {
    if (!stamp) return std::nullopt;
    sizes.push_back(stamp->size);
  }
  return sizes;
}

/// Adds the partition columns to `schema`: after the file columns, or, for a
/// column the files have too, in its place with the partition's type, into which
/// the files' type must widen.
void addPartitionColumns(Schema& schema, const std::vector<Field>& partitionColumns,
                         const std::vector<ResolvedFile>& files) {
  for (const Field& column : partitionColumns) {
    const int i = fieldIndex(schema, column.name);
    if (i < 0) {
      schema.push_back(column);
      continue;
    }
    Field& have = schema[static_cast<size_t>(i)];
    if (have.type == column.type || widensTo(have.type, column.type)) {
      have.type = column.type;
      continue;
    }
    std::string file;
    for (const ResolvedFile& f : files) {
      if (fieldIndex(f.metadata.schema, column.name) >= 0) {
        file = redactUri(f.uri);
        break;
      }
    }
    throw InvalidArgument("hive partitioning: column \"" + column.name + "\" is " + have.type.toString() + " in " +
                          file + " and a partition column of " + column.type.toString() +
                          " in its path (" + column.name + "=...), which the file's type does not widen to; "
                          "give the partition's type with WITH {\"hive_types\": {\"" + column.name +
                          "\": \"...\"}}, or read the folders as plain folders with WITH "
                          "{\"hive_partitioning\": false}");
  }
}

}  // namespace

Schema ExternalSourceResolver::reconcile(const std::vector<ResolvedFile>& files,
                                         SchemaResolution mode) {
  if (files.empty()) return {};
  const ResolvedFile& first = files.front();
  Schema schema = first.metadata.schema;
  // For union_by_name: the file each column's current type comes from.
  std::vector<size_t> typeFrom(schema.size(), 0);
  for (size_t f = 1; f < files.size(); ++f) {
    const ResolvedFile& file = files[f];
    const Schema& other = file.metadata.schema;
    switch (mode) {
      case SchemaResolution::kStrict: {
        const size_t n = std::max(schema.size(), other.size());
        for (size_t i = 0; i < n; ++i) {
          if (i >= schema.size()) {
            throw InvalidArgument("strict schema resolution: " + file.uri + " has " +
                                  describe(other[i]) + ", which " + first.uri + " does not have");
          }
          if (i >= other.size()) {
            throw InvalidArgument("strict schema resolution: " + first.uri + " has " +
                                  describe(schema[i]) + ", which " + file.uri + " does not have");
          }
          if (!(schema[i] == other[i])) {
            throw InvalidArgument("strict schema resolution: " + first.uri + " has " +
                                  describe(schema[i]) + " where " + file.uri + " has " +
                                  describe(other[i]));
          }
        }
        break;
      }
      case SchemaResolution::kFirstFileWins:
        for (const Field& field : other) {
          const int i = fieldIndex(schema, field.name);
          if (i < 0) continue;  // an extra column: ignored
          const DataType& firstType = schema[static_cast<size_t>(i)].type;
          if (!widensTo(field.type, firstType)) {
            // The default mode: say which one reads both files, when one does.
            const auto common = commonType(firstType, field.type);
            const std::string hint =
                common ? "; WITH {\"schema_resolution\": \"union_by_name\"} reads the column as " +
                             common->toString() + " from both"
                       : "; union_by_name would not merge them either: they have no lossless "
                         "common type";
            throw InvalidArgument("first_file_wins schema resolution: column \"" + field.name +
                                  "\" is " + field.type.toString() + " in " + file.uri +
                                  ", which does not widen losslessly to " + firstType.toString() +
                                  " of " + first.uri + hint);
          }
        }
        break;
      case SchemaResolution::kUnionByName:
        for (const Field& field : other) {
          const int i = fieldIndex(schema, field.name);
          if (i < 0) {
            schema.push_back(field);
            typeFrom.push_back(f);
            continue;
          }
          Field& have = schema[static_cast<size_t>(i)];
          const auto common = commonType(have.type, field.type);
          if (!common) {
            throw InvalidArgument("union_by_name schema resolution: column \"" + field.name +
                                  "\" is " + have.type.toString() + " in " +
                                  files[typeFrom[static_cast<size_t>(i)]].uri + " and " +
                                  field.type.toString() + " in " + file.uri +
                                  ", which have no lossless common type");
          }
          if (!(*common == have.type)) {
            have.type = *common;
            typeFrom[static_cast<size_t>(i)] = f;
          }
        }
        break;
    }
  }
  return schema;
}

namespace {

/// The ListObjectsV2 prefix of an s3:// glob (the bucket's URI and its literal
/// part); empty for any other pattern.
std::string s3ListingPrefix(const std::string& pattern) {
  if (!pattern.starts_with("s3://") || !io::hasGlob(pattern)) return "";
  const size_t key = pattern.find('/', 5);
  if (key == std::string::npos) return "";
  return pattern.substr(0, key + 1) +
         std::string(io::globLiteralPrefix(std::string_view(pattern).substr(key + 1)));
}

/// expandFilePatterns, each s3:// glob first narrowed by the WHERE's partition
/// equalities (narrowByPartitionEqualities); a narrowed glob that matches
/// nothing is listed again whole, so that the answer (an empty one, or the
/// error of a pattern that matches nothing) is the same. `listed` receives
/// each S3 listing's prefix, in order.
std::vector<std::string> expandNarrowed(const std::vector<std::string>& patterns,
                                        const ResolveOptions& options, ThreadPool* pool,
                                        io::ListingMemory* memory,
                                        std::vector<std::string>& listed) {
  std::vector<std::string> narrowed = patterns;
  if (options.hivePartitioning != false) {
    for (std::string& pattern : narrowed) {
      pattern = narrowByPartitionEqualities(pattern, options.pathConjuncts, options.hiveTypes);
    }
  }
  if (narrowed == patterns) {
    for (const std::string& pattern : patterns) {
      if (std::string prefix = s3ListingPrefix(pattern); !prefix.empty())
        listed.push_back(std::move(prefix));
    }
    return io::expandFilePatterns(patterns, pool, memory);
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < patterns.size(); ++i) {
    std::vector<std::string> matches;
    if (std::string prefix = s3ListingPrefix(narrowed[i]); !prefix.empty())
      listed.push_back(std::move(prefix));
    if (narrowed[i] == patterns[i]) {
      matches = io::expandFilePatterns({patterns[i]}, pool, memory);
    } else {
      matches = io::listS3Pattern(narrowed[i], memory);
      if (matches.empty()) {
        listed.push_back(s3ListingPrefix(patterns[i]));
        matches = io::expandFilePatterns({patterns[i]}, pool, memory);
      }
    }
    out.insert(out.end(), std::make_move_iterator(matches.begin()),
               std::make_move_iterator(matches.end()));
  }
  return out;
}

}  // namespace

ResolvedSource ExternalSourceResolver::resolve(const std::vector<std::string>& patterns,
                                               const ResolveOptions& options) {
  if (patterns.empty()) throw InvalidArgument("FROM names no file");
  // Directories of local patterns are listed, and footers read, `options.threads` at
  // a time. Work on cores runs on the process-wide pool when it has no more workers
  // than that (its threads are already started, and are not joined when the query
  // ends); other counts get a pool of their own.
  const size_t localThreads = static_cast<size_t>(std::max(1, options.threads));
  std::optional<ThreadPool> own;
  auto poolOf = [&own](size_t threads, bool remote) {
    return ThreadPool::forThreads(threads, own, !remote);
  };
  const bool anyGlob = std::any_of(patterns.begin(), patterns.end(), [](const std::string& p) { return io::hasGlob(p); });
  // Local files are cached by their stamps, S3 objects by what their listing
  // says of them; other remote objects have no identity before they are opened.
  const bool anyCacheable = std::any_of(patterns.begin(), patterns.end(), [](const std::string& p) {
    return !io::isRemoteUri(p) || (p.starts_with("s3://") && io::hasGlob(p));
  });
  std::optional<MetadataCache> cache;
  if (!options.metadataCacheDirectory.empty() && anyCacheable) {
    cache.emplace(options.metadataCacheDirectory, cacheKey(patterns, options));
    cache->setRemoteListingTtl(options.remoteListingTtlNs);
  }
  ThreadPool* localPool = poolOf(localThreads, false);
  // A settled stamp is one older than this (MetadataCache::record).
  const int64_t takenAtNs = cache ? io::nowNs() : 0;
  // What the cache will be asked about is stamped and decoded in one parallel loop
  // (MetadataCache::prepare), before the patterns are expanded.
  if (cache) cache->prepare(localPool);
  ResolvedSource out;
  std::vector<std::string> uris = expandNarrowed(patterns, options, anyGlob ? localPool : nullptr,
                                                 cache ? &*cache : nullptr, out.listedPrefixes);
  // Partition values from the paths, and the files the WHERE excludes by them,
  // before any file is opened.
  HivePartitions partitions = readHivePartitions(uris, options.hivePartitioning, options.hiveTypes);
  out.partitionColumns = partitions.columns;
  const std::vector<bool> keep = keepByPath(options.pathConjuncts, uris, partitions, [&]() {
    return localSizes(uris, localPool);
  });
  // Every file matched, for the cache: the entries of files pruned now stay for
  // the next query with the same FROM clause.
  std::vector<std::string> matched;
  if (cache && std::find(keep.begin(), keep.end(), false) != keep.end()) matched = uris;
  {
    std::vector<std::string> kept;
    std::vector<std::vector<Scalar>> keptValues;
    for (size_t i = 0; i < uris.size(); ++i) {
      if (!keep[i]) continue;
      kept.push_back(std::move(uris[i]));
      if (!partitions.columns.empty()) keptValues.push_back(std::move(partitions.values[i]));
    }
    out.filesPrunedByPartition = uris.size() - kept.size();
    if (kept.empty() && !uris.empty()) {
      // The answer is empty, but its columns are the source's: their footers
      // still give the schema, and no split is read. The first file's is the
      // schema but under union_by_name, which needs every file's.
      out.schemaOnly = true;
      const size_t schemaFiles = options.schemaResolution == SchemaResolution::kUnionByName ? uris.size() : 1;
      for (size_t i = 0; i < schemaFiles; ++i) {
        kept.push_back(std::move(uris[i]));
        if (!partitions.columns.empty()) keptValues.push_back(std::move(partitions.values[i]));
      }
    }
    uris = std::move(kept);
    partitions.values = std::move(keptValues);
  }
  out.files.resize(uris.size());
  for (size_t i = 0; i < uris.size(); ++i) out.files[i].uri = std::move(uris[i]);
  const size_t n = out.files.size();
  // A remote footer read waits on a round trip, not on a core: as many in flight as
  // kRemoteFooterReads allows, whatever the thread count.
  size_t threads = localThreads;
  const bool remote = std::any_of(out.files.begin(), out.files.end(), [](const ResolvedFile& file) {
    return io::isRemoteUri(file.uri);
  });
  if (remote) threads = std::max(threads, kRemoteFooterReads);
  // Local files are stamped before their footers are read (a change after the
  // stamp shows in the next one): those the cache holds were stamped by prepare,
  // the others are stamped here, all at once (io::stampsOf walks the directories
  // they share once).
  std::vector<std::optional<io::LocalStamp>> stamps(n);
  if (cache) {
    std::vector<std::string_view> local;
    std::vector<size_t> at;
    for (size_t i = 0; i < n; ++i) {
      const std::string& uri = out.files[i].uri;
      if (io::isRemoteUri(uri)) continue;
      if ((stamps[i] = cache->preparedStamp(uri, i))) continue;
      local.push_back(uri);
      at.push_back(i);
    }
    std::vector<std::optional<io::LocalStamp>> localStamps = io::stampsOf(local, localPool);
    for (size_t j = 0; j < at.size(); ++j) stamps[at[j]] = localStamps[j];
  }
  // What the cache recalls was decoded by prepare; the footers left to read are
  // read after, in parallel.
  std::vector<bool> recalled(n, false);
  std::vector<std::optional<io::ObjectIdentity>> identities(n);
  for (size_t i = 0; cache && i < n; ++i) {
    ResolvedFile& file = out.files[i];
    if (io::isRemoteUri(file.uri)) identities[i] = cache->listedIdentity(file.uri);
    std::optional<MetadataCache::Recalled> r =
        stamps[i]       ? cache->recallFile(file.uri, i, *stamps[i])
        : identities[i] ? cache->recallRemote(file.uri, i, *identities[i])
                        : std::nullopt;
    if (!r) continue;
    // The clause's format option is part of the cache's key: the format recorded is
    // the one readerOf chose.
    file.reader = FormatReaderRegistry::instance().findByName(r->format);
    if (file.reader == nullptr) continue;
    file.metadata = std::move(r->metadata);
    file.metadata.fromMetadataCache = true;
    recalled[i] = true;
  }
  std::vector<size_t> unread;
  for (size_t i = 0; i < n; ++i) {
    if (!recalled[i]) unread.push_back(i);
  }
  auto readFooter = [&](size_t k) {
    const size_t i = unread[k];
    ResolvedFile& file = out.files[i];
    file.reader = readerOf(file.uri, options);
    file.metadata = file.reader->metadata(file.uri);
    if (stamps[i])
      cache->record(file.uri, *stamps[i], takenAtNs, file.reader->name(), file.metadata);
    else if (identities[i])
      cache->recordRemote(file.uri, *identities[i], file.reader->name(), file.metadata);
  };
  if (ThreadPool* pool = poolOf(std::min(threads, unread.size()), remote)) {
    pool->parallelFor(unread.size(), readFooter);
  } else {
    for (size_t k = 0; k < unread.size(); ++k) readFooter(k);
  }
  out.schema = reconcile(out.files, options.schemaResolution);
  addPartitionColumns(out.schema, partitions.columns, out.files);
  for (size_t i = 0; i < n && !partitions.columns.empty(); ++i) {
    std::vector<PartitionValue> values;
    for (size_t c = 0; c < partitions.columns.size(); ++c) {
      values.push_back(PartitionValue{partitions.columns[c].name, partitions.values[i][c]});
    }
    for (FileSplit& split : out.files[i].metadata.splits) split.partition = values;
  }
  if (cache) {
    std::vector<std::string_view> resolved;
    resolved.reserve(n);
    if (matched.empty()) {
      for (const ResolvedFile& file : out.files) resolved.push_back(file.uri);
    } else {
      for (const std::string& uri : matched) resolved.push_back(uri);
    }
    cache->save(resolved);
  }
  if (out.schemaOnly) {
    for (ResolvedFile& file : out.files) file.metadata.splits.clear();
  }
  return out;
}

}  // namespace quarry::engine
