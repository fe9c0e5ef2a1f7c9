#pragma once
#include <functional>
#include <memory>
#include <span>
#include <string>

#include <mpi.h>

#include "core/error.hpp"

// MPI is the engine of the multi-rank runs (thesis §1.4.1, §2.4): these are thin checked wrappers,
// nothing home-made replaces it.
namespace miniapp::parallel {

// Throws the Error of a failed MPI call: where (file:line), which call, and MPI's reason.
[[noreturn]] void throw_mpi_error(int code, const char* call, const char* file, int line);

}  // namespace miniapp::parallel

// Every MPI call goes through this (on communicators whose error handler returns codes).
#define MINIAPP_MPI_CHECK(call)                                                           \
  do {                                                                                    \
    const int miniapp_mpi_err_ = (call);                                                  \
    if (miniapp_mpi_err_ != MPI_SUCCESS)                                                  \
      ::miniapp::parallel::throw_mpi_error(miniapp_mpi_err_, #call, __FILE__, __LINE__); \
  } while (0)

namespace miniapp::parallel {

// Owns MPI_Init_thread (MPI_THREAD_FUNNELED: only the main thread calls MPI; OpenMP threads do not)
// and MPI_Finalize. Exactly one, created first in main (or the test main); every Communicator must be
// destroyed before it.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

enum class ReduceOp { sum, min, max };

// An error that every rank of a communicator raises together (from check_collectively): each may stop
// normally, and one of them reports it. Any other Error in a multi-rank run may be one rank's alone.
class CollectiveError : public Error {
 public:
  using Error::Error;
};

// A duplicate of an MPI communicator (so the library's messages never match the caller's), with
// errors returned as codes and turned into miniapp::Error. Copies share the duplicate, which is freed
// with the last copy.
class Communicator {
 public:
  // Collective over `parent`.
  explicit Communicator(MPI_Comm parent = MPI_COMM_WORLD);
  // A fresh duplicate of this one (collective): for a component whose messages must stay its own.
  Communicator duplicate() const;

  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm get() const;

  // values[i] = op over ranks of values[i], in place (collective, one MPI_Allreduce).
  void allreduce(std::span<double> values, ReduceOp op) const;
  double allreduce(double value, ReduceOp op) const;
  long long allreduce(long long value, ReduceOp op) const;
  // Copies `values` (same length on every rank) from `root` to every rank (collective).
  void broadcast(std::span<int> values, int root) const;
  void broadcast(std::span<double> values, int root) const;
  // The string of `root` on every rank (collective; lengths may differ before the call).
  void broadcast(std::string& text, int root) const;
  void barrier() const;
  // This rank's index among the ranks on the same node (MPI_Comm_split_type SHARED), and how many
  // ranks that node runs (collective): which GPU a rank takes.
  struct NodePlace {
    int rank = 0, size = 1;
  };
  NodePlace node_place() const;

  // Collective error check: when any rank passes ok = false, every rank throws CollectiveError with
  // the message of the lowest failing rank, prefixed "rank r: " (on several ranks). One MPI_Allreduce when all are ok,
  // plus one broadcast when not; so no rank waits forever on one that stopped.
  void check_collectively(bool ok, const std::string& message) const;
  // Runs `step` on every rank and then checks collectively: a miniapp::Error (or other std::exception)
  // thrown by `step` on some ranks only becomes the same CollectiveError on all ranks (std::bad_alloc:
  // out_of_host_memory_message). `step` must
  // not call collectives itself (a rank that threw would never join them).
  void run_collectively(const std::function<void()>& step) const;

 private:
  struct Handle;
  std::shared_ptr<Handle> handle_;
  int rank_ = 0, size_ = 1;
};

}  // namespace miniapp::parallel
