#include "quarry/cli/cluster_launcher.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string_view>
#include <vector>

namespace quarry::cli {

bool wantsCluster(int argc, char** argv) {
  if (argc < 2) return false;
  const std::string_view command = argv[1];
  if (command == "serve") return true;
  if (command != "query" && command != "explain") return false;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg == "--nodes" || arg.starts_with("--nodes=") || arg == "--cluster" || arg.starts_with("--cluster=")) {
      return true;
    }
  }
  return false;
}

int launchCluster(int argc, char** argv) {
  std::error_code error;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) self = argv[0];
  const std::string cluster = (self.parent_path() / "quarry-cluster").string();
  std::vector<char*> args;
  args.push_back(const_cast<char*>(cluster.c_str()));
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  execv(cluster.c_str(), args.data());
  const int error_number = errno;
  std::cerr << "quarry: cannot start " << cluster << ": " << std::strerror(error_number);
  if (error_number == ENOENT) std::cerr << " (`make build-all` builds it beside quarry)";
  std::cerr << std::endl;
  return 1;
}

}  // namespace quarry::cli
