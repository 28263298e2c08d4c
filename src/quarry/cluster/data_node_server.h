#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

/// A data node: the gRPC DataNode service (cluster.proto) over this process's
/// engine. Execute checks the token, checks every split against the allowed
/// roots, plans the fragment (engine/fragment.h) and streams its pages,
/// one group per split (or one group for all when statistics answered them).
/// Every call is logged as one line (peer, method, query id, splits, outcome,
/// milliseconds); every refusal as one line with its reason. Neither ever
/// holds the token or any other credential.
namespace quarry::cluster {

struct DataNodeOptions {
  /// "HOST:PORT"; port 0 picks a free one (start() returns it).
  std::string listen = "127.0.0.1:0";
  /// The shared token every call must carry.
  std::string token;
  /// Local directories and http(s):// / s3:// prefixes (allowed_roots.h).
  std::vector<std::string> allowedRoots;
  /// Driver threads of an Execute whose request asks for 0.
  int threads = 2;
  /// PEM files; both or neither. Without them the port is plaintext.
  std::string tlsCertFile;
  std::string tlsKeyFile;
  /// Where the log lines go (stderr when null).
  std::ostream* log = nullptr;
};

class DataNodeServer {
 public:
  /// Throws InvalidArgument for an empty or malformed token (token.h), no or a
  /// bad allowed root, or unreadable TLS files (naming the file).
  explicit DataNodeServer(DataNodeOptions options);
  ~DataNodeServer();
  DataNodeServer(const DataNodeServer&) = delete;
  DataNodeServer& operator=(const DataNodeServer&) = delete;

  /// Binds and starts serving; returns the bound port. Throws IoError when the
  /// address cannot be bound.
  int start();
  /// Stops taking calls, cancels the running ones, and returns once they ended.
  void shutdown();
  /// Blocks until shutdown() (from another thread) completes.
  void wait();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace quarry::cluster
