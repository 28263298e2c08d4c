#include "quarry/engine/expr/warnings.h"

#include <algorithm>
#include <tuple>

namespace quarry::engine {

namespace {

bool before(const Warnings::Entry& entry, int line, int column, const std::string& expression) {
  return std::tie(entry.line, entry.column, entry.expression) < std::tie(line, column, expression);
}

std::string locationText(int line, int column) {
  return "Line " + std::to_string(line) + ":" + std::to_string(column) + ": ";
}

}  // namespace

const Warnings::Entry* Warnings::find(const WarningSite& site) const {
  for (const Entry& entry : entries_) {
    if (entry.line == site.line && entry.column == site.column &&
        entry.expression == site.expression) {
      return &entry;
    }
  }
  return nullptr;
}

Warnings::Entry& Warnings::entryFor(int line, int column, const std::string& expression) {
  // Few expressions fail in a query: a sorted vector searched from the start.
  auto it = entries_.begin();
  while (it != entries_.end() && before(*it, line, column, expression)) ++it;
  if (it != entries_.end() && it->line == line && it->column == column &&
      it->expression == expression) {
    return *it;
  }
  return *entries_.insert(it, Entry{line, column, expression, 0, 0, {}});
}

size_t Warnings::wanted(const WarningSite& site) const {
  const Entry* entry = find(site);
  return entry == nullptr ? kMaxRecorded : kMaxRecorded - entry->recorded;
}

void Warnings::add(const WarningSite& site, uint64_t failures,
                   const std::vector<std::string>& messages) {
  add(Entry{site.line, site.column, site.expression, failures, messages.size(), messages});
}

void Warnings::add(const Entry& other) {
  Entry& entry = entryFor(other.line, other.column, other.expression);
  entry.failures += other.failures;
  const uint64_t room = kMaxRecorded - entry.recorded;
  entry.recorded += std::min(room, other.recorded);
  for (const std::string& message : other.messages) {
    if (entry.messages.size() >= kMaxRecorded) break;
    if (std::find(entry.messages.begin(), entry.messages.end(), message) == entry.messages.end()) {
      entry.messages.push_back(message);
    }
  }
}

void Warnings::merge(const Warnings& other) {
  for (const Entry& entry : other.entries_) add(entry);
}

std::vector<std::string> Warnings::lines() const {
  std::vector<std::string> out;
  for (const Entry& entry : entries_) {
    const std::string at = locationText(entry.line, entry.column);
    out.push_back(at + "evaluation of [" + entry.expression +
                  "] failed, treating result as null. Only first " + std::to_string(kMaxRecorded) +
                  " failures recorded.");
    for (const std::string& message : entry.messages) out.push_back(at + message);
  }
  return out;
}

}  // namespace quarry::engine
