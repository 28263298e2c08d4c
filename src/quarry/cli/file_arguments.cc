#include "quarry/cli/file_arguments.h"

#include <string_view>

#include "quarry/common/error.h"
#include "quarry/io/glob.h"
#include "quarry/io/s3_storage.h"

namespace quarry::cli {

std::vector<std::string> expandFileArguments(const std::vector<std::string>& arguments) {
  std::vector<std::string> files;
  for (const std::string& argument : arguments) {
    const std::string_view text = argument;
    if (text.starts_with("http://") || text.starts_with("https://") || !io::hasGlob(text)) {
      files.push_back(argument);
      continue;
    }
    std::vector<std::string> matches;
    if (text.starts_with("s3://")) {
      matches = io::listS3(argument);
    } else {
      constexpr std::string_view kFileScheme = "file://";
      matches = io::globLocal(text.starts_with(kFileScheme)
                                  ? argument.substr(kFileScheme.size())
                                  : argument);
    }
    if (matches.empty()) {
      throw InvalidArgument(argument + ": the pattern matches no file");
    }
    files.insert(files.end(), matches.begin(), matches.end());
  }
  return files;
}

}  // namespace quarry::cli
