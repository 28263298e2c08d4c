#pragma once

#include <chrono>
#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "quarry/cluster/cluster.grpc.pb.h"

/// The coordinator's connection to one data node: a gRPC channel (plaintext, or
/// TLS verified against a CA file), the shared token on every call, a deadline on
/// every call, and HTTP/2 keepalive pings so that a host that vanished (killed,
/// unplugged) fails the open stream within seconds rather than at the deadline.
namespace quarry::cluster {

struct ClientOptions {
  std::string token;
  /// PEM file of the CA that signed the nodes' certificates; empty: plaintext.
  std::string tlsCaFile;
  /// The deadline of one Execute stream (the whole query's budget).
  std::chrono::milliseconds executeTimeout{std::chrono::minutes(10)};
  /// The deadline of Health and Cancel.
  std::chrono::milliseconds shortTimeout{std::chrono::seconds(5)};
};

class DataNodeClient {
 public:
  /// `address` is "host:port". Throws InvalidArgument when the CA file cannot be
  /// read or the token is not one (token.h: tokenProblem).
  DataNodeClient(std::string address, const ClientOptions& options);

  const std::string& address() const { return address_; }

  /// Starts an Execute stream; `context` must outlive the reader and is where
  /// the caller cancels it (TryCancel) from another thread.
  std::unique_ptr<grpc::ClientReader<proto::ExecuteResponse>> execute(grpc::ClientContext& context,
                                                                      const proto::ExecuteRequest& request) const;
  /// Prepares `context` for an Execute call: the token and `deadline` (the query's).
  void prepareExecute(grpc::ClientContext& context, std::chrono::system_clock::time_point deadline) const;

  const ClientOptions& options() const { return options_; }

  /// Asks the node to stop the query's Execute; failures are ignored (best effort).
  void cancel(const std::string& queryId) const;

  /// Returns the node's health, or throws IoError naming the node and gRPC's message.
  proto::HealthResponse health() const;

 private:
  void authorize(grpc::ClientContext& context, std::chrono::milliseconds timeout) const;

  std::string address_;
  ClientOptions options_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<proto::DataNode::Stub> stub_;
};

/// Describes a failed call for an error message: "UNAVAILABLE: failed to connect".
std::string describeStatus(const grpc::Status& status);

}  // namespace quarry::cluster
