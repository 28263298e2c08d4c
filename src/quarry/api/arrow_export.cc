#include "quarry/arrow.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "quarry/api/batch_impl.h"
#include "quarry/api/engine_types.h"
#include "quarry/arrow/page_arrays.h"

namespace quarry {

namespace {

// ---- the stream

struct StreamData {
  explicit StreamData(Result r) : result(std::move(r)) {}
  Result result;
  std::string lastError;
};

int streamGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  if (stream->release == nullptr) return EINVAL;
  auto* data = static_cast<StreamData*>(stream->private_data);
  try {
    exportArrowSchema(data->result.schema(), out);
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
    std::optional<Batch> batch = data->result.next();
    if (!batch) {
      std::memset(out, 0, sizeof(*out));  // a released array: the end
      return 0;
    }
    exportArrowArray(*batch, out);
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
  engine::Schema schema;
  for (const Field& field : fields) schema.push_back({field.name, api::engineType(field.type)});
  arrow::exportSchema(schema, out);
}

void exportArrowArray(const Batch& batch, ArrowArray* out) {
  // The batch's values stay alive while any exported array points into them.
  arrow::exportPage(batch.impl()->page, batch.impl(), out);
}

void exportArrowStream(Result result, ArrowArrayStream* out) {
  out->get_schema = streamGetSchema;
  out->get_next = streamGetNext;
  out->get_last_error = streamLastError;
  out->release = streamRelease;
  out->private_data = new StreamData(std::move(result));
}

}  // namespace quarry
