#pragma once
#include <span>

#include "operators/backend/array.hpp"
#include "operators/backend/kernel_types.hpp"

namespace miniapp {

// x · y. Synchronous: the result is on the host when it returns. Local to this rank (the global
// reduction over ranks is the caller's, see the multi-GPU layer).
double dot(const Executor& exec, const Vector& x, const Vector& y);

// result[0] = x · y, `result` a vector of one entry on the executor: asynchronous on CUDA (no host
// round trip; the same value as the synchronous dot, bitwise), for reductions whose consumer is a
// later kernel. Bytes and flops as dot.
void dot(const Executor& exec, const Vector& x, const Vector& y, Vector& result);

// Several dot products in one pass (one kernel, one reduction): out[i] = x[i] · y[i]. Vectors shared
// between pairs are counted once in the bytes. At most max_fused_dots pairs.
void multi_dot(const Executor& exec, std::span<const Vector* const> x, std::span<const Vector* const> y,
               std::span<double> out);

// The same into `result` on the executor (one entry per pair, e.g. a window of a longer vector):
// asynchronous on CUDA, the same values bitwise, so that reductions read on the host only
// together (one host read for many dots).
void multi_dot(const Executor& exec, std::span<const Vector* const> x, std::span<const Vector* const> y,
               Vector& result);

}  // namespace miniapp
