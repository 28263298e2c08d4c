// quarry-cluster: `quarry serve` (a data node) and `quarry query|explain
// --nodes` (the coordinator). `quarry` execs it (cli/cluster_launcher.h) with
// its own arguments, so that only this executable links gRPC.

#include <iostream>
#include <string_view>

#include "quarry/cli/cluster/cluster_query_command.h"
#include "quarry/cli/cluster/serve_command.h"
#include "quarry/common/process_memory.h"

int main(int argc, char** argv) {
  quarry::keepFreedMemory();
  const std::string_view command = argc > 1 ? argv[1] : "";
  if (command == "serve") return quarry::cluster::runServeCommand(argc - 1, argv + 1);
  if (command == "query" || command == "explain") return quarry::cluster::runClusterQueryCommand(argc - 1, argv + 1);
  std::cerr << "quarry-cluster: expected 'serve', 'query' or 'explain' (it is started by quarry)" << std::endl;
  return 2;
}
