#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

/// ES|QL's warnings: where a function cannot give a value for a row (to_integer
/// of "abc", sqrt of -1, a division by zero) the row gets null and the response a
/// warning naming the expression, at most 20 failures' messages each:
///
///   Line 1:27: evaluation of [to_integer(s)] failed, treating result as null. Only first 20
///   failures recorded. Line 1:27: Cannot parse number [abc]
///
/// The binder marks each expression that can fail with a WarningSite; the
/// evaluator counts its failures into a Warnings, describing only the first 20
/// (nothing is formatted for a row that does not fail, and nothing at all once 20
/// are recorded). Every driver fills its own Warnings (no lock); they merge in
/// the exchange, on the coordinator, into the query's.
namespace quarry::engine {

/// Where an expression that can fail was written, and its text: the subject of
/// its warnings. Shared by the bound expression and every Warnings naming it.
struct WarningSite {
  int line = 1;
  int column = 1;
  std::string expression;  // canonical text (parse/query_printer.h)
};

class Warnings {
 public:
  /// The failures described per expression, as ES|QL records them.
  static constexpr size_t kMaxRecorded = 20;

  /// The failures of one expression.
  struct Entry {
    int line = 1;
    int column = 1;
    std::string expression;
    uint64_t failures = 0;  // every failing row
    uint64_t recorded = 0;  // failures described, at most kMaxRecorded
    /// The recorded failures' messages, each once, in the order first seen.
    std::vector<std::string> messages;
  };

  /// Returns how many more failures of `site` are to be described (0 once
  /// kMaxRecorded are).
  size_t wanted(const WarningSite& site) const;
  /// Counts `failures` rows of `site` that failed, `messages` describing the
  /// first of them (at most wanted(site)).
  void add(const WarningSite& site, uint64_t failures, const std::vector<std::string>& messages);
  /// Adds `other`'s failures: counts add, messages join up to kMaxRecorded.
  void merge(const Warnings& other);
  void add(const Entry& entry);

  bool empty() const { return entries_.empty(); }
  /// The expressions that failed, in the order of the query text (line, column).
  const std::vector<Entry>& entries() const { return entries_; }
  /// Returns ES|QL's warning lines: per expression "Line 1:27: evaluation of
  /// [to_integer(s)] failed, treating result as null. Only first 20 failures
  /// recorded." and then "Line 1:27: " and each message.
  std::vector<std::string> lines() const;

 private:
  Entry& entryFor(int line, int column, const std::string& expression);
  const Entry* find(const WarningSite& site) const;

  std::vector<Entry> entries_;  // sorted by (line, column, expression)
};

}  // namespace quarry::engine
