#pragma once
#include <chrono>
#include <string>

#include "operators/backend/array.hpp"

// Shared by the kernel front ends (operators/kernels/*.cpp) only: argument checks and the timed
// switch to a backend.
namespace miniapp::detail {

inline std::string where(const Executor& exec) {
  return exec.backend() == Backend::cpu ? "cpu" : "cuda:" + std::to_string(exec.device());
}

// Throws unless `other` (the executor of an argument called `what`) is the backend and device of `exec`.
inline void check_executor(const Executor& exec, const Executor& other, const char* kernel, const char* what) {
  if (other.backend() != exec.backend() || other.device() != exec.device())
    throw Error(std::string(kernel) + ": " + what + " lives on " + where(other) + " but the kernel runs on " +
                where(exec));
}

// Throws unless `v` lives on `exec` and has `n` entries.
inline void check_vector(const Executor& exec, const Vector& v, index_t n, const char* kernel, const char* what) {
  check_executor(exec, v.executor(), kernel, what);
  if (v.size() != n)
    throw Error(std::string(kernel) + ": " + what + " has " + std::to_string(v.size()) + " entries, expected " +
                std::to_string(n));
}

// Throws when `a` and `b` (named together in `what`, e.g. "x and y") share memory: a kernel that
// reads one while writing the other at other indices needs distinct vectors.
inline void check_distinct(const Vector& a, const Vector& b, const char* kernel, const char* what) {
  if (a.data() == b.data() && a.size() > 0)
    throw Error(std::string(kernel) + ": " + what + " must be distinct vectors");
}

// Runs the backend call and returns its seconds: wall time on the CPU, whose kernels are synchronous;
// on CUDA only with profiling on (synchronising before and after), else 0 so kernels stay asynchronous.
template <class CpuCall, class CudaCall>
double run_timed(const Executor& exec, CpuCall&& on_cpu, CudaCall&& on_cuda) {
  using clock = std::chrono::steady_clock;
  switch (exec.backend()) {
    case Backend::cpu: {
      const auto start = clock::now();
      on_cpu();
      return std::chrono::duration<double>(clock::now() - start).count();
    }
    case Backend::cuda: {
      if (!exec.profiling()) {
        on_cuda();
        return 0.0;
      }
      exec.synchronize();
      const auto start = clock::now();
      on_cuda();
      exec.synchronize();
      return std::chrono::duration<double>(clock::now() - start).count();
    }
  }
  throw Error("kernel dispatch: unknown backend " + std::to_string(static_cast<int>(exec.backend())));
}

}  // namespace miniapp::detail
