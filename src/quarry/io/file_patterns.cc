#include "quarry/io/file_patterns.h"

#include <iterator>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/common/uri_redaction.h"
#include "quarry/io/glob.h"
#include "quarry/io/s3_storage.h"

namespace quarry::io {

std::vector<std::string> listS3Pattern(const std::string& pattern, ListingMemory* memory) {
  if (memory == nullptr) return listS3(pattern);
  if (std::optional<std::vector<std::string>> recalled = memory->recallRemoteListing(pattern))
    return std::move(*recalled);
  std::vector<std::string> uris;
  for (ListedObject& object : listS3Objects(pattern)) {
    if (object.identity) memory->listed(object.uri, *object.identity);
    uris.push_back(std::move(object.uri));
  }
  memory->rememberRemoteListing(pattern, uris);
  return uris;
}

std::vector<std::string> expandFilePatterns(const std::vector<std::string>& patterns,
                                            ThreadPool* pool, ListingMemory* memory) {
  std::vector<std::string> files;
  for (const std::string& pattern : patterns) {
    const std::string_view text = pattern;
    if (text.starts_with("http://") || text.starts_with("https://") || !hasGlob(text)) {
      files.push_back(pattern);
      continue;
    }
    std::vector<std::string> matches;
    if (text.starts_with("s3://")) {
      matches = listS3Pattern(pattern, memory);
    } else {
      constexpr std::string_view kFileScheme = "file://";
      const std::string path =
          text.starts_with(kFileScheme) ? pattern.substr(kFileScheme.size()) : pattern;
      std::optional<std::vector<std::string>> recalled;
      if (memory != nullptr) recalled = memory->recall(path, pool);
      if (recalled) {
        matches = std::move(*recalled);
      } else if (memory != nullptr) {
        GlobListing listing;
        matches = globLocal(path, pool, &listing);
        memory->remember(path, listing, matches);
      } else {
        matches = globLocal(path, pool);
      }
    }
    if (matches.empty()) {
      throw InvalidArgument(redactUri(pattern) + ": the pattern matches no file");
    }
    files.insert(files.end(), std::make_move_iterator(matches.begin()),
                 std::make_move_iterator(matches.end()));
  }
  return files;
}

}  // namespace quarry::io
