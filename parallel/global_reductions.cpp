#include "parallel/global_reductions.hpp"

#include "operators/kernels/dot.hpp"

namespace miniapp::parallel {

double global_dot(const Communicator& comm, const Executor& exec, const Vector& x, const Vector& y) {
  return comm.allreduce(dot(exec, x, y), ReduceOp::sum);
}

void global_multi_dot(const Communicator& comm, const Executor& exec, std::span<const Vector* const> x,
                      std::span<const Vector* const> y, std::span<double> out) {
  multi_dot(exec, x, y, out);
  comm.allreduce(out.first(x.size()), ReduceOp::sum);
}

}  // namespace miniapp::parallel
