#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>

/// Fixtures a test builds in memory (ParquetFixtureWriter's bytes, a corrupt
/// file) become files through one function.
namespace quarry::testing {

/// Writes `bytes` to `path`, replacing what was there.
inline void writeFileBytes(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace quarry::testing
