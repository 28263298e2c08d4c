#include "quarry/engine/source/format_reader_registry.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "quarry/engine/source/orc_format_reader.h"
#include "quarry/engine/source/parquet_format_reader.h"

namespace quarry::engine {
namespace {

/// The end of the URI's path (without a query string or fragment), lower-cased:
/// what an extension is matched against.
std::string lowerPathEnd(std::string_view uri) {
  if (uri.starts_with("http://") || uri.starts_with("https://")) {
    uri = uri.substr(0, uri.find_first_of("?#"));
  }
  // Only the end can hold an extension (".parquet" is the longest).
  if (uri.size() > 8) uri = uri.substr(uri.size() - 8);
  std::string out(uri);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

FormatReaderRegistry::FormatReaderRegistry() {
  readers_.push_back(std::make_unique<ParquetFormatReader>());
  readers_.push_back(std::make_unique<OrcFormatReader>());
}

const FormatReaderRegistry& FormatReaderRegistry::instance() {
  // Never destroyed: the readers' footer caches are left to the process's exit.
  static const auto* registry = new FormatReaderRegistry;
  return *registry;
}

const FormatReader* FormatReaderRegistry::findByName(std::string_view name) const {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const auto& reader : readers_) {
    if (reader->name() == lower) return reader.get();
  }
  return nullptr;
}

const FormatReader* FormatReaderRegistry::findByExtension(std::string_view uri) const {
  const std::string path = lowerPathEnd(uri);
  for (const char* extension : {".parquet", ".parq", ".pq"}) {
    if (path.ends_with(extension)) return findByName("parquet");
  }
  if (path.ends_with(".orc")) return findByName("orc");
  return nullptr;
}

}  // namespace quarry::engine
