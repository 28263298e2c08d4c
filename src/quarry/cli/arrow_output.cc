#include "quarry/cli/arrow_output.h"

#include <unistd.h>

#include <iostream>
#include <string>
#include <utility>

#include "quarry/arrow/page_arrays.h"
#include "quarry/arrow/released.h"

namespace quarry::cli {

namespace {

constexpr size_t kFlushBytes = 1 << 20;

}  // namespace

bool refuseBinaryToTerminal(std::FILE* out, std::string_view option) {
  if (isatty(fileno(out)) == 0) return false;
  std::cerr
      << "quarry: " << option
      << " writes binary data (an Arrow IPC stream), not text for a terminal; redirect it to a "
         "file or a pipe (e.g. > result.arrows)"
      << std::endl;
  return true;
}

ArrowOutput::ArrowOutput(const engine::Schema& schema, Write write)
    : write_(std::move(write)), writer_([this](std::string_view bytes) { append(bytes); }) {
  arrow::Released<ArrowSchema> exported;
  arrow::exportSchema(schema, &exported.value);
  writer_.writeSchema(exported.value);
}

void ArrowOutput::add(const engine::Page& page, size_t first, size_t count) {
  if (count == 0) return;
  arrow::Released<ArrowArray> array;
  // The page outlives the array: it is written before this returns.
  arrow::exportPage(page, nullptr, &array.value);
  writer_.writeBatch(array.value, static_cast<int64_t>(first), static_cast<int64_t>(count));
}

void ArrowOutput::finish() {
  writer_.end();
  flush();
}

void ArrowOutput::append(std::string_view bytes) {
  if (bytes.size() >= kFlushBytes) {  // a large buffer goes out as it is, not copied
    flush();
    write_(bytes);
    return;
  }
  pending_ += bytes;
  if (pending_.size() >= kFlushBytes) flush();
}

void ArrowOutput::flush() {
  if (pending_.empty()) return;
  write_(pending_);
  pending_.clear();
}

}  // namespace quarry::cli
