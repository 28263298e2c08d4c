#include "quarry/cli/error_report.h"

#include "quarry/common/uri_redaction.h"

namespace quarry::cli {

namespace {

/// True when `message` begins with `name` as a whole word: "a.parquet: ..."
/// names a.parquet, "ab: ..." does not name "a".
bool beginsWithName(std::string_view message, std::string_view name) {
  return !name.empty() && message.starts_with(name) &&
         (message.size() == name.size() || message[name.size()] == ':' ||
          message[name.size()] == ' ');
}

bool startsWithName(std::string_view message, std::string_view file) {
  if (beginsWithName(message, file)) {
    return true;
  }
  // A file:// URI is opened by its path, which is what the storage layer names.
  constexpr std::string_view kFileScheme = "file://";
  return file.starts_with(kFileScheme) && beginsWithName(message, file.substr(kFileScheme.size()));
}

}  // namespace

std::string errorLine(std::string_view file, std::string_view message) {
  // Storage errors redact the URIs they name; what the user typed is redacted here.
  const std::string shownFile = redactUri(file);
  const std::string shownMessage = redactUris(message);
  std::string line = "quarry: ";
  if (!shownFile.empty() && !startsWithName(shownMessage, shownFile)) {
    line += shownFile;
    line += ": ";
  }
  for (char c : shownMessage) {
    line += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return line;
}

}  // namespace quarry::cli
