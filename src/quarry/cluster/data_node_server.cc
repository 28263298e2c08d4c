#include "quarry/cluster/data_node_server.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "quarry/cluster/allowed_roots.h"
#include "quarry/cluster/cluster.grpc.pb.h"
#include "quarry/cluster/confined_open.h"
#include "quarry/cluster/token.h"
#include "quarry/cluster/wire.h"
#include "quarry/common/error.h"
#include "quarry/common/uri_redaction.h"
#include "quarry/engine/exec/executor.h"
#include "quarry/engine/fragment.h"
#include "quarry/io/storage.h"

namespace quarry::cluster {

namespace {

constexpr const char* kVersion = "0.1.0";
/// Requests carry every split with its statistics: more than gRPC's 4 MiB default.
constexpr int kMaxRequestBytes = 64 << 20;
/// A page whose message would be larger is sent as several smaller pages, so a
/// coordinator with gRPC's default receive limit (4 MiB) still takes it.
constexpr size_t kMaxPageMessageBytes = 3 << 20;
/// How long shutdown() waits before cancelling what is still open (running
/// fragments are told to stop at once; an idle client connection otherwise
/// holds gRPC's shutdown for the whole grace).
constexpr auto kShutdownGrace = std::chrono::milliseconds(500);

std::string readPemFile(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  if (in) content << in.rdbuf();
  if (!in || content.str().empty())
    throw InvalidArgument(std::string("cannot read the TLS ") + what + " file " + path);
  return content.str();
}

/// Keeps what a log line may show of a value the client chose: printable ASCII,
/// at most 200 characters.
std::string printable(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 200)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (text.size() > 200) out += "...";
  return out;
}

const char* codeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "CANCELLED";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS:
      return "DATA_LOSS";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    default:
      return "ERROR";
  }
}

/// The status an error while running a fragment ends the stream with. A
/// storage error may pass on another node (UNAVAILABLE); bytes that are wrong
/// or a query that cannot run are the same everywhere; a file found outside the
/// allowed roots only when opened (a symlink changed since the check) is refused.
grpc::Status statusOf(const std::exception& e) {
  if (dynamic_cast<const OutsideAllowedRoots*>(&e))
    return {grpc::StatusCode::PERMISSION_DENIED, e.what()};
  if (dynamic_cast<const IoError*>(&e)) return {grpc::StatusCode::UNAVAILABLE, e.what()};
  if (dynamic_cast<const CorruptFile*>(&e)) return {grpc::StatusCode::DATA_LOSS, e.what()};
  if (dynamic_cast<const Unsupported*>(&e)) return {grpc::StatusCode::UNIMPLEMENTED, e.what()};
  if (dynamic_cast<const QueryError*>(&e) || dynamic_cast<const InvalidArgument*>(&e)) {
    return {grpc::StatusCode::INVALID_ARGUMENT, e.what()};
  }
  return {grpc::StatusCode::INTERNAL, e.what()};
}

class Log {
 public:
  explicit Log(std::ostream* out) : out_(out ? out : &std::cerr) {}
  void line(const std::string& text) {
    std::string one = "quarry serve: " + text;
    std::replace(one.begin(), one.end(), '\n', ' ');
    std::lock_guard<std::mutex> lock(mutex_);
    *out_ << one << std::endl;
  }

 private:
  std::ostream* out_;
  std::mutex mutex_;
};

/// The Executes running now, by query id, so that Cancel and shutdown can stop them.
class RunningQueries {
 public:
  using Flag = std::shared_ptr<std::atomic<bool>>;
  /// Returns the new run's cancellation flag; false already unless stopping.
  Flag add(const std::string& queryId) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto flag = std::make_shared<std::atomic<bool>>(stopping_);
    runs_.emplace(queryId, flag);
    return flag;
  }
  void remove(const std::string& queryId, const Flag& flag) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [begin, end] = runs_.equal_range(queryId);
    for (auto it = begin; it != end; ++it) {
      if (it->second == flag) {
        runs_.erase(it);
        return;
      }
    }
  }
  /// Returns how many runs of `queryId` were told to stop.
  size_t cancel(const std::string& queryId) {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t count = 0;
    auto [begin, end] = runs_.equal_range(queryId);
    for (auto it = begin; it != end; ++it, ++count) it->second->store(true);
    return count;
  }
  void cancelAll() {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    for (auto& [id, flag] : runs_) flag->store(true);
  }
  size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return runs_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::multimap<std::string, Flag> runs_;
  bool stopping_ = false;
};

/// One Execute's stream: writes serialized (a ServerWriter is not thread-safe),
/// the first error kept, every driver told to stop once something ends the run.
class ExecuteRun {
 public:
  ExecuteRun(grpc::ServerContext* context, grpc::ServerWriter<proto::ExecuteResponse>* writer,
             RunningQueries::Flag cancelled)
      : context_(context), writer_(writer), cancelled_(std::move(cancelled)) {}

  bool stopping() const { return stop_.load() || cancelled_->load() || context_->IsCancelled(); }

  void fail(grpc::Status status) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = std::move(status);
    stop_ = true;
  }

  /// Sends `page` as one message or, when too large, as several; false once the stream is gone.
  bool sendPage(uint32_t group, const engine::Page& page) {
    proto::ExecuteResponse response;
    response.set_group(group);
    toProto(page, response.mutable_page());
    if (response.ByteSizeLong() > kMaxPageMessageBytes && page.positionCount() > 1) {
      const size_t half = page.positionCount() / 2;
      return sendPage(group, page.slice(0, half)) &&
             sendPage(group, page.slice(half, page.positionCount() - half));
    }
    return write(response);
  }

  /// Commits the group's splits with the warnings of the operators that ran them.
  bool commit(uint32_t group, const std::vector<uint32_t>& splitIds, const engine::Operator& root) {
    proto::ExecuteResponse response;
    response.set_group(group);
    for (uint32_t id : splitIds) response.mutable_commit()->add_split_ids(id);
    std::vector<engine::OperatorStats> stats;
    root.collectStats(stats);
    toProto(engine::mergedWarnings(stats), response.mutable_commit()->mutable_warnings());
    return write(response);
  }

  /// Drains `root` into group `group`, then commits `splitIds`; false when stopped before the
  /// commit.
  bool drain(engine::Operator& root, uint32_t group, const std::vector<uint32_t>& splitIds) {
    while (!stopping()) {
      std::optional<engine::Page> page = root.next();
      if (!page) return commit(group, splitIds, root);
      if (page->positionCount() == 0) continue;
      if (!sendPage(group, *page)) return false;
    }
    return false;
  }

  /// The stream's end: the first error, else CANCELLED when stopped, else OK.
  grpc::Status finish() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_) return *error_;
    if (cancelled_->load()) return {grpc::StatusCode::CANCELLED, "the query was cancelled"};
    if (context_->IsCancelled() || stop_.load())
      return {grpc::StatusCode::CANCELLED, "the client went away"};
    return grpc::Status::OK;
  }

 private:
  bool write(const proto::ExecuteResponse& response) {
    std::lock_guard<std::mutex> lock(writeMutex_);
    if (stop_.load()) return false;
    if (!writer_->Write(response)) {
      stop_ = true;
      return false;
    }
    return true;
  }

  grpc::ServerContext* context_;
  grpc::ServerWriter<proto::ExecuteResponse>* writer_;
  RunningQueries::Flag cancelled_;
  std::atomic<bool> stop_{false};
  std::mutex writeMutex_;
  std::mutex mutex_;
  std::optional<grpc::Status> error_;
};

/// The local splits' files: opened under the allowed roots, each checked as it
/// is opened (AllowedRoots::openLocal), never by a second resolution of its path.
class ConfinedStorage final : public io::StorageProvider {
 public:
  explicit ConfinedStorage(const AllowedRoots& roots) : roots_(roots) {}
  std::unique_ptr<io::StorageObject> open(const std::string& uri) override {
    return roots_.openLocal(uri);
  }

 private:
  const AllowedRoots& roots_;
};

class DataNodeService final : public proto::DataNode::Service {
 public:
  DataNodeService(const DataNodeOptions& options, AllowedRoots roots, Log& log,
                  RunningQueries& running)
      : options_(options),
        roots_(std::move(roots)),
        localStorage_(std::make_shared<ConfinedStorage>(roots_)),
        log_(log),
        running_(running) {}

  grpc::Status Execute(grpc::ServerContext* context, const proto::ExecuteRequest* request,
                       grpc::ServerWriter<proto::ExecuteResponse>* writer) override {
    const auto started = std::chrono::steady_clock::now();
    grpc::Status status = execute(context, *request, writer);
    logCall(context, "Execute", request->query_id(), request->splits_size(), status, started);
    return status;
  }

  grpc::Status Cancel(grpc::ServerContext* context, const proto::CancelRequest* request,
                      proto::CancelResponse*) override {
    const auto started = std::chrono::steady_clock::now();
    grpc::Status status = authenticate(context, "Cancel", request->query_id());
    if (status.ok()) {
      const size_t stopped = running_.cancel(request->query_id());
      log_.line("Cancel query_id=" + printable(request->query_id()) + " stopped " +
                std::to_string(stopped) + " run(s)");
    }
    logCall(context, "Cancel", request->query_id(), 0, status, started);
    return status;
  }

  grpc::Status Health(grpc::ServerContext* context, const proto::HealthRequest*,
                      proto::HealthResponse* response) override {
    const auto started = std::chrono::steady_clock::now();
    grpc::Status status = authenticate(context, "Health", "");
    if (status.ok()) {
      response->set_version(kVersion);
      response->set_threads(static_cast<uint32_t>(options_.threads));
      response->set_running_queries(static_cast<uint32_t>(running_.size()));
    }
    logCall(context, "Health", "", 0, status, started);
    return status;
  }

 private:
  grpc::Status refuse(grpc::ServerContext* context, const char* method, const std::string& queryId,
                      grpc::StatusCode code, const std::string& reason) {
    log_.line(std::string("refused ") + method + " peer=" + printable(context->peer()) +
              " query_id=" + printable(queryId) + " reason=" + reason);
    return {code, reason};
  }

  grpc::Status authenticate(grpc::ServerContext* context, const char* method,
                            const std::string& queryId) {
    const auto& metadata = context->client_metadata();
    auto it = metadata.find(kAuthorizationKey);
    if (it == metadata.end()) {
      return refuse(context, method, queryId, grpc::StatusCode::UNAUTHENTICATED, "no token");
    }
    const std::string_view value(it->second.data(), it->second.size());
    constexpr std::string_view kBearer = "Bearer ";
    const bool bearer = value.substr(0, kBearer.size()) == kBearer;
    if (!bearer || !tokensEqual(value.substr(bearer ? kBearer.size() : 0), options_.token)) {
      return refuse(context, method, queryId, grpc::StatusCode::UNAUTHENTICATED, "wrong token");
    }
    return grpc::Status::OK;
  }

  grpc::Status execute(grpc::ServerContext* context, const proto::ExecuteRequest& request,
                       grpc::ServerWriter<proto::ExecuteResponse>* writer) {
    const std::string& queryId = request.query_id();
    if (grpc::Status status = authenticate(context, "Execute", queryId); !status.ok())
      return status;

    engine::FragmentSpec spec;
    spec.queryText = request.query_text();
    spec.nowMillis = request.now_millis();
    const int requested = static_cast<int>(std::min<uint32_t>(request.threads(), 1024));
    spec.threads = requested > 0 ? std::min(requested, options_.threads) : options_.threads;
    std::vector<uint32_t> ids;
    std::set<uint32_t> seen;
    try {
      spec.schema = fromProto(request.schema());
      spec.parameters = fromProto(request.parameters());
      for (const proto::LookupSchema& lookup : request.lookups()) {
        spec.lookupSchemas[lookup.uri()] = fromProto(lookup.schema());
      }
      for (const proto::Split& split : request.splits()) {
        const std::string& bytes = split.file_split();
        spec.splits.push_back(engine::deserializeFileSplit(std::span<const uint8_t>(
            reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size())));
        if (!seen.insert(split.id()).second)
          throw CorruptFile("split id " + std::to_string(split.id()) + " repeats");
        ids.push_back(split.id());
      }
    } catch (const CorruptFile& e) {
      return refuse(context, "Execute", queryId, grpc::StatusCode::INVALID_ARGUMENT, e.what());
    }
    for (size_t i = 0; i < spec.splits.size(); ++i) {
      if (std::optional<std::string> why = roots_.refusal(spec.splits[i].uri)) {
        return refuse(context, "Execute", queryId, grpc::StatusCode::PERMISSION_DENIED,
                      "split " + std::to_string(ids[i]) + ": " + redact(*why, spec.splits[i].uri));
      }
      if (!io::isRemoteUri(spec.splits[i].uri)) spec.splits[i].storage = localStorage_;
    }
    engine::Fragment fragment;
    try {
      fragment = engine::planFragment(spec);
    } catch (const OutsideAllowedRoots& e) {
      return refuse(context, "Execute", queryId, grpc::StatusCode::PERMISSION_DENIED, e.what());
    } catch (const QueryError& e) {
      return refuse(context, "Execute", queryId, grpc::StatusCode::INVALID_ARGUMENT, e.what());
    } catch (const InvalidArgument& e) {
      return refuse(context, "Execute", queryId, grpc::StatusCode::INVALID_ARGUMENT, e.what());
    }

    RunningQueries::Flag cancelled = running_.add(queryId);
    ExecuteRun run(context, writer, cancelled);
    if (fragment.perSplit) {
      std::atomic<size_t> next{0};
      auto driver = [&] {
        for (size_t i = next++; i < fragment.splits.size() && !run.stopping(); i = next++) {
          try {
            engine::OperatorPtr root = engine::buildOperators(*fragment.plan, &fragment.splits[i]);
            if (!run.drain(*root, ids[i], {ids[i]})) return;
          } catch (const OutsideAllowedRoots& e) {
            run.fail({grpc::StatusCode::PERMISSION_DENIED,
                      "split " + std::to_string(ids[i]) + ": " + e.what()});
            return;
          } catch (const std::exception& e) {
            run.fail(statusOf(e));
            return;
          }
        }
      };
      const size_t threads =
          std::min<size_t>(static_cast<size_t>(spec.threads), fragment.splits.size());
      std::vector<std::thread> drivers;
      for (size_t t = 1; t < threads; ++t) drivers.emplace_back(driver);
      driver();
      for (std::thread& thread : drivers) thread.join();
    } else {
      try {
        engine::OperatorPtr root = engine::buildOperators(*fragment.plan);
        run.drain(*root, 0, ids);
      } catch (const std::exception& e) {
        run.fail(statusOf(e));
      }
    }
    running_.remove(queryId, cancelled);
    return run.finish();
  }

  static std::string redact(const std::string& reason, const std::string& uri) {
    const std::string shown = redactUri(uri);
    std::string out = reason;
    for (size_t at = out.find(uri); at != std::string::npos;
         at = out.find(uri, at + shown.size())) {
      out.replace(at, uri.size(), shown);
    }
    return out;
  }

  void logCall(grpc::ServerContext* context, const char* method, const std::string& queryId,
               int splits, const grpc::Status& status,
               std::chrono::steady_clock::time_point started) {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    char elapsed[32];
    std::snprintf(elapsed, sizeof(elapsed), "%.1f", ms);
    std::string line = std::string(method) + " peer=" + printable(context->peer());
    if (!queryId.empty()) line += " query_id=" + printable(queryId);
    if (splits > 0) line += " splits=" + std::to_string(splits);
    line += std::string(" outcome=") + codeName(status.error_code());
    if (!status.ok() && status.error_code() != grpc::StatusCode::UNAUTHENTICATED) {
      line += " (" + status.error_message() + ")";
    }
    line += std::string(" ms=") + elapsed;
    log_.line(line);
  }

  const DataNodeOptions& options_;
  AllowedRoots roots_;
  std::shared_ptr<io::StorageProvider> localStorage_;
  Log& log_;
  RunningQueries& running_;
};

}  // namespace

struct DataNodeServer::State {
  DataNodeOptions options;
  Log log;
  RunningQueries running;
  std::unique_ptr<DataNodeService> service;
  std::unique_ptr<grpc::Server> server;
  std::shared_ptr<grpc::ServerCredentials> credentials;
  std::once_flag shutdownOnce;

  explicit State(DataNodeOptions o) : options(std::move(o)), log(options.log) {}
};

DataNodeServer::DataNodeServer(DataNodeOptions options)
    : state_(std::make_unique<State>(std::move(options))) {
  const DataNodeOptions& o = state_->options;
  if (o.token.empty()) throw InvalidArgument("a data node needs a token");
  if (const std::string problem = tokenProblem(o.token); !problem.empty())
    throw InvalidArgument("the data node's token " + problem);
  if (o.threads < 1)
    throw InvalidArgument("a data node needs at least one thread, not " +
                          std::to_string(o.threads));
  if (o.tlsCertFile.empty() != o.tlsKeyFile.empty()) {
    throw InvalidArgument("TLS needs both a certificate and a key file");
  }
  if (!o.tlsCertFile.empty()) {
    grpc::SslServerCredentialsOptions ssl;
    ssl.pem_key_cert_pairs.push_back(
        {readPemFile(o.tlsKeyFile, "key"), readPemFile(o.tlsCertFile, "certificate")});
    state_->credentials = grpc::SslServerCredentials(ssl);
  } else {
    state_->credentials = grpc::InsecureServerCredentials();
  }
  state_->service = std::make_unique<DataNodeService>(state_->options, AllowedRoots(o.allowedRoots),
                                                      state_->log, state_->running);
}

DataNodeServer::~DataNodeServer() {
  if (state_->server) shutdown();
}

int DataNodeServer::start() {
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(state_->options.listen, state_->credentials, &port);
  builder.SetMaxReceiveMessageSize(kMaxRequestBytes);
  builder.RegisterService(state_->service.get());
  state_->server = builder.BuildAndStart();
  if (!state_->server || port == 0) {
    state_->server.reset();
    throw IoError("cannot listen on " + state_->options.listen);
  }
  state_->log.line("serving on port " + std::to_string(port) +
                   (state_->options.tlsCertFile.empty() ? "" : " (TLS)") +
                   ", allowed roots: " + std::to_string(state_->options.allowedRoots.size()));
  return port;
}

void DataNodeServer::shutdown() {
  if (!state_->server) return;
  std::call_once(state_->shutdownOnce, [this] {
    state_->running.cancelAll();
    state_->server->Shutdown(std::chrono::system_clock::now() + kShutdownGrace);
  });
}

void DataNodeServer::wait() {
  if (state_->server) state_->server->Wait();
}

}  // namespace quarry::cluster
