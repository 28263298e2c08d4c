#include "quarry/engine/exec/late_materialize_exec.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <map>
#include <span>
#include <string>
#include <thread>
#include <utility>

#include "quarry/common/error.h"
#include "quarry/engine/exec/operator_timer.h"

namespace quarry::engine {

namespace {

/// A winning row: its file (an index into the files met) and its position in it.
struct RowId {
  size_t file = 0;
  int64_t position = 0;
  auto operator<=>(const RowId&) const = default;
};

/// Sorted, distinct positions as spans of adjacent rows, relative to `first`.
std::vector<RowSpan> spansOf(std::span<const int64_t> positions, int64_t first) {
  std::vector<RowSpan> spans;
  for (int64_t p : positions) {
    const int64_t row = p - first;
    if (!spans.empty() && spans.back().end == row) {
      spans.back().end = row + 1;
    } else {
      spans.push_back({row, row + 1});
    }
  }
  return spans;
}

}  // namespace

LateMaterializeExec::LateMaterializeExec(OperatorPtr input, Schema schema,
                                         std::vector<SplitTask> splits, ReadRequest fetch,
                                         int pathChannel, int positionChannel, int threads)
    : input_(std::move(input)),
      schema_(std::move(schema)),
      splits_(std::move(splits)),
      fetch_(std::move(fetch)),
      pathChannel_(pathChannel),
      positionChannel_(positionChannel),
      threads_(threads) {
  const Schema& in = input_->schema();
  auto valid = [&](int channel) {
    return channel >= 0 && static_cast<size_t>(channel) < in.size();
  };
  if (!valid(pathChannel_) || !valid(positionChannel_) || !in[pathChannel_].type.isBytes() ||
      in[positionChannel_].type.kind != TypeKind::kInt64) {
    throw InvalidArgument(
        "LateMaterializeExec: the input has no file path and row position at channels " +
        std::to_string(pathChannel_) + " and " + std::to_string(positionChannel_));
  }
  if (fetch_.columns.empty() || fetch_.columns.back() != kRowPositionColumn ||
      fetch_.columns.size() != schema_.size() + 1) {
    throw InvalidArgument(
        "LateMaterializeExec: the fetch request must name the output's columns, then " +
        std::string(kRowPositionColumn));
  }
  if (fetch_.outputSchema.empty()) {
    fetch_.outputSchema = schema_;
    fetch_.outputSchema.push_back(Field{kRowPositionColumn, DataType::int64()});
  }
  fetch_.filter.reset();
  fetch_.limit.reset();
}

std::optional<Page> LateMaterializeExec::next() {
  OperatorTimer timer(stats_.nanos);
  if (done_) return std::nullopt;
  done_ = true;
  std::optional<Page> out = materialize();
  if (out) {
    ++stats_.pagesOut;
    stats_.rowsOut += out->positionCount();
  }
  return out;
}

std::optional<Page> LateMaterializeExec::materialize() {
  // The winners in their final order.
  std::vector<std::string> files;
  std::map<std::string, size_t, std::less<>> fileIndex;
  std::vector<RowId> winners;
  while (std::optional<Page> page = input_->next()) {
    const Block& paths = page->block(static_cast<size_t>(pathChannel_));
    const Block& positions = page->block(static_cast<size_t>(positionChannel_));
    for (size_t k = 0; k < page->positionCount(); ++k) {
      if (paths.isNull(k) || positions.isNull(k)) {
        throw InvalidArgument("LateMaterializeExec: a row without a file path or row position");
      }
      const std::string_view path = paths.bytes(k);
      auto it = fileIndex.find(path);
      if (it == fileIndex.end()) {
        it = fileIndex.emplace(std::string(path), files.size()).first;
        files.emplace_back(path);
      }
      winners.push_back({it->second, positions.values<int64_t>()[k]});
    }
  }
  if (winners.empty()) return std::nullopt;

  // Each file's winning positions, sorted and distinct.
  std::vector<std::vector<int64_t>> wanted(files.size());
  for (const RowId& row : winners) wanted[row.file].push_back(row.position);
  for (std::vector<int64_t>& positions : wanted) {
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  }

  // The reads: per row group holding some, only their rows.
  struct Read {
    size_t file = 0;
    const SplitTask* task = nullptr;
    FileSplit unit;
  };
  std::vector<Read> reads;
  for (size_t f = 0; f < files.size(); ++f) {
    auto task = std::find_if(splits_.begin(), splits_.end(),
                             [&](const SplitTask& t) { return t.split.uri == files[f]; });
    if (task == splits_.end()) {
      throw InvalidArgument("LateMaterializeExec: a row of " + files[f] +
                            ", which the scan does not read");
    }
    FileSplit whole = task->split;
    whole.start = 0;
    whole.length = UINT64_MAX;
    whole.rows.clear();
    whole.statistics = nullptr;
    whole.units = 0;
    const std::vector<FileSplit> units = task->reader->units(whole);
    std::span<const int64_t> left = wanted[f];
    int64_t first = 0;
    for (const FileSplit& unit : units) {
      if (left.empty()) break;
      if (unit.statistics == nullptr) {
        throw Unsupported(files[f] +
                          ": a row group whose row count is not known: its rows cannot be fetched "
                          "by position");
      }
      const int64_t end = first + unit.statistics->rowCount;
      const size_t inUnit =
          static_cast<size_t>(std::lower_bound(left.begin(), left.end(), end) - left.begin());
      if (inUnit > 0) {
        Read read{f, &*task, unit};
        read.unit.rows = spansOf(left.first(inUnit), first);
        reads.push_back(std::move(read));
        left = left.subspan(inUnit);
      }
      first = end;
    }
    if (!left.empty()) {
      throw InvalidArgument(files[f] + ": row " + std::to_string(left.front()) +
                            " is past the file's rows (did it change while the query ran?)");
    }
  }

  // Run them on up to threads_ threads (each row group's chunks are read whole
  // where the file has no OffsetIndex), keeping their pages in read order.
  std::vector<std::vector<Page>> pagesOf(reads.size());
  std::vector<std::exception_ptr> errors(reads.size());
  std::atomic<size_t> nextRead{0};
  auto work = [&] {
    for (size_t r = nextRead++; r < reads.size(); r = nextRead++) {
      try {
        LocalSupplier pages = reads[r].task->reader->read(reads[r].unit, fetch_);
        while (std::optional<Page> page = pages()) pagesOf[r].push_back(std::move(*page));
      } catch (...) {
        errors[r] = std::current_exception();
      }
    }
  };
  {
    std::vector<std::jthread> helpers;
    const size_t threads = std::min(static_cast<size_t>(std::max(threads_, 1)), reads.size());
    for (size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
    work();
  }
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }

  std::vector<Block> fetched;
  for (const Field& field : fetch_.outputSchema) fetched.emplace_back(field.type);
  size_t fetchedRows = 0;
  std::map<RowId, uint32_t> at;  // a winner's row in `fetched`
  for (size_t r = 0; r < reads.size(); ++r) {
    for (const Page& page : pagesOf[r]) {
      const size_t width = fetched.size();
      for (size_t c = 0; c < width; ++c) fetched[c].appendAll(page.block(c));
      const std::span<const int64_t> positions = page.block(width - 1).values<int64_t>();
      for (size_t k = 0; k < page.positionCount(); ++k) {
        at[RowId{reads[r].file, positions[k]}] = static_cast<uint32_t>(fetchedRows + k);
      }
      fetchedRows += page.positionCount();
    }
  }

  // The winners' rows in their order.
  std::vector<uint32_t> order;
  order.reserve(winners.size());
  for (const RowId& row : winners) {
    auto it = at.find(row);
    if (it == at.end()) {
      throw InvalidArgument(files[row.file] + ": row " + std::to_string(row.position) +
                            " was not read back (did the file change while the query ran?)");
    }
    order.push_back(it->second);
  }
  std::vector<Block> blocks;
  blocks.reserve(schema_.size());
  for (size_t c = 0; c < schema_.size(); ++c) blocks.push_back(fetched[c].take(order));
  return Page(std::move(blocks), order.size());
}

void LateMaterializeExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
  input_->collectStats(out);
}

}  // namespace quarry::engine
