#pragma once

#include <memory>
#include <string>
#include <typeinfo>

#include "quarry/cli/value_renderer.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "quarry/io/storage.h"

/// Every row of a Parquet file as text (each value as `quarry print` renders it), for
/// tests that read one file from two kinds of storage and expect the same answer.
namespace quarry::testing {

inline std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

/// Returns the file's rows, one line each with its values separated by '|', or the rows
/// before the error and the error's type and message, with the object's URI replaced by
/// "<file>" so that a local path and a URL compare equal. Which error a defective file
/// reports first can depend on thread timing: pass `options.threads = 1` to compare errors.
inline std::string renderRows(std::unique_ptr<io::StorageObject> object, parquet::ReaderOptions options = {}) {
  const std::string uri = object->uri();
  std::string out;
  try {
    auto file = parquet::ParquetFileReader::open(std::move(object), options);
    cli::ValueRenderer renderer(file->metadata());
    auto rows = file->rowReader();
    while (rows->next()) {
      const parquet::PqStruct row = rows->row();
      for (size_t i = 0; i < row.getFieldCount(); ++i) {
        if (i > 0) out += '|';
        renderer.appendText(row.field(i), out);
      }
      out += '\n';
    }
  } catch (const std::exception& e) {
    out += std::string("ERROR ") + typeid(e).name() + ": " + replaceAll(e.what(), uri, "<file>");
  }
  return out;
}

}  // namespace quarry::testing
