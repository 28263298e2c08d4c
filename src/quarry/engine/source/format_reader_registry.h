#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "quarry/engine/source/format_reader.h"

/// The FormatReaders the engine knows, found by name (WITH {"format": ...}) or by
/// a URI's extension.
namespace quarry::engine {

class FormatReaderRegistry {
 public:
  static const FormatReaderRegistry& instance();             // parquet and orc registered
  const FormatReader* findByName(std::string_view name) const;   // nullptr when unknown
  const FormatReader* findByExtension(std::string_view uri) const;  // .parquet/.parq/.pq, .orc
  /// Every registered reader, in registration order.
  const std::vector<std::unique_ptr<FormatReader>>& readers() const { return readers_; }

 private:
  FormatReaderRegistry();
  std::vector<std::unique_ptr<FormatReader>> readers_;
};

}  // namespace quarry::engine
