#include "quarry/cli/file_arguments.h"

#include "quarry/io/file_patterns.h"

namespace quarry::cli {

std::vector<std::string> expandFileArguments(const std::vector<std::string>& arguments) {
  return io::expandFilePatterns(arguments);
}

}  // namespace quarry::cli
