#include "mesh/gmsh_scanner.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>

#include "core/error.hpp"

namespace miniapp::mesh::gmsh {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

// A piece of the file fit for an error message: printable, at most 40 characters.
std::string quoted(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 40)) out += (c >= 32 && c < 127) ? c : '?';
  if (text.size() > 40) out += "...";
  return "'" + out + "'";
}

}  // namespace

Scanner::Scanner(std::string path, std::string data) : path_(std::move(path)), data_(std::move(data)) {}

void Scanner::fail(const std::string& what) const {
  std::string where;
  if (binary_) {
    where = "byte " + std::to_string(record_pos_);
  } else {
    const auto end = data_.begin() + static_cast<std::ptrdiff_t>(std::min(record_pos_, data_.size()));
    where = "line " + std::to_string(1 + std::count(data_.begin(), end, '\n'));
  }
  throw file_error(path_, where + ": " + (section_.empty() ? "" : section_ + ": ") + what);
}

void Scanner::start_binary_file(int size_bytes) {
  if (size_bytes != 4 && size_bytes != 8)
    fail("binary data-size " + std::to_string(size_bytes) + " is not supported (need 4 or 8)");
  binary_file_ = binary_ = true;
  size_bytes_ = size_bytes;
  record_pos_ = pos_;
  const char* p = take_bytes(4, "endianness check");
  if (p[0] == 1 && p[1] == 0 && p[2] == 0 && p[3] == 0) {
    swap_bytes_ = false;
  } else if (p[0] == 0 && p[1] == 0 && p[2] == 0 && p[3] == 1) {
    swap_bytes_ = true;
  } else {
    fail("binary endianness check: expected the integer 1, found " + quoted({p, 4}));
  }
  binary_ = false;
}

std::string_view Scanner::next_line() {
  record_pos_ = pos_;
  if (pos_ >= data_.size()) fail("unexpected end of file (truncated file?)");
  std::size_t end = data_.find('\n', pos_);
  if (end == std::string::npos) end = data_.size();
  std::string_view line(data_.data() + pos_, end - pos_);
  pos_ = std::min(end + 1, data_.size());
  while (!line.empty() && is_space(line.back())) line.remove_suffix(1);
  return line;
}

bool Scanner::at_end() {
  while (pos_ < data_.size() && is_space(data_[pos_])) ++pos_;
  return pos_ >= data_.size();
}

void Scanner::skip_section(std::string_view name) {
  const std::string end_tag = "\n$End" + std::string(name);
  std::size_t at = pos_ == 0 ? 0 : pos_ - 1;  // the tag may follow the header line directly
  while (true) {
    at = data_.find(end_tag, at);
    if (at == std::string::npos)
      fail("no " + end_tag.substr(1) + ": the file ends inside $" + std::string(name) + " (truncated file?)");
    const std::size_t after = at + end_tag.size();
    if (after == data_.size() || is_space(data_[after])) break;
    at = after;  // a longer tag such as $EndNodeDataX: keep looking
  }
  pos_ = at + 1;
  next_line();
}

void Scanner::expect_end(std::string_view name) {
  at_end();
  const std::string_view line = next_line();
  if (line != "$End" + std::string(name))
    fail("expected $End" + std::string(name) + ", found " + quoted(line) + " (counts do not match the data?)");
}

void Scanner::begin_record(std::size_t expected) {
  tokens_.clear();
  next_token_ = 0;
  expected_tokens_ = expected;
  if (binary_) {
    record_pos_ = pos_;
    return;
  }
  const std::string_view line = next_line();
  for (std::size_t i = 0; i < line.size();) {
    if (is_space(line[i])) {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    if (line[i] == '"') {
      end = line.find('"', i + 1);
      end = end == std::string_view::npos ? line.size() : end + 1;
    } else {
      while (end < line.size() && !is_space(line[end])) ++end;
    }
    tokens_.push_back(line.substr(i, end - i));
    i = end;
  }
  if (expected != 0 && tokens_.size() != expected)
    fail("expected " + std::to_string(expected) + " numbers, found " + std::to_string(tokens_.size()));
}

void Scanner::end_record() {
  if (!binary_ && next_token_ != tokens_.size())
    fail("expected " + std::to_string(next_token_) + " numbers, found " + std::to_string(tokens_.size()));
}

std::string_view Scanner::next_token(const char* kind) {
  if (next_token_ >= tokens_.size())
    fail("line ends after " + std::to_string(tokens_.size()) + " numbers; expected another " + kind);
  return tokens_[next_token_++];
}

const char* Scanner::take_bytes(std::size_t n, const char* kind) {
  if (n > data_.size() - pos_)
    fail(std::string("unexpected end of file while reading ") + kind + " (truncated file?)");
  const char* p = data_.data() + pos_;
  pos_ += n;
  return p;
}

std::uint64_t Scanner::read_unsigned(std::size_t n, const char* kind) {
  const auto* p = reinterpret_cast<const unsigned char*>(take_bytes(n, kind));
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t byte = swap_bytes_ ? i : n - 1 - i;  // most significant byte first
    value = (value << 8) | p[byte];
  }
  return value;
}

std::int64_t Scanner::get_int() {
  if (binary_) return static_cast<std::int32_t>(static_cast<std::uint32_t>(read_unsigned(4, "an integer")));
  const std::string_view token = next_token("integer");
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size() || value < INT32_MIN || value > INT32_MAX)
    fail("expected an integer, found " + quoted(token));
  return value;
}

std::uint64_t Scanner::get_size() {
  if (binary_) return read_unsigned(static_cast<std::size_t>(size_bytes_), "a size");
  const std::string_view token = next_token("non-negative integer");
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size())
    fail("expected a non-negative integer, found " + quoted(token));
  return value;
}

double Scanner::get_double() {
  double value = 0;
  if (binary_) {
    value = std::bit_cast<double>(read_unsigned(8, "a real number"));
  } else {
    std::string_view token = next_token("real number");
    const std::string_view digits = token.starts_with('+') ? token.substr(1) : token;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size()) fail("expected a real number, found " + quoted(token));
  }
  if (!std::isfinite(value)) fail("non-finite real number");
  return value;
}

std::string Scanner::get_string() {
  const std::string_view token = next_token("quoted name");
  if (token.size() < 2 || token.front() != '"' || token.back() != '"')
    fail("expected a quoted name, found " + quoted(token));
  return std::string(token.substr(1, token.size() - 2));
}

void Scanner::check_count(std::uint64_t count, std::size_t binary_bytes, std::size_t numbers, const std::string& what) {
  const std::size_t per_item = std::max<std::size_t>(1, binary_ ? binary_bytes : 2 * numbers);
  const std::size_t left = data_.size() - pos_;
  if (count > left / per_item)
    fail(what + " count " + std::to_string(count) + " cannot fit in the " + std::to_string(left) +
         " bytes left in the file (truncated or corrupt file?)");
}

void Scanner::check_fields(std::uint64_t count, std::size_t binary_bytes, const std::string& what) {
  const std::size_t left = binary_ ? (data_.size() - pos_) / binary_bytes : tokens_.size() - next_token_;
  if (count > left)
    fail(what + " count " + std::to_string(count) + " exceeds the " + std::to_string(left) +
         (binary_ ? " fields left in the file" : " numbers left on the line"));
}

}  // namespace miniapp::mesh::gmsh
