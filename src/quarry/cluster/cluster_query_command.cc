#include "quarry/cluster/cluster_query_command.h"

#include <iostream>

namespace quarry::cluster {

int runClusterQueryCommand(int, char**) {
  std::cerr << "quarry: not available yet" << std::endl;
  return 2;
}

}  // namespace quarry::cluster
