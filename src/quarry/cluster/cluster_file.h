#pragma once

#include <cstdint>
#include <string>
#include <vector>

/// The cluster file (`quarry query --cluster FILE`): who the data nodes are and
/// how to reach them, one directive a line:
///
///   # three nodes on one rack
///   node 10.0.0.1:7070
///   node 10.0.0.2:7070
///   token-file /etc/quarry/token      (relative paths: from the file's folder)
///   tls-ca /etc/quarry/ca.pem         (optional: TLS, trusting this CA)
///   timeout-ms 600000                 (optional: the query's deadline)
///
/// Blank lines and lines starting with '#' are ignored. Command-line options
/// win over the file (--nodes replaces its nodes).
namespace quarry::cluster {

struct ClusterFile {
  std::vector<std::string> nodes;
  std::string tokenFile;
  std::string tlsCa;
  int64_t timeoutMs = 0;
};

/// Throws InvalidArgument naming the file and line for an unknown directive, a
/// missing or extra argument, a node that is not host:port, a bad number.
ClusterFile readClusterFile(const std::string& path);

/// Splits "host:port,host:port" and checks each; throws InvalidArgument naming
/// `what` and the bad entry.
std::vector<std::string> parseNodeList(const std::string& text, const std::string& what);

/// Checks one "host:port" (host a name, IPv4 or [IPv6]; port 1-65535); returns
/// an empty string when good, else why not.
std::string nodeAddressProblem(const std::string& address);

}  // namespace quarry::cluster
