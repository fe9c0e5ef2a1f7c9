#pragma once
#include <span>

#include "operators/backend/array.hpp"
#include "parallel/communicator.hpp"

namespace miniapp::parallel {

// Global dot products (thesis §1.5.1): the local reduction on the executor, then one MPI_Allreduce
// for the whole fused group. The vectors hold this rank's owned entries only (a halo would be
// counted twice). Collective.

// Σ over ranks of x · y.
double global_dot(const Communicator& comm, const Executor& exec, const Vector& x, const Vector& y);
// out[i] = Σ over ranks of x[i] · y[i], i < x.size() ≤ max_fused_dots: one local pass, one allreduce.
void global_multi_dot(const Communicator& comm, const Executor& exec, std::span<const Vector* const> x,
                      std::span<const Vector* const> y, std::span<double> out);

}  // namespace miniapp::parallel
