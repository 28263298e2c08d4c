#include "quarry/arrow.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "quarry/api/batch_impl.h"
#include "quarry/api/engine_types.h"
#include "quarry/arrow/page_arrays.h"
#include "quarry/common/error.h"
#include "quarry/engine/source/parquet_batch_conversion.h"
#include "quarry/engine/source/parquet_format_reader.h"
#include "quarry/engine/source/parquet_list_column.h"
#include "quarry/formats/parquet/column_reader.h"
#include "quarry/formats/parquet/parquet_file_reader.h"

namespace quarry {

namespace {

engine::Schema engineSchema(const std::vector<Field>& fields) {
  engine::Schema schema;
  for (const Field& field : fields) schema.push_back({field.name, api::engineType(field.type)});
  return schema;
}

// ---- the stream

/// What a stream reads: its columns, then its pages, each with what keeps its
/// values alive.
class PageSource {
 public:
  struct Next {
    const engine::Page* page = nullptr;
    std::shared_ptr<const void> owner;
  };
  virtual ~PageSource() = default;
  virtual const engine::Schema& schema() const = 0;
  /// The next page, or nothing after the last.
  virtual std::optional<Next> next() = 0;
};

/// A query's Result: its batches' pages.
class ResultSource final : public PageSource {
 public:
  ResultSource(Result result, std::function<void(const std::vector<std::string>&)> onWarnings)
      : result_(std::move(result)),
        schema_(engineSchema(result_.schema())),
        onWarnings_(std::move(onWarnings)) {}
  const engine::Schema& schema() const override { return schema_; }
  std::optional<Next> next() override {
    std::optional<Batch> batch = result_.next();
    if (!batch) {
      if (onWarnings_) std::exchange(onWarnings_, nullptr)(result_.warnings());
      return std::nullopt;
    }
    return Next{&batch->impl()->page, batch->impl()};
  }

 private:
  Result result_;
  engine::Schema schema_;
  std::function<void(const std::vector<std::string>&)> onWarnings_;
};

/// Returns position `index` of `readers` as an engine field and its conversion:
/// a flat leaf by its path, the element leaf of a list by the list's path.
std::pair<engine::Field, engine::ParquetColumnConversion> readerColumn(
    const parquet::ColumnReaders& readers, size_t index, const std::string& uri) {
  const parquet::SchemaNode& leaf = readers.columnLeaf(index);
  if (std::optional<engine::DataType> type = engine::ParquetFormatReader::engineType(leaf);
      type && leaf.maxRepetitionLevel == 0) {
    return {engine::Field{leaf.path, *type}, engine::ParquetColumnConversion(*type, uri)};
  }
  for (const parquet::SchemaNode* node = leaf.parent; node != nullptr && !node->isRoot();
       node = node->parent) {
    if (engine::parquetListElement(*node) != &leaf) continue;
    if (std::optional<engine::DataType> type = engine::ParquetFormatReader::listType(*node)) {
      return {engine::Field{node->path, *type}, engine::ParquetColumnConversion(*type, uri)};
    }
  }
  throw Unsupported(uri + ": column " + leaf.path +
                    ": not a flat column or the element of a list the engine reads; export it "
                    "through a query or read it with RowReader");
}

/// A ColumnReaders and the file it reads: a page per batch, converted as the
/// engine's Parquet scan converts.
class ColumnReadersSource final : public PageSource {
 public:
  ColumnReadersSource(std::unique_ptr<parquet::ParquetFileReader> file,
                      std::unique_ptr<parquet::ColumnReaders> readers)
      : file_(std::move(file)), readers_(std::move(readers)) {
    if (readers_ == nullptr) throw InvalidArgument("exportArrowStream: no ColumnReaders");
    if (file_ != nullptr && &readers_->file() != file_.get()) {
      throw InvalidArgument(
          "exportArrowStream: the ColumnReaders read another file than the one given");
    }
    const std::string& uri = readers_->file().storage().uri();
    for (size_t i = 0; i < readers_->getColumnCount(); ++i) {
      auto [field, conversion] = readerColumn(*readers_, i, uri);
      schema_.push_back(std::move(field));
      conversions_.push_back(std::move(conversion));
    }
  }
  const engine::Schema& schema() const override { return schema_; }
  std::optional<Next> next() override {
    if (!readers_->nextBatch()) return std::nullopt;
    const std::span<const int64_t> selected = readers_->selectedRows();
    const engine::BatchRows rows{0, readers_->rowCount(),
                                 selected.empty() ? nullptr : selected.data()};
    std::vector<engine::Block> blocks;
    blocks.reserve(conversions_.size());
    for (size_t i = 0; i < conversions_.size(); ++i)
      blocks.push_back(conversions_[i].convert(readers_->column(i), rows));
    auto page = std::make_shared<engine::Page>(std::move(blocks), static_cast<size_t>(rows.count));
    return Next{page.get(), page};
  }

 private:
  std::unique_ptr<parquet::ParquetFileReader> file_;  // null: the caller keeps the file
  std::unique_ptr<parquet::ColumnReaders> readers_;
  engine::Schema schema_;
  std::vector<engine::ParquetColumnConversion> conversions_;
};

/// The stream's source and what it declared: the columns dictionary-encoded
/// are those its first page has in the dictionary form, so that page is
/// computed (and kept for the first get_next) when the schema is first asked.
struct StreamData {
  StreamData(std::unique_ptr<PageSource> s, ArrowStreamOptions o)
      : source(std::move(s)), options(o) {}
  std::unique_ptr<PageSource> source;
  ArrowStreamOptions options;
  std::string lastError;
  bool declared = false;
  std::vector<bool> dictionaryColumns;
  std::optional<PageSource::Next> first;
  std::exception_ptr firstFailure;  // computing the first page failed: get_next says so

  void declare() {
    if (declared) return;
    declared = true;
    try {
      first = source->next();
      if (first && options.dictionaries) dictionaryColumns = arrow::dictionaryColumns(*first->page);
    } catch (...) {
      firstFailure = std::current_exception();
    }
  }

  std::optional<PageSource::Next> next() {
    declare();
    if (firstFailure) std::rethrow_exception(std::exchange(firstFailure, nullptr));
    if (first) return std::exchange(first, std::nullopt);
    return source->next();
  }
};

int streamGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  if (stream->release == nullptr) return EINVAL;
  auto* data = static_cast<StreamData*>(stream->private_data);
  try {
    data->declare();
    arrow::exportSchema(data->source->schema(), out, data->dictionaryColumns);
    return 0;
  } catch (const std::exception& e) {
    data->lastError = e.what();
    return ENOMEM;
  }
}

int streamGetNext(ArrowArrayStream* stream, ArrowArray* out) {
  if (stream->release == nullptr) return EINVAL;
  auto* data = static_cast<StreamData*>(stream->private_data);
  try {
    std::optional<PageSource::Next> page = data->next();
    if (!page) {
      std::memset(out, 0, sizeof(*out));  // a released array: the end
      return 0;
    }
    arrow::exportPage(*page->page, std::move(page->owner), out, data->dictionaryColumns);
    return 0;
  } catch (const std::bad_alloc&) {
    data->lastError = "out of memory";
    return ENOMEM;
  } catch (const std::exception& e) {
    data->lastError = e.what();
    return EIO;
  }
}

const char* streamLastError(ArrowArrayStream* stream) {
  if (stream->release == nullptr) return nullptr;
  const auto* data = static_cast<StreamData*>(stream->private_data);
  return data->lastError.empty() ? nullptr : data->lastError.c_str();
}

void streamRelease(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  delete static_cast<StreamData*>(stream->private_data);
  stream->release = nullptr;
}

}  // namespace

void exportArrowSchema(const std::vector<Field>& fields, ArrowSchema* out) {
  arrow::exportSchema(engineSchema(fields), out);
}

void exportArrowArray(const Batch& batch, ArrowArray* out) {
  // The batch's values stay alive while any exported array points into them.
  arrow::exportPage(batch.impl()->page, batch.impl(), out);
}

namespace {

void exportSource(std::unique_ptr<PageSource> source, ArrowArrayStream* out,
                  ArrowStreamOptions options) {
  auto data = std::make_unique<StreamData>(std::move(source), options);
  out->get_schema = streamGetSchema;
  out->get_next = streamGetNext;
  out->get_last_error = streamLastError;
  out->release = streamRelease;
  out->private_data = data.release();
}

}  // namespace

void exportArrowStream(Result result, ArrowArrayStream* out, ArrowStreamOptions options) {
  exportSource(std::make_unique<ResultSource>(std::move(result), options.onWarnings), out, options);
}

void exportArrowStream(std::unique_ptr<parquet::ParquetFileReader> file,
                       std::unique_ptr<parquet::ColumnReaders> readers, ArrowArrayStream* out,
                       ArrowStreamOptions options) {
  exportSource(std::make_unique<ColumnReadersSource>(std::move(file), std::move(readers)), out,
               options);
}

}  // namespace quarry
