#include "quarry/cli/parameter_arguments.h"

#include <cctype>
#include <charconv>
#include <cmath>

namespace quarry::cli {

namespace {

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) {
      return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

/// The length of a leading `name=`'s name, or 0.
size_t nameLength(std::string_view argument) {
  const auto start = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  };
  const auto part = [&](char c) { return start(c) || (c >= '0' && c <= '9'); };
  if (argument.empty() || !start(argument[0])) return 0;
  size_t i = 1;
  while (i < argument.size() && part(argument[i])) ++i;
  return i < argument.size() && argument[i] == '=' ? i : 0;
}

}  // namespace

engine::ParameterValue parameterValue(std::string_view text) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    return std::string(text.substr(1, text.size() - 2));
  }
  if (equalsIgnoringCase(text, "null")) return engine::NullParameter{};
  if (equalsIgnoringCase(text, "true")) return true;
  if (equalsIgnoringCase(text, "false")) return false;
  const char* first = text.data();
  const char* last = first + text.size();
  // A number starts with a digit, a sign or a point: "inf" and "nan" stay strings.
  const bool numeric = !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) ||
                                         text[0] == '-' || text[0] == '.');
  if (numeric) {
    int64_t integer = 0;
    if (auto [end, error] = std::from_chars(first, last, integer);
        error == std::errc() && end == last) {
      return integer;
    }
    double number = 0;
    if (auto [end, error] = std::from_chars(first, last, number);
        error == std::errc() && end == last && std::isfinite(number)) {
      return number;
    }
  }
  return std::string(text);
}

engine::QueryParameters parameterArguments(const std::vector<std::string>& arguments) {
  engine::QueryParameters out;
  int position = 0;
  for (const std::string& argument : arguments) {
    const size_t name = nameLength(argument);
    if (name > 0) {
      out.push_back(
          {argument.substr(0, name), parameterValue(std::string_view(argument).substr(name + 1))});
    } else {
      out.push_back({std::to_string(++position), parameterValue(argument)});
    }
  }
  return out;
}

}  // namespace quarry::cli
