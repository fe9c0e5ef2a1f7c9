#include "parallel/communicator.hpp"

#include <limits>
#include <new>
#include <vector>

#include "core/host_memory.hpp"

namespace miniapp::parallel {

void throw_mpi_error(int code, const char* call, const char* file, int line) {
  char reason[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, reason, &length) != MPI_SUCCESS) length = 0;
  throw Error(std::string(file) + ":" + std::to_string(line) + ": MPI call " + call + " failed: " +
              std::string(reason, static_cast<std::size_t>(length)));
}

MpiSession::MpiSession(int& argc, char**& argv) {
  int initialized = 0;
  MINIAPP_MPI_CHECK(MPI_Initialized(&initialized));
  if (initialized) throw Error("MpiSession: MPI is already initialised (one session per process, owned by main)");
  int provided = 0;
  // MPI_Init_thread's own failure is fatal under the default handler, so its code is only a formality.
  MINIAPP_MPI_CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided));
  if (provided < MPI_THREAD_FUNNELED) {
    MPI_Finalize();
    throw Error("MpiSession: the MPI library offers no MPI_THREAD_FUNNELED support, which OpenMP kernels need");
  }
}

// MPI_Finalize is collective; a rank that stops early by exception still reaches it, after the
// others have been told through check_collectively.
MpiSession::~MpiSession() { MPI_Finalize(); }

struct Communicator::Handle {
  MPI_Comm comm = MPI_COMM_NULL;
  ~Handle() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

Communicator::Communicator(MPI_Comm parent) : handle_(std::make_shared<Handle>()) {
  MINIAPP_MPI_CHECK(MPI_Comm_dup(parent, &handle_->comm));
  MINIAPP_MPI_CHECK(MPI_Comm_set_errhandler(handle_->comm, MPI_ERRORS_RETURN));
  MINIAPP_MPI_CHECK(MPI_Comm_rank(handle_->comm, &rank_));
  MINIAPP_MPI_CHECK(MPI_Comm_size(handle_->comm, &size_));
}

Communicator Communicator::duplicate() const { return Communicator(get()); }

MPI_Comm Communicator::get() const { return handle_->comm; }

namespace {
MPI_Op to_mpi(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return MPI_SUM;
    case ReduceOp::min: return MPI_MIN;
    case ReduceOp::max: return MPI_MAX;
  }
  throw Error("Communicator: unknown reduction " + std::to_string(static_cast<int>(op)));
}
}  // namespace

void Communicator::allreduce(std::span<double> values, ReduceOp op) const {
  MINIAPP_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE,
                                  to_mpi(op), get()));
}

double Communicator::allreduce(double value, ReduceOp op) const {
  allreduce(std::span<double>(&value, 1), op);
  return value;
}

long long Communicator::allreduce(long long value, ReduceOp op) const {
  MINIAPP_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_LONG_LONG, to_mpi(op), get()));
  return value;
}

void Communicator::broadcast(std::span<int> values, int root) const {
  MINIAPP_MPI_CHECK(MPI_Bcast(values.data(), static_cast<int>(values.size()), MPI_INT, root, get()));
}

void Communicator::broadcast(std::span<double> values, int root) const {
  MINIAPP_MPI_CHECK(MPI_Bcast(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, root, get()));
}

void Communicator::broadcast(std::string& text, int root) const {
  int length = static_cast<int>(text.size());
  MINIAPP_MPI_CHECK(MPI_Bcast(&length, 1, MPI_INT, root, get()));
  text.resize(static_cast<std::size_t>(length));
  MINIAPP_MPI_CHECK(MPI_Bcast(text.data(), length, MPI_CHAR, root, get()));
}

void Communicator::barrier() const { MINIAPP_MPI_CHECK(MPI_Barrier(get())); }

Communicator::NodePlace Communicator::node_place() const {
  MPI_Comm node = MPI_COMM_NULL;
  MINIAPP_MPI_CHECK(MPI_Comm_split_type(get(), MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node));
  NodePlace place;
  const int rank_err = MPI_Comm_rank(node, &place.rank);
  const int size_err = MPI_Comm_size(node, &place.size);
  MPI_Comm_free(&node);
  MINIAPP_MPI_CHECK(rank_err);
  MINIAPP_MPI_CHECK(size_err);
  return place;
}

void Communicator::check_collectively(bool ok, const std::string& message) const {
  // The lowest failing rank, or size() when none failed.
  int first_failed = ok ? size_ : rank_;
  MINIAPP_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &first_failed, 1, MPI_INT, MPI_MIN, get()));
  if (first_failed == size_) return;
  std::string text = message;
  broadcast(text, first_failed);
  // With one rank, naming it says nothing.
  throw CollectiveError(size_ > 1 ? "rank " + std::to_string(first_failed) + ": " + text : text);
}

void Communicator::run_collectively(const std::function<void()>& step) const {
  std::string message;
  bool ok = true;
  try {
    step();
  } catch (const std::bad_alloc&) {
    ok = false;
    message = out_of_host_memory_message();
  } catch (const std::exception& e) {
    ok = false;
    message = e.what();
  }
  check_collectively(ok, message);
}

}  // namespace miniapp::parallel
