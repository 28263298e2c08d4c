#include "quarry/cluster/serve_command.h"

#include <iostream>

namespace quarry::cluster {

int runServeCommand(int, char**) {
  std::cerr << "quarry: not available yet" << std::endl;
  return 2;
}

}  // namespace quarry::cluster
