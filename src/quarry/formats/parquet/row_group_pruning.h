#pragma once

#include <cstdint>
#include <functional>

#include "quarry/formats/parquet/bound_predicate.h"
#include "quarry/formats/parquet/metadata.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/reader_metrics.h"
#include "quarry/formats/parquet/statistics_pruning.h"
#include "quarry/io/storage.h"

/// The row-group decision from every kind of metadata, cheapest first
/// (query-controls.txt, "Bloom filter and dictionary pruning"):
///
///   1. statistics (footer only, no I/O);
///   2. Bloom filters, read only for a row group statistics keep, and only when
///      proving its eq / in leaves absent could make no row match; of a filter,
///      only its header and the 32-byte blocks the literals fall in are read
///      (bloomFilterMayContain);
///   3. dictionary pages of fully dictionary-encoded chunks, read only when the
///      Bloom filters did not already prune the group, for the leaves they left.
///
/// A reader whose filter columns have a page index consults it before step 2
/// (`bytesLeft`): a Bloom filter can at best spare the bytes the page index
/// leaves to read, so none is read when the page index rules out every page,
/// and one is probed only if the probe's bytes (bloomProbeBytes) are fewer than
/// what the group still needs.
/// Page-header statistics (page_header_index) come after the filters: reading
/// them means reading the chunk's data pages, which a filter may spare.
///
/// Bloom filters and dictionaries answer membership: a leaf eq / in they prove
/// absent is false for every non-null row, and the whole predicate is decided
/// again (statistics_pruning.h, MembershipLookup), so and / or / not combine it
/// with what statistics say of the other leaves.
namespace quarry::parquet {

struct RowGroupPruning {
  enum class Source { kStatistics, kBloomFilter, kDictionary };
  PruningDecision decision = PruningDecision::kSomeMayMatch;
  /// The metadata that settled the decision (for a pruned group: what pruned it).
  Source decidedBy = Source::kStatistics;
};

/// Decides row group `rowGroup` of `metadata`, reading Bloom filters and
/// dictionary pages from `file` where they may prune it (their bytes show in
/// file.bytesRead()). `verifyChecksums` applies to dictionary page CRCs. Throws
/// CorruptFile naming the file, row group and column for a corrupt filter or page.
/// `bytesLeft`, where given, is called (at most once, and only when a Bloom
/// filter or dictionary could prune the group) before any is read, and returns
/// the bytes the group still needs once its page index has been consulted.
RowGroupPruning pruneRowGroup(const BoundPredicate& predicate, const FileMetaData& metadata,
                              io::StorageObject& file, int rowGroup, bool verifyChecksums,
                              const std::function<uint64_t()>& bytesLeft = {});

/// Decides row group `rowGroup` of a reader's file as pruneRowGroup does (or
/// kSomeMayMatch with metadata pruning off) and counts it in `metrics`: the
/// bytes and requests the Bloom filters and dictionaries cost, a pruned group by
/// what pruned it, a group every row of which matches. Every reader that filters
/// decides its row groups through this one function. The bytes `bytesLeft`
/// reads are its own to count, not these.
PruningDecision decideAndCount(const BoundPredicate& predicate, const FileMetaData& metadata,
                               io::StorageObject& file, int rowGroup, const ReaderOptions& options,
                               ReaderMetrics& metrics,
                               const std::function<uint64_t()>& bytesLeft = {});

}  // namespace quarry::parquet
