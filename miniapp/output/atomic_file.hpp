#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>

namespace miniapp::output {

// Writes `bytes` to `path` so that a crash at any moment leaves `path` with either its old or its new
// content, never a mix: the bytes go to "<path>.tmp", which is fsync'ed and renamed over `path`, then
// the directory is fsync'ed. A stale "<path>.tmp" from an interrupted write is overwritten.
// Throws miniapp::Error naming the file and the failing system call.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

// The two halves of write_file_atomically, for writers that must agree between them (all ranks'
// checkpoint files complete before any replaces its predecessor): write_temporary leaves the bytes,
// fsync'ed, in "<path>.tmp"; commit_temporary renames that over `path` and syncs the directory.
void write_temporary(const std::filesystem::path& path, std::string_view bytes);
// The same of the concatenation of `pieces`, written one after the other without joining them first
// (a checkpoint's arrays are written from where they lie).
void write_temporary(const std::filesystem::path& path, std::span<const std::string_view> pieces);
void commit_temporary(const std::filesystem::path& path);
std::filesystem::path temporary_path(const std::filesystem::path& path);

// 64-bit FNV-1a, fed one 64-bit word at a time (a multiply per word rather than per byte, so hashing
// keeps up with writing; a trailing partial word goes byte by byte). The value depends on how the
// input is split into update() calls, so writers and readers must feed the same pieces.
class Fnv1a64 {
 public:
  void update(const void* data, std::size_t bytes);
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ull;
};

// The value Fnv1a64 gives a whole input fed in one update() call, fed here in pieces of any size (a
// partial word is held until the next piece completes it), so that a file's checksum can be taken
// from its parts where they lie.
class Fnv1a64OfConcatenation {
 public:
  void update(const void* data, std::size_t bytes);
  std::uint64_t value() const;

 private:
  Fnv1a64 words_;        // every whole word so far
  char pending_[8] = {};  // the bytes after them
  std::size_t pending_bytes_ = 0;
};

}  // namespace miniapp::output
