#pragma once
// A scalar argument of the AXPY-family kernels (operators/kernels/vector_ops.hpp) as the front ends
// and the backends pass it: a value fixed when the call is queued, or a double in executor memory
// that the kernel reads when it runs. The second kind lets a recorded KernelGraph replay a sub-step
// with the current value of something that changes every step (the time step Δt), where a value
// passed by value would be frozen into the graph.
namespace miniapp {

struct Coefficient {
  // A plain number (implicit, so that axpby(exec, 2.0, x, 1.0, y) reads as before).
  constexpr Coefficient(double v) : value(v) {}  // NOLINT(google-explicit-constructor)
  // The double at `at` in executor memory.
  static constexpr Coefficient in_memory(const double* at) {
    Coefficient c(0.0);
    c.ref = at;
    return c;
  }
  // True for a plain 0: its input is then not read at all (a coefficient in memory always is).
  constexpr bool is_plain_zero() const { return ref == nullptr && value == 0.0; }
  // The value, reading executor memory: only where the executor's memory is the host's (CPU).
  double host_value() const { return ref ? *ref : value; }

  double value;
  const double* ref = nullptr;
};

}  // namespace miniapp
