#include "quarry/cluster/remote_exchange.h"

#include <algorithm>
#include <numeric>

#include "quarry/cluster/wire.h"
#include "quarry/common/error.h"

namespace quarry::cluster {

namespace {

/// Refusals and failures another node would repeat: the query fails at once. A
/// corrupt file (DATA_LOSS) or an unsupported feature (UNIMPLEMENTED) fails on
/// every node alike; a storage error (UNAVAILABLE) may not, and is retried.
bool isFinal(const grpc::Status& status) {
  switch (status.error_code()) {
    case grpc::StatusCode::UNAUTHENTICATED:
    case grpc::StatusCode::PERMISSION_DENIED:
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::DATA_LOSS:
    case grpc::StatusCode::UNIMPLEMENTED:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return true;
    default:
      return false;
  }
}

}  // namespace

RemoteExchange::RemoteExchange(RemoteExchangeSpec spec, std::vector<std::shared_ptr<const DataNodeClient>> nodes,
                               std::shared_ptr<RemoteRunStats> runStats)
    : spec_(std::move(spec)), runStats_(runStats ? std::move(runStats) : std::make_shared<RemoteRunStats>()) {
  if (nodes.empty()) throw InvalidArgument("a remote exchange needs at least one data node");
  for (auto& node : nodes) nodes_.push_back({std::move(node)});
  splitCommitted_.assign(spec_.splits.size(), false);
  stats_.name = "RemoteExchange[nodes=" + std::to_string(nodes_.size()) + "]";
}

RemoteExchange::~RemoteExchange() {
  std::vector<std::pair<const DataNodeClient*, std::string>> toCancel;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = true;
    for (const auto& attempt : attempts_) {
      if (attempt->finished) continue;
      attempt->context.TryCancel();
      if (!nodes_[attempt->node].dead) toCancel.emplace_back(nodes_[attempt->node].client.get(), attempt->queryId);
    }
  }
  notFull_.notify_all();
  notEmpty_.notify_all();
  // The streams are cancelled already; Cancel also stops the node's work at once.
  for (const auto& [client, queryId] : toCancel) client->cancel(queryId);
  // No attempt is added once cancelled_ is set, so attempts_ is stable here.
  for (const auto& attempt : attempts_) {
    if (attempt->thread.joinable()) attempt->thread.join();
  }
}

std::vector<std::vector<uint32_t>> RemoteExchange::assign(const std::vector<engine::FileSplit>& splits,
                                                          const std::vector<uint32_t>& ids, size_t nodeCount) {
  std::vector<std::vector<uint32_t>> out(nodeCount);
  if (nodeCount == 0) return out;
  std::vector<uint32_t> order = ids;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return splits[a].length > splits[b].length; });
  std::vector<uint64_t> load(nodeCount, 0);
  for (uint32_t id : order) {
    const size_t node = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    // A split of unknown length (0) still counts, so that such splits spread too.
    load[node] += std::max<uint64_t>(splits[id].length, 1);
    out[node].push_back(id);
  }
  for (auto& list : out) std::sort(list.begin(), list.end());
  return out;
}

void RemoteExchange::start() {
  std::lock_guard<std::mutex> lock(mutex_);
  started_ = true;
  std::vector<uint32_t> ids(spec_.splits.size());
  std::iota(ids.begin(), ids.end(), 0u);
  launch(ids);
}

void RemoteExchange::launch(const std::vector<uint32_t>& splits) {
  if (cancelled_ || failure_ || splits.empty()) return;
  std::vector<size_t> live;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (!nodes_[i].dead) live.push_back(i);
  }
  if (live.empty()) {
    std::vector<uint32_t> uncommitted;  // this attempt's, and those of attempts still running elsewhere
    for (uint32_t id = 0; id < splitCommitted_.size(); ++id) {
      if (!splitCommitted_[id]) uncommitted.push_back(id);
    }
    failure_ = std::make_exception_ptr(IoError("no live data node left to run " + describeSplits(uncommitted) +
                                               "; last error: " + lastError_));
    return;
  }
  const std::vector<std::vector<uint32_t>> assignment = assign(spec_.splits, splits, live.size());
  for (size_t k = 0; k < live.size(); ++k) {
    if (assignment[k].empty()) continue;
    auto attempt = std::make_unique<Attempt>();
    attempt->queryId = spec_.queryId + "-" + std::to_string(attempts_.size());
    attempt->node = live[k];
    attempt->splits = assignment[k];
    nodes_[live[k]].client->prepareExecute(attempt->context, spec_.deadline);
    Attempt* raw = attempt.get();
    attempts_.push_back(std::move(attempt));
    ++runningAttempts_;
    raw->thread = std::thread([this, raw] { runAttempt(raw); });
  }
}

grpc::Status RemoteExchange::stream(Attempt& attempt, std::set<uint32_t>& committed) {
  const DataNodeClient& client = *nodes_[attempt.node].client;  // nodes_ never resizes
  proto::ExecuteRequest request;
  request.set_query_id(attempt.queryId);
  request.set_query_text(spec_.queryText);
  request.set_now_millis(spec_.nowMillis);
  toProto(spec_.parameters, request.mutable_parameters());
  toProto(spec_.sourceSchema, request.mutable_schema());
  for (const auto& [uri, schema] : spec_.lookupSchemas) {
    proto::LookupSchema* lookup = request.add_lookups();
    lookup->set_uri(uri);
    toProto(schema, lookup->mutable_schema());
  }
  for (uint32_t id : attempt.splits) {
    proto::Split* split = request.add_splits();
    split->set_id(id);
    const std::vector<uint8_t> bytes = engine::serialize(spec_.splits[id]);
    split->set_file_split(std::string(bytes.begin(), bytes.end()));
  }
  request.set_threads(spec_.threads);
  std::unique_ptr<grpc::ClientReader<proto::ExecuteResponse>> reader = client.execute(attempt.context, request);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    attempt.started = true;
    if (cancelled_) attempt.context.TryCancel();
  }
  std::map<uint32_t, std::vector<engine::Page>> groups;
  proto::ExecuteResponse response;
  try {
    while (reader->Read(&response)) {
      if (response.has_page()) {
        engine::Page page = fromProto(response.page(), spec_.inputSchema);
        if (page.positionCount() > 0) groups[response.group()].push_back(std::move(page));
      } else if (response.has_commit()) {
        std::vector<uint32_t> ids(response.commit().split_ids().begin(), response.commit().split_ids().end());
        for (uint32_t id : ids) {
          if (!std::binary_search(attempt.splits.begin(), attempt.splits.end(), id) || committed.count(id)) {
            throw CorruptFile("data node " + client.address() + " committed split " + std::to_string(id) +
                              " it was not running (group " + std::to_string(response.group()) + ")");
          }
          committed.insert(id);
        }
        std::vector<engine::Page> pages;
        if (auto it = groups.find(response.group()); it != groups.end()) {
          pages = std::move(it->second);
          groups.erase(it);
        }
        {
          std::lock_guard<std::mutex> lock(mutex_);
          for (uint32_t id : ids) splitCommitted_[id] = true;
          nodes_[attempt.node].splitsCommitted += ids.size();
          if (spec_.metrics != nullptr) spec_.metrics->splits += ids.size();
          stats_.warnings.merge(fromProto(response.commit().warnings()));
        }
        deliver(std::move(pages), attempt.node);
      } else {
        throw CorruptFile("data node " + client.address() + " sent a response with neither a page nor a commit");
      }
    }
  } catch (...) {
    attempt.context.TryCancel();
    (void)reader->Finish();
    throw;
  }
  return reader->Finish();
}

void RemoteExchange::runAttempt(Attempt* attempt) {
  std::set<uint32_t> committed;
  std::string error;
  bool final = false;
  try {
    const grpc::Status status = stream(*attempt, committed);
    if (!status.ok()) {
      error = describeStatus(status);
      final = isFinal(status);
    } else if (committed.size() != attempt->splits.size()) {
      error = "its stream ended with " + std::to_string(attempt->splits.size() - committed.size()) +
              " splits uncommitted";
    }
  } catch (const std::exception& e) {
    error = e.what();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  attempt->finished = true;
  --runningAttempts_;
  if (!error.empty() && !cancelled_ && !failure_) {
    NodeState& node = nodes_[attempt->node];
    lastError_ = "data node " + node.client->address() + ": " + error;
    if (final) {
      failure_ = std::make_exception_ptr(IoError(lastError_));
    } else {
      if (!node.dead) ++runStats_->nodesFailed;
      node.dead = true;
      std::vector<uint32_t> rerun;
      for (uint32_t id : attempt->splits) {
        if (!committed.count(id)) rerun.push_back(id);
      }
      runStats_->splitsRetried += rerun.size();
      launch(rerun);
    }
  }
  notEmpty_.notify_all();
  notFull_.notify_all();  // a failure releases readers blocked on the full queue
}

void RemoteExchange::deliver(std::vector<engine::Page> pages, size_t node) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (engine::Page& page : pages) {
    notFull_.wait(lock, [this] { return cancelled_ || failure_ || queue_.size() < spec_.maxQueuedPages; });
    if (cancelled_ || failure_) return;
    nodes_[node].rows += page.positionCount();
    ++nodes_[node].pages;
    queue_.push_back(std::move(page));
    notEmpty_.notify_one();
  }
}

std::optional<engine::Page> RemoteExchange::next() {
  const auto begin = std::chrono::steady_clock::now();
  if (!started_) start();
  std::unique_lock<std::mutex> lock(mutex_);
  notEmpty_.wait(lock, [this] { return failure_ || !queue_.empty() || runningAttempts_ == 0; });
  std::optional<engine::Page> out;
  if (failure_) {
    notFull_.notify_all();
    std::rethrow_exception(failure_);
  }
  if (!queue_.empty()) {
    out = std::move(queue_.front());
    queue_.pop_front();
    notFull_.notify_one();
    ++stats_.pagesOut;
    stats_.rowsOut += out->positionCount();
  } else {
    std::vector<uint32_t> missing;
    for (uint32_t id = 0; id < splitCommitted_.size(); ++id) {
      if (!splitCommitted_[id]) missing.push_back(id);
    }
    if (!missing.empty()) throw Error("the data nodes ended without committing " + describeSplits(missing));
  }
  stats_.nanos += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - begin)
                      .count();
  return out;
}

void RemoteExchange::collectStats(std::vector<engine::OperatorStats>& out) const {
  std::lock_guard<std::mutex> lock(mutex_);
  out.push_back(stats_);
  for (const NodeState& node : nodes_) {
    engine::OperatorStats entry;
    entry.name = "DataNode[" + node.client->address() + ", splits=" + std::to_string(node.splitsCommitted) +
                 (node.dead ? ", failed" : "") + "]";
    entry.rowsOut = node.rows;
    entry.pagesOut = node.pages;
    out.push_back(std::move(entry));
  }
}

std::string RemoteExchange::describeSplits(const std::vector<uint32_t>& ids) const {
  constexpr size_t kShown = 4;
  std::string out = ids.size() == 1 ? "split " : std::to_string(ids.size()) + " splits (";
  for (size_t i = 0; i < ids.size() && i < kShown; ++i) {
    const engine::FileSplit& split = spec_.splits[ids[i]];
    if (i > 0) out += ", ";
    out += split.uri + " bytes " + std::to_string(split.start) + "+" + std::to_string(split.length);
  }
  if (ids.size() > kShown) out += ", and " + std::to_string(ids.size() - kShown) + " more";
  if (ids.size() != 1) out += ")";
  return out;
}

}  // namespace quarry::cluster
