#include "quarry/cli/error_report.h"

#include "quarry/common/uri_redaction.h"

namespace quarry::cli {

namespace {

/// True when `message` names `name` as a whole word, at its start ("a.parquet:
/// ...") or after a space ("no column 'x' in a.parquet; ..."): "ab: ..." does not
/// name "a".
bool namesName(std::string_view message, std::string_view name) {
  if (name.empty()) return false;
  for (size_t at = message.find(name); at != std::string_view::npos;
       at = message.find(name, at + 1)) {
    const size_t end = at + name.size();
    const bool startsWord = at == 0 || message[at - 1] == ' ';
    const bool endsWord = end == message.size() || message[end] == ':' || message[end] == ' ' ||
                          message[end] == ';' || message[end] == ',';
    if (startsWord && endsWord) return true;
  }
  return false;
}

bool namesFile(std::string_view message, std::string_view file) {
  if (namesName(message, file)) {
    return true;
  }
  // A file:// URI is opened by its path, which is what the storage layer names.
  constexpr std::string_view kFileScheme = "file://";
  return file.starts_with(kFileScheme) && namesName(message, file.substr(kFileScheme.size()));
}

}  // namespace

std::string errorLine(std::string_view file, std::string_view message) {
  // Storage errors redact the URIs they name; what the user typed is redacted here.
  const std::string shownFile = redactUri(file);
  const std::string shownMessage = redactUris(message);
  std::string line = "quarry: ";
  if (!shownFile.empty() && !namesFile(shownMessage, shownFile)) {
    line += shownFile;
    line += ": ";
  }
  for (char c : shownMessage) {
    line += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return line;
}

}  // namespace quarry::cli
