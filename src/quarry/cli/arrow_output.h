#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

#include "quarry/arrow/ipc_stream_writer.h"
#include "quarry/engine/data/block.h"
#include "quarry/engine/data/data_type.h"

/// `--format arrow` (query) and `--to arrow` (convert): engine pages written as
/// an Arrow IPC stream (arrow/ipc_stream_writer.h), through the same C Data
/// Interface arrays the library exports (arrow/page_arrays.h).
namespace quarry::cli {

/// Returns true, having said why on stderr, when `out` is a terminal: an IPC
/// stream is binary, which `option` does not write there.
bool refuseBinaryToTerminal(std::FILE* out, std::string_view option);

class ArrowOutput {
 public:
  /// Receives the stream in pieces of about 1 MiB (or a larger buffer whole).
  using Write = std::function<void(std::string_view bytes)>;

  /// Writes (into the pending output) the Schema message of `schema`.
  ArrowOutput(const engine::Schema& schema, Write write);

  /// Writes rows [first, first + count) of `page` as a RecordBatch.
  void add(const engine::Page& page, size_t first, size_t count);
  void add(const engine::Page& page) { add(page, 0, page.positionCount()); }

  /// Writes the end-of-stream marker and everything pending.
  void finish();

 private:
  void append(std::string_view bytes);
  void flush();

  Write write_;
  std::string pending_;
  arrow::IpcStreamWriter writer_;
};

}  // namespace quarry::cli
