#include "quarry/cluster/cluster_file.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "quarry/common/error.h"

namespace quarry::cluster {

namespace {

std::string trim(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  const size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

}  // namespace

std::string nodeAddressProblem(const std::string& address) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0) return "expected host:port";
  const std::string host = address.substr(0, colon);
  const std::string port = address.substr(colon + 1);
  if (host.front() != '[' && host.find(':') != std::string::npos) return "an IPv6 host goes in brackets: [::1]:port";
  int value = 0;
  const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || error != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535) {
    return "the port must be a number from 1 to 65535";
  }
  return "";
}

std::vector<std::string> parseNodeList(const std::string& text, const std::string& what) {
  std::vector<std::string> nodes;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    item = trim(item);
    if (item.empty()) continue;
    if (const std::string problem = nodeAddressProblem(item); !problem.empty()) {
      throw InvalidArgument(what + ": bad node '" + item + "': " + problem);
    }
    nodes.push_back(item);
  }
  return nodes;
}

ClusterFile readClusterFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InvalidArgument("cannot read the cluster file " + path);
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  auto resolve = [&folder](const std::string& file) {
    const std::filesystem::path p(file);
    return p.is_absolute() || folder.empty() ? file : (folder / p).string();
  };
  ClusterFile out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = path + " line " + std::to_string(number);
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;
    std::istringstream words(line);
    std::string directive, argument, extra;
    words >> directive >> argument;
    if (argument.empty()) throw InvalidArgument(where + ": '" + directive + "' needs an argument");
    if (words >> extra) throw InvalidArgument(where + ": '" + directive + "' takes one argument, got also '" + extra + "'");
    if (directive == "node") {
      if (const std::string problem = nodeAddressProblem(argument); !problem.empty()) {
        throw InvalidArgument(where + ": bad node '" + argument + "': " + problem);
      }
      out.nodes.push_back(argument);
    } else if (directive == "token-file") {
      out.tokenFile = resolve(argument);
    } else if (directive == "tls-ca") {
      out.tlsCa = resolve(argument);
    } else if (directive == "timeout-ms") {
      int64_t value = 0;
      const auto [end, error] = std::from_chars(argument.data(), argument.data() + argument.size(), value);
      if (error != std::errc() || end != argument.data() + argument.size() || value < 1) {
        throw InvalidArgument(where + ": timeout-ms must be a positive number of milliseconds, not '" + argument + "'");
      }
      out.timeoutMs = value;
    } else {
      throw InvalidArgument(where + ": unknown directive '" + directive +
                            "' (expected node, token-file, tls-ca or timeout-ms)");
    }
  }
  return out;
}

}  // namespace quarry::cluster
