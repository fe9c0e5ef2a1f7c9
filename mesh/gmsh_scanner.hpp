#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace miniapp::mesh::gmsh {

// Reads the fields of a Gmsh .msh 4.1 file held in memory, ASCII or binary, and words every failure
// as "<path>: line L: <section>: <what>" (ASCII) or "<path>: byte B: <section>: <what>" (binary).
//
// ASCII records are lines of whitespace-separated tokens (a quoted string is one token); binary
// records are packed fields: int = 4 bytes, size = the file's data-size, double = 8 bytes, in the
// byte order found by the endianness check of $MeshFormat. Never reads past the end of the data.
class Scanner {
 public:
  Scanner(std::string path, std::string data);

  const std::string& path() const { return path_; }
  // The section named in error messages, e.g. "$Nodes".
  void set_section(std::string section) { section_ = std::move(section); }
  // Switches between ASCII and binary data (binary applies inside $Entities, $Nodes, $Elements).
  void set_binary(bool binary) { binary_ = binary && binary_file_; }
  // Declares the file binary with size fields of `size_bytes` (4 or 8) bytes; reads the endianness
  // check int that follows the $MeshFormat line.
  void start_binary_file(int size_bytes);

  // The next line, without its end-of-line characters; fails at the end of the data.
  std::string_view next_line();
  // Skips blank lines; true at the end of the data.
  bool at_end();
  // Skips everything up to and including the line "$End<name>" (for sections this reader ignores).
  void skip_section(std::string_view name);
  // Skips whitespace, then requires the line "$End<name>".
  void expect_end(std::string_view name);

  // Starts a record: in ASCII reads the next line and, unless `expected` is 0 (variable length),
  // requires exactly `expected` tokens; no-op in binary.
  void begin_record(std::size_t expected);
  // Ends a record: in ASCII requires that every token was read.
  void end_record();
  std::int64_t get_int();
  std::uint64_t get_size();
  double get_double();
  // A quoted string token (ASCII only: $PhysicalNames is ASCII in binary files too).
  std::string get_string();

  // Fails unless `count` records of at least `binary_bytes` bytes (binary) or `numbers` tokens
  // (ASCII, at least two bytes each) fit in what is left of the data: bounds every allocation.
  void check_count(std::uint64_t count, std::size_t binary_bytes, std::size_t numbers, const std::string& what);
  // Fails unless `count` more fields of `binary_bytes` bytes each (binary) or tokens (ASCII) are left
  // in the current record.
  void check_fields(std::uint64_t count, std::size_t binary_bytes, const std::string& what);
  int size_bytes() const { return size_bytes_; }

  // Throws miniapp::Error located at the current record.
  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::string_view next_token(const char* kind);
  const char* take_bytes(std::size_t n, const char* kind);
  std::uint64_t read_unsigned(std::size_t n, const char* kind);

  std::string path_, data_, section_;
  std::size_t pos_ = 0;          // next unread byte
  std::size_t record_pos_ = 0;   // start of the current record, for error locations
  bool binary_file_ = false, binary_ = false, swap_bytes_ = false;
  int size_bytes_ = 8;
  std::vector<std::string_view> tokens_;
  std::size_t next_token_ = 0;
  std::size_t expected_tokens_ = 0;
};

}  // namespace miniapp::mesh::gmsh
