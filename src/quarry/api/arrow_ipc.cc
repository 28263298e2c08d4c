#include <cerrno>
#include <cstring>
#include <string>

#include "quarry/arrow.h"
#include "quarry/arrow/ipc_stream_writer.h"
#include "quarry/error.h"

namespace quarry {

void writeArrowIpcStream(ArrowArrayStream* stream,
                         const std::function<void(std::string_view bytes)>& write) {
  arrow::writeIpcStream(*stream, write);
}

void writeArrowIpcStream(ArrowArrayStream* stream, std::FILE* out) {
  writeArrowIpcStream(stream, [out](std::string_view bytes) {
    if (std::fwrite(bytes.data(), 1, bytes.size(), out) != bytes.size()) {
      throw IoError(std::string("cannot write the Arrow IPC stream: ") + std::strerror(errno));
    }
  });
}

}  // namespace quarry
