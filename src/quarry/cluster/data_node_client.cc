#include "quarry/cluster/data_node_client.h"

#include <fstream>
#include <sstream>

#include "quarry/cluster/token.h"
#include "quarry/common/error.h"

namespace quarry::cluster {

namespace {

std::string readCaFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument("cannot read the TLS CA file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().empty()) throw InvalidArgument("the TLS CA file " + path + " is empty");
  return text.str();
}

std::shared_ptr<grpc::Channel> openChannel(const std::string& address, const ClientOptions& options) {
  grpc::ChannelArguments arguments;
  // Keepalive pings on open streams: a node whose host stops answering fails the
  // stream after about 10 + 5 seconds instead of at the query deadline.
  arguments.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 10'000);
  arguments.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 5'000);
  arguments.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 0);
  arguments.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  // A node that is down is retried soon after, not after gRPC's default backoff.
  arguments.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 200);
  arguments.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 2'000);
  arguments.SetMaxReceiveMessageSize(256 << 20);
  // One channel per node object: do not share subchannels between nodes (tests
  // restart a node on the same port).
  arguments.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  if (options.tlsCaFile.empty()) {
    credentials = grpc::InsecureChannelCredentials();
  } else {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = readCaFile(options.tlsCaFile);
    credentials = grpc::SslCredentials(ssl);
  }
  return grpc::CreateCustomChannel(address, credentials, arguments);
}

}  // namespace

DataNodeClient::DataNodeClient(std::string address, const ClientOptions& options)
    : address_(std::move(address)), options_(options) {
  // gRPC aborts the process on a metadata value it cannot send (and prints it).
  if (const std::string problem = tokenProblem(options_.token); !problem.empty())
    throw InvalidArgument("the token for data node " + address_ + " " + problem);
  channel_ = openChannel(address_, options_);
  stub_ = proto::DataNode::NewStub(channel_);
}

void DataNodeClient::authorize(grpc::ClientContext& context, std::chrono::milliseconds timeout) const {
  context.AddMetadata(kAuthorizationKey, "Bearer " + options_.token);
  context.set_deadline(std::chrono::system_clock::now() + timeout);
}

void DataNodeClient::prepareExecute(grpc::ClientContext& context,
                                    std::chrono::system_clock::time_point deadline) const {
  context.AddMetadata(kAuthorizationKey, "Bearer " + options_.token);
  context.set_deadline(deadline);
}

std::unique_ptr<grpc::ClientReader<proto::ExecuteResponse>> DataNodeClient::execute(
    grpc::ClientContext& context, const proto::ExecuteRequest& request) const {
  return stub_->Execute(&context, request);
}

void DataNodeClient::cancel(const std::string& queryId) const {
  grpc::ClientContext context;
  authorize(context, options_.shortTimeout);
  proto::CancelRequest request;
  request.set_query_id(queryId);
  proto::CancelResponse response;
  (void)stub_->Cancel(&context, request, &response);
}

proto::HealthResponse DataNodeClient::health() const {
  grpc::ClientContext context;
  authorize(context, options_.shortTimeout);
  proto::HealthResponse response;
  const grpc::Status status = stub_->Health(&context, proto::HealthRequest{}, &response);
  if (!status.ok()) throw IoError("data node " + address_ + ": " + describeStatus(status));
  return response;
}

std::string describeStatus(const grpc::Status& status) {
  static const char* const kNames[] = {"OK",
                                       "CANCELLED",
                                       "UNKNOWN",
                                       "INVALID_ARGUMENT",
                                       "DEADLINE_EXCEEDED",
                                       "NOT_FOUND",
                                       "ALREADY_EXISTS",
                                       "PERMISSION_DENIED",
                                       "RESOURCE_EXHAUSTED",
                                       "FAILED_PRECONDITION",
                                       "ABORTED",
                                       "OUT_OF_RANGE",
                                       "UNIMPLEMENTED",
                                       "INTERNAL",
                                       "UNAVAILABLE",
                                       "DATA_LOSS",
                                       "UNAUTHENTICATED"};
  const int code = static_cast<int>(status.error_code());
  std::string text = code >= 0 && code < 17 ? kNames[code] : "code " + std::to_string(code);
  if (!status.error_message().empty()) text += ": " + status.error_message();
  return text;
}

}  // namespace quarry::cluster
