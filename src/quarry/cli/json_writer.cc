#include "quarry/cli/json_writer.h"

#include <charconv>
#include <cmath>
#include <stdexcept>


namespace quarry::cli {

void JsonWriter::newline() {
  out_ += '\n';
  out_.append(2 * stack_.size(), ' ');
}

void JsonWriter::beforeValue() {
  if (stack_.empty()) {
    if (wroteRoot_) {
      throw std::logic_error("JsonWriter: a second top-level value");
    }
    wroteRoot_ = true;
    return;
  }
  Frame& frame = stack_.back();
  if (frame.isObject) {
    if (!afterKey_) {
      throw std::logic_error("JsonWriter: an object member without a key");
    }
    afterKey_ = false;
    return;
  }
  if (frame.count > 0) {
    out_ += frame.isInline ? ", " : ",";
  }
  if (!frame.isInline) {
    newline();
  }
  ++frame.count;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  if (stack_.empty() || !stack_.back().isObject || afterKey_) {
    throw std::logic_error("JsonWriter: a key outside an object");
  }
  Frame& frame = stack_.back();
  if (frame.count > 0) {
    out_ += frame.isInline ? ", " : ",";
  }
  if (!frame.isInline) {
    newline();
  }
  ++frame.count;
  appendJsonString(out_, name);
  out_ += ": ";
  afterKey_ = true;
  return *this;
}

void JsonWriter::open(char bracket, bool isObject, bool isInline) {
  beforeValue();
  // Everything inside an inline container stays on its line.
  const bool parentInline = !stack_.empty() && stack_.back().isInline;
  out_ += bracket;
  stack_.push_back(Frame{isObject, isInline || parentInline, 0});
}

void JsonWriter::close(char bracket, bool isObject) {
  if (stack_.empty() || stack_.back().isObject != isObject || afterKey_) {
    throw std::logic_error("JsonWriter: unbalanced close");
  }
  const Frame frame = stack_.back();
  stack_.pop_back();
  if (frame.count > 0 && !frame.isInline) {
    newline();
  }
  out_ += bracket;
  if (stack_.empty()) {
    out_ += '\n';
  }
}

void JsonWriter::beginObject(bool isInline) {
  open('{', true, isInline);
}
void JsonWriter::endObject() {
  close('}', true);
}
void JsonWriter::beginArray(bool isInline) {
  open('[', false, isInline);
}
void JsonWriter::endArray() {
  close(']', false);
}

void JsonWriter::value(std::string_view text) {
  beforeValue();
  appendJsonString(out_, text);
}

void JsonWriter::value(bool flag) {
  beforeValue();
  out_ += flag ? "true" : "false";
}

void JsonWriter::value(double number) {
  // JSON has no NaN or infinities; they become strings a script can test for.
  if (std::isnan(number)) {
    value(std::string_view("NaN"));
    return;
  }
  if (std::isinf(number)) {
    value(std::string_view(number > 0 ? "Infinity" : "-Infinity"));
    return;
  }
  beforeValue();
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), number);
  out_.append(buffer, result.ptr);
}

void JsonWriter::null() {
  beforeValue();
  out_ += "null";
}

void JsonWriter::rawNumber(std::string_view number) {
  beforeValue();
  out_.append(number);
}

void JsonWriter::writeInteger(int64_t number) {
  beforeValue();
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), number);
  out_.append(buffer, result.ptr);
}

void JsonWriter::writeUnsigned(uint64_t number) {
  beforeValue();
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), number);
  out_.append(buffer, result.ptr);
}

}  // namespace quarry::cli
