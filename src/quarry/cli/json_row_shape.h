#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

/// The shape of `quarry query`'s JSON rows. The engine reads a struct's leaves
/// as columns with dotted names ("device.os"); `quarry print` writes the struct
/// as an object. So that both commands give one shape, a result column whose
/// name is a dotted path of the source's schema nests:
///
///   columns n, device.os, device.browser  ->  {"n":3,"device":{"os":"ios","browser":"safari"}}
///
/// Other names stay as they are ("AVG(a.b)", "_file.path"). A struct that is
/// null has its leaves null ({"device":{"os":null,...}}): the engine has no null
/// struct. A name whose place is taken (a column "device" beside "device.os")
/// stays flat, so no key appears twice in an object.
namespace quarry::cli {

class JsonRowShape {
 public:
  /// `names`: the result's columns; `isPath(name)`: whether a dotted name is a
  /// path through structs (a source column's name) rather than a plain name.
  JsonRowShape(const std::vector<std::string>& names,
               const std::function<bool(const std::string&)>& isPath);

  /// Appends one row as a JSON object, column c's value appended by
  /// `appendValue(c, out)`.
  template <typename AppendValue>
  void appendRow(AppendValue&& appendValue, std::string& out) const {
    appendObject(top_, appendValue, out);
  }

 private:
  struct Member {
    std::string key;  // already a JSON string, quoted
    int column = -1;  // a leaf: the column; -1: an object of `members`
    std::vector<Member> members;
  };

  template <typename AppendValue>
  static void appendObject(const std::vector<Member>& members, AppendValue& appendValue,
                           std::string& out) {
    out += '{';
    for (size_t i = 0; i < members.size(); ++i) {
      if (i > 0) out += ',';
      out += members[i].key;
      out += ':';
      if (members[i].column >= 0) {
        appendValue(static_cast<size_t>(members[i].column), out);
      } else {
        appendObject(members[i].members, appendValue, out);
      }
    }
    out += '}';
  }

  std::vector<Member> top_;
};

}  // namespace quarry::cli
