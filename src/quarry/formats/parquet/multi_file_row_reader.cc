#include "quarry/formats/parquet/multi_file_row_reader.h"

#include "quarry/common/error.h"

namespace quarry::parquet {

MultiFileRowReader::MultiFileRowReader(std::vector<std::string> uris, ColumnProjection projection,
                                       ReaderOptions options)
    : uris_(std::move(uris)), projection_(std::move(projection)), options_(options) {
  if (uris_.empty()) throw InvalidArgument("MultiFileRowReader needs at least one file");
}

MultiFileRowReader::MultiFileRowReader(std::vector<std::string> uris, ColumnProjection projection,
                                       FilterPredicate filter, ReaderOptions options)
    : MultiFileRowReader(std::move(uris), std::move(projection), options) {
  filter_.emplace(std::move(filter));
}

MultiFileRowReader& MultiFileRowReader::head(int64_t n) {
  RowLimits::requireCount("head", n);
  if (fileIndex_ > 0) throw InvalidArgument("MultiFileRowReader: head(n) after next(): n = " + std::to_string(n));
  remaining_ = n;
  return *this;
}

bool MultiFileRowReader::next() {
  if (remaining_ && *remaining_ == 0) return false;
  while (true) {
    if (rows_ && rows_->next()) {
      if (remaining_) --*remaining_;
      return true;
    }
    if (fileIndex_ >= uris_.size()) return false;
    const std::string& uri = uris_[fileIndex_++];
    if (rows_) finished_ += rows_->metrics();
    rows_.reset();
    file_ = ParquetFileReader::open(uri, options_);
    // What the file has read so far is its footer.
    finished_.bytesFetched += file_->storage().bytesRead();
    finished_.requestsFetched += file_->storage().requestCount();
    try {
      rows_ = filter_ ? file_->rowReader(projection_, *filter_) : file_->rowReader(projection_);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(uri + ": " + e.what());
    }
  }
}

ReaderMetrics MultiFileRowReader::metrics() const {
  ReaderMetrics out = finished_;
  if (rows_) out += rows_->metrics();
  return out;
}

}  // namespace quarry::parquet
