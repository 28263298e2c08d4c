#pragma once

#include <cstddef>
#include <iterator>
#include <vector>

#include "quarry/engine/data/block.h"

/// The argument blocks of a scalar function call, borrowed: a column argument is
/// the page's own block, not a copy of it (LENGTH(URL) copied every URL of every
/// page before reading their lengths). Indexes and iterates as a vector of blocks.
namespace quarry::engine {

class CallArgs {
 public:
  CallArgs() = default;
  /// Borrows each block of `blocks`, which must outlive this.
  CallArgs(const std::vector<Block>& blocks) {  // NOLINT(google-explicit-constructor)
    blocks_.reserve(blocks.size());
    for (const Block& block : blocks) blocks_.push_back(&block);
  }

  /// Appends `block`, which must outlive this.
  void push_back(const Block& block) { blocks_.push_back(&block); }
  void reserve(size_t count) { blocks_.reserve(count); }

  const Block& operator[](size_t i) const { return *blocks_[i]; }
  size_t size() const { return blocks_.size(); }
  bool empty() const { return blocks_.empty(); }
  const Block& front() const { return *blocks_.front(); }
  const Block& back() const { return *blocks_.back(); }

  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Block;
    using difference_type = std::ptrdiff_t;
    using pointer = const Block*;
    using reference = const Block&;

    Iterator() = default;
    explicit Iterator(const Block* const* at) : at_(at) {}
    const Block& operator*() const { return **at_; }
    const Block* operator->() const { return *at_; }
    Iterator& operator++() {
      ++at_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++at_;
      return before;
    }
    bool operator==(const Iterator& other) const = default;

   private:
    const Block* const* at_ = nullptr;
  };
  Iterator begin() const { return Iterator(blocks_.data()); }
  Iterator end() const { return Iterator(blocks_.data() + blocks_.size()); }

 private:
  std::vector<const Block*> blocks_;
};

}  // namespace quarry::engine
