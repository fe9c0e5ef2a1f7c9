#pragma once
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

// A small JSON reader for the files this program writes itself (the calibration file): objects,
// arrays, strings, numbers, true/false/null. Every error names the file and the line.
namespace miniapp::predict {

class JsonValue {
 public:
  enum class Type { null, boolean, number, string, array, object };

  Type type() const { return type_; }
  int line() const { return line_; }  // where the value starts in its file (1-based)

  // The member `key` of an object; throws "FILE:LINE: missing key 'KEY'" when absent or not an object.
  const JsonValue& at(std::string_view key) const;
  bool has(std::string_view key) const;
  // Typed access; each throws "FILE:LINE: expected a number (a string, ...)" on a type mismatch.
  double number() const;
  bool boolean() const;
  const std::string& string() const;
  const std::vector<JsonValue>& array() const;

  // Parses `text` (the contents of `file`, named in errors). Throws miniapp::Error on a syntax error.
  static JsonValue parse(std::string_view text, const std::string& file);

 private:
  friend class JsonParser;
  Type type_ = Type::null;
  int line_ = 0;
  double number_ = 0;
  std::string string_;
  std::vector<JsonValue> array_;
  std::shared_ptr<std::map<std::string, JsonValue, std::less<>>> object_;
  std::shared_ptr<const std::string> file_;
  [[noreturn]] void fail(const std::string& why) const;
};

// `text` as a JSON string literal, quotes included, with ", \ and control characters escaped.
std::string json_string(std::string_view text);

}  // namespace miniapp::predict
