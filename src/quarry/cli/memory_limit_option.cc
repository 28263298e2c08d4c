#include "quarry/cli/memory_limit_option.h"

#include <stdexcept>
#include <string>

#include "quarry/common/memory_budget.h"

namespace quarry::cli {

void addMemoryLimitOption(CLI::App& command) {
  command
      .add_option_function<std::string>(
          "--memory-limit", [](const std::string& size) { setMemoryLimit(parseMemorySize(size)); },
          "The memory decoded column data may take, e.g. 512MB or 2GB (default: half of physical "
          "memory, at most half of `ulimit -v`); a query that needs more stops with an error")
      ->check(CLI::Validator(
          [](std::string& size) -> std::string {
            try {
              parseMemorySize(size);
            } catch (const std::invalid_argument& e) {
              return e.what();
            }
            return {};
          },
          "SIZE"));
}

}  // namespace quarry::cli
