#include "miniapp/output/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "core/error.hpp"

namespace miniapp::output {
namespace {

Error system_error(const std::filesystem::path& path, const char* call) {
  return file_error(path.string(), std::string(call) + " failed: " + std::strerror(errno));
}

// Opens, fully writes (the pieces in order), fsyncs and closes `path`; the descriptor is closed on
// every path out.
void write_and_sync(const std::filesystem::path& path, std::span<const std::string_view> pieces) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw system_error(path, "open");
  for (const std::string_view bytes : pieces) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const Error error = system_error(path, "write");
        ::close(fd);
        throw error;
      }
      done += static_cast<std::size_t>(n);
    }
  }
  if (::fsync(fd) != 0) {
    const Error error = system_error(path, "fsync");
    ::close(fd);
    throw error;
  }
  if (::close(fd) != 0) throw system_error(path, "close");
}

// Makes the rename itself durable; a directory that cannot be opened (unusual file systems) only
// loses that guarantee, not the atomicity.
void sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

std::filesystem::path temporary_path(const std::filesystem::path& path) {
  std::filesystem::path temp = path;
  temp += ".tmp";
  return temp;
}

void write_temporary(const std::filesystem::path& path, std::string_view bytes) {
  write_temporary(path, std::span(&bytes, 1));
}

void write_temporary(const std::filesystem::path& path, std::span<const std::string_view> pieces) {
  write_and_sync(temporary_path(path), pieces);
}

void commit_temporary(const std::filesystem::path& path) {
  if (std::rename(temporary_path(path).c_str(), path.c_str()) != 0) throw system_error(path, "rename from .tmp");
  sync_directory(path.parent_path());
}

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  write_temporary(path, bytes);
  commit_temporary(path);
}

void Fnv1a64::update(const void* data, std::size_t bytes) {
  constexpr std::uint64_t prime = 1099511628211ull;
  const auto* p = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, p + i, 8);
    hash_ = (hash_ ^ word) * prime;
  }
  for (; i < bytes; ++i) hash_ = (hash_ ^ p[i]) * prime;
}

void Fnv1a64OfConcatenation::update(const void* data, std::size_t bytes) {
  if (bytes == 0) return;
  const auto* p = static_cast<const char*>(data);
  if (pending_bytes_ > 0) {
    const std::size_t taken = std::min(bytes, sizeof(pending_) - pending_bytes_);
    std::memcpy(pending_ + pending_bytes_, p, taken);
    pending_bytes_ += taken;
    p += taken;
    bytes -= taken;
    if (pending_bytes_ < sizeof(pending_)) return;
    words_.update(pending_, sizeof(pending_));
    pending_bytes_ = 0;
  }
  const std::size_t whole = bytes / 8 * 8;
  words_.update(p, whole);
  pending_bytes_ = bytes - whole;
  if (pending_bytes_ > 0) std::memcpy(pending_, p + whole, pending_bytes_);
}

std::uint64_t Fnv1a64OfConcatenation::value() const {
  Fnv1a64 last = words_;
  last.update(pending_, pending_bytes_);  // fewer than 8: byte by byte, as the trailing bytes of one call
  return last.value();
}

}  // namespace miniapp::output
