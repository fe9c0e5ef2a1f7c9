#include "miniapp/predict/json.hpp"

#include <cstdio>
#include <cstdlib>

#include "miniapp/core/error.hpp"

namespace miniapp::predict {

// Recursive descent over the text, keeping the line number for messages.
class JsonParser {
 public:
  JsonParser(std::string_view text, std::shared_ptr<const std::string> file) : text_(text), file_(std::move(file)) {}

  JsonValue document() {
    JsonValue v = value(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  static constexpr int max_depth = 64;
  std::string_view text_;
  std::shared_ptr<const std::string> file_;
  std::size_t pos_ = 0;
  int line_ = 1;

  [[noreturn]] void fail(const std::string& why) const {
    throw Error(*file_ + ":" + std::to_string(line_) + ": invalid JSON: " + why);
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t' || text_[pos_] == '\r'))
      line_ += text_[pos_++] == '\n';
  }
  char peek() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end of file");
    return text_[pos_];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "', found '" + text_[pos_] + "'");
    ++pos_;
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  JsonValue value(int depth) {
    if (depth > max_depth) fail("nesting deeper than " + std::to_string(max_depth));
    JsonValue v;
    const char c = peek();
    v.line_ = line_;
    v.file_ = file_;
    if (c == '{') object(v, depth);
    else if (c == '[') array(v, depth);
    else if (c == '"') v.type_ = JsonValue::Type::string, v.string_ = string();
    else if (literal("true")) v.type_ = JsonValue::Type::boolean, v.number_ = 1;
    else if (literal("false")) v.type_ = JsonValue::Type::boolean;
    else if (literal("null")) v.type_ = JsonValue::Type::null;
    else v.type_ = JsonValue::Type::number, v.number_ = number();
    return v;
  }

  void object(JsonValue& v, int depth) {
    v.type_ = JsonValue::Type::object;
    v.object_ = std::make_shared<std::map<std::string, JsonValue, std::less<>>>();
    expect('{');
    if (peek() == '}') return void(++pos_);
    do {
      if (peek() != '"') fail("expected a quoted key");
      std::string key = string();
      expect(':');
      (*v.object_)[key] = value(depth + 1);
    } while (peek() == ',' && ++pos_);
    expect('}');
  }

  void array(JsonValue& v, int depth) {
    v.type_ = JsonValue::Type::array;
    expect('[');
    if (peek() == ']') return void(++pos_);
    do v.array_.push_back(value(depth + 1));
    while (peek() == ',' && ++pos_);
    expect(']');
  }

  // Escapes other than \uXXXX outside ASCII are all this program writes.
  std::string string() {
    ++pos_;  // the opening quote
    std::string out;
    while (true) {
      if (pos_ >= text_.size() || text_[pos_] == '\n') fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated string");
      const char e = text_[pos_++];
      if (e == 'n') out += '\n';
      else if (e == 't') out += '\t';
      else if (e == 'r') out += '\r';
      else if (e == 'b') out += '\b';
      else if (e == 'f') out += '\f';
      else if (e == 'u' && pos_ + 4 <= text_.size()) {
        const long code = std::strtol(std::string(text_.substr(pos_, 4)).c_str(), nullptr, 16);
        if (code > 0x7f) fail("\\u escape outside ASCII");
        out += static_cast<char>(code);
        pos_ += 4;
      } else if (e == '"' || e == '\\' || e == '/') out += e;
      else fail(std::string("unknown escape \\") + e);
    }
  }

  double number() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && std::string_view("+-0123456789.eE").find(text_[pos_]) != std::string_view::npos) ++pos_;
    const std::string token(text_.substr(start, pos_ - start));
    char* end = nullptr;
    const double x = std::strtod(token.c_str(), &end);
    if (token.empty() || end != token.c_str() + token.size())
      fail("expected a value, found '" + std::string(text_.substr(start, 12)) + "'");
    return x;
  }
};

JsonValue JsonValue::parse(std::string_view text, const std::string& file) {
  return JsonParser(text, std::make_shared<const std::string>(file)).document();
}

void JsonValue::fail(const std::string& why) const {
  throw Error((file_ ? *file_ : std::string("JSON")) + ":" + std::to_string(line_) + ": " + why);
}

bool JsonValue::has(std::string_view key) const {
  return type_ == Type::object && object_->find(key) != object_->end();
}

const JsonValue& JsonValue::at(std::string_view key) const {
  if (type_ != Type::object) fail("expected an object with key '" + std::string(key) + "'");
  const auto it = object_->find(key);
  if (it == object_->end()) fail("missing key '" + std::string(key) + "'");
  return it->second;
}

double JsonValue::number() const {
  if (type_ != Type::number) fail("expected a number");
  return number_;
}

bool JsonValue::boolean() const {
  if (type_ != Type::boolean) fail("expected true or false");
  return number_ != 0;
}

const std::string& JsonValue::string() const {
  if (type_ != Type::string) fail("expected a string");
  return string_;
}

const std::vector<JsonValue>& JsonValue::array() const {
  if (type_ != Type::array) fail("expected an array");
  return array_;
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (c == '\n') out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += c;
  }
  return out + "\"";
}

}  // namespace miniapp::predict
