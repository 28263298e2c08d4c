#include "quarry/cli/cluster/serve_command.h"

#include <signal.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "quarry/cluster/data_node_server.h"
#include "quarry/cluster/token.h"
#include "quarry/common/error.h"

namespace quarry::cluster {

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

/// Whether "HOST:PORT" ("[::1]:0" included) ends in a port number.
bool hasPort(const std::string& listen) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon + 1 == listen.size() || colon == 0) return false;
  for (size_t i = colon + 1; i < listen.size(); ++i) {
    if (listen[i] < '0' || listen[i] > '9') return false;
  }
  return listen.size() - colon - 1 <= 5 && std::stoi(listen.substr(colon + 1)) <= 65535;
}

}  // namespace

int runServeCommand(int argc, char** argv) {
  CLI::App app("Run a data node: runs query fragments over its allowed roots for a coordinator.",
               "quarry serve");
  DataNodeOptions options;
  std::string tokenFile;
  app.add_option("--listen", options.listen, "HOST:PORT to listen on (port 0 picks a free one)")
      ->required();
  app.add_option("--token-file", tokenFile, "File holding the token every call must carry")
      ->required();
  app.add_option(
         "--allow-root", options.allowedRoots,
         "A local directory or an http(s)://, s3:// prefix splits may be read under (repeatable)")
      ->required()
      ->take_last();
  app.add_option("--threads", options.threads, "Driver threads per query (default 2)")
      ->check(CLI::Range(1, 256));
  app.add_option("--tls-cert", options.tlsCertFile, "PEM certificate chain (TLS; needs --tls-key)");
  app.add_option("--tls-key", options.tlsKeyFile, "PEM private key (TLS; needs --tls-cert)");
  try {
    app.parse(argc, argv);
    if (!hasPort(options.listen))
      throw CLI::ValidationError("--listen", "expected HOST:PORT, not " + options.listen);
    if (options.tlsCertFile.empty() != options.tlsKeyFile.empty()) {
      throw CLI::ValidationError("--tls-cert/--tls-key", "TLS needs both --tls-cert and --tls-key");
    }
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
    std::cerr << "quarry serve: " << e.what() << " (run 'quarry serve --help' for usage)"
              << std::endl;
    return kExitUsage;
  }

  // SIGINT and SIGTERM are taken by sigwait below, on this thread only: block
  // them before gRPC starts its threads, which inherit the mask.
  sigset_t stopSignals;
  sigemptyset(&stopSignals);
  sigaddset(&stopSignals, SIGINT);
  sigaddset(&stopSignals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

  try {
    options.token = readTokenFile(tokenFile);
    const std::string host = options.listen.substr(0, options.listen.rfind(':'));
    DataNodeServer server(options);
    const int port = server.start();
    std::printf("quarry serve: listening on %s:%d\n", host.c_str(), port);
    std::fflush(stdout);
    int signal = 0;
    sigwait(&stopSignals, &signal);
    std::cerr << "quarry serve: " << (signal == SIGINT ? "SIGINT" : "SIGTERM") << ", shutting down"
              << std::endl;
    server.shutdown();
    server.wait();
    return 0;
  } catch (const quarry::InvalidArgument& e) {
    std::cerr << "quarry serve: " << e.what() << std::endl;
  } catch (const quarry::Error& e) {
    std::cerr << "quarry serve: " << e.what() << std::endl;
  } catch (const std::exception& e) {
    std::cerr << "quarry serve: " << e.what() << std::endl;
  }
  return kExitFailure;
}

}  // namespace quarry::cluster
