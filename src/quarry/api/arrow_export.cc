#include "quarry/arrow.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quarry/api/batch_impl.h"
#include "quarry/api/engine_types.h"
#include "quarry/arrow/page_arrays.h"

namespace quarry {

namespace {

engine::Schema engineSchema(const std::vector<Field>& fields) {
  engine::Schema schema;
  for (const Field& field : fields) schema.push_back({field.name, api::engineType(field.type)});
  return schema;
}

// ---- the stream

/// The stream's result and what it declared: the columns dictionary-encoded
/// are those its first batch has in the dictionary form, so that batch is
/// computed (and kept for the first get_next) when the schema is first asked.
struct StreamData {
  StreamData(Result r, ArrowStreamOptions o) : result(std::move(r)), options(o) {}
  Result result;
  ArrowStreamOptions options;
  std::string lastError;
  bool declared = false;
  std::vector<bool> dictionaryColumns;
  std::optional<Batch> first;
  std::exception_ptr firstFailure;  // computing the first batch failed: get_next says so

  void declare() {
    if (declared) return;
    declared = true;
    try {
      first = result.next();
      if (first && options.dictionaries)
        dictionaryColumns = arrow::dictionaryColumns(first->impl()->page);
    } catch (...) {
      firstFailure = std::current_exception();
    }
  }

  std::optional<Batch> next() {
    declare();
    if (firstFailure) std::rethrow_exception(std::exchange(firstFailure, nullptr));
    if (first) return std::exchange(first, std::nullopt);
    return result.next();
  }
};

int streamGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  if (stream->release == nullptr) return EINVAL;
  auto* data = static_cast<StreamData*>(stream->private_data);
  try {
    data->declare();
    arrow::exportSchema(engineSchema(data->result.schema()), out, data->dictionaryColumns);
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
    std::optional<Batch> batch = data->next();
    if (!batch) {
      std::memset(out, 0, sizeof(*out));  // a released array: the end
      return 0;
    }
    arrow::exportPage(batch->impl()->page, batch->impl(), out, data->dictionaryColumns);
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

void exportArrowStream(Result result, ArrowArrayStream* out, ArrowStreamOptions options) {
  out->get_schema = streamGetSchema;
  out->get_next = streamGetNext;
  out->get_last_error = streamLastError;
  out->release = streamRelease;
  out->private_data = new StreamData(std::move(result), options);
}

}  // namespace quarry
