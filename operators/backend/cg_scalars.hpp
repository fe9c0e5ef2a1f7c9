#pragma once
// The scalar block of a conjugate-gradient solve and the scalar steps that close each fused CG kernel
// (operators/kernels/cg_kernels.hpp). Compiled by the host compiler for the CPU backend and by nvcc for
// the CUDA backend from this one source, so both backends decide α, β and when to stop with the same
// IEEE operations (division and sqrt are correctly rounded on both).
#include <cmath>

#include "operators/backend/host_device.hpp"

namespace miniapp::cg {

// Slots of the scalar block, doubles in executor memory. Kernels read α and β from here and write
// what they reduce, so an iteration needs no host round trip.
enum Slot : int {
  rho,                // ρ = r·z of the current residual
  alpha,              // α = ρ / σ of the current step
  beta,               // β = ρ_new / ρ_old, set once the new ρ is known
  curvature,          // σ = pᵀ A p of the current step
  residual_sq,        // γ = r·r of the current residual
  relative_residual,  // √γ / ‖b‖
  b_norm,             // ‖b‖, set when the solve starts
  tolerance,          // the iteration stops once √γ / ‖b‖ ≤ tolerance
  iterations,         // completed iterations (x and r updated)
  status,             // a Status value; kernels do nothing unless it is `running`
  mean,               // the mean of the vector last passed to cg_remove_mean
  iteration_cap,      // the solve's iteration limit, for the device loop's test (loop_continues)
  loop_runs,          // bodies run by the device loop of this solve
  slot_count
};

// Why the iteration stopped. Once not `running`, every CG kernel of the solve is a no-op, so the host
// may queue iterations past the stop and check only now and then: x is that of the stopping iteration.
enum class Status : int {
  running = 0,
  residual_test = 1,  // √γ / ‖b‖ > tolerance failed: converged (or NaN)
  breakdown = 2,      // σ was not positive (not SPD, or NaN); x and r are those before the step
  zero_rhs = 3,       // b = 0 (after projection in singular mode): x = 0 is the solution, set by the host
};

// Partial sums of one reduction: up to `max_sums` values, each over at most `max_partials` CUDA
// blocks or CPU chunks, summed in a fixed order so that results are deterministic.
inline constexpr int max_partials = 1024;
inline constexpr int max_sums = 2;

// The block as kernels see it: pointers into executor memory.
struct ScalarsView {
  double* slots;     // slot_count entries
  double* partials;  // max_sums * max_partials entries, scratch
  unsigned* done;    // CUDA: blocks of the running reduction that are done; 0 between kernels
};

MINIAPP_HOST_DEVICE inline bool stopped(const double* s) { return s[status] != 0.0; }

// After σ = pᵀ A p: α = ρ / σ, or a breakdown when σ is not positive (the step would not reduce the
// A-norm of the error; NaN lands here too).
MINIAPP_HOST_DEVICE inline void finish_curvature(double* s, double sigma) {
  s[curvature] = sigma;
  if (sigma > 0) s[alpha] = s[rho] / sigma;
  else s[status] = static_cast<double>(Status::breakdown);
}

// After x += α p, r −= α q with γ = r·r: one more iteration, and the residual test of a CG loop
// `while (‖r‖/‖b‖ > tolerance)`, which also stops on NaN.
MINIAPP_HOST_DEVICE inline void finish_residual(double* s, double gamma) {
  s[residual_sq] = gamma;
  s[relative_residual] = std::sqrt(gamma) / s[b_norm];
  s[iterations] += 1;
  if (!(s[relative_residual] > s[tolerance])) s[status] = static_cast<double>(Status::residual_test);
}

// After ρ_new = r·z: β = ρ_new / ρ for the next direction, and ρ ← ρ_new.
MINIAPP_HOST_DEVICE inline void finish_rho(double* s, double rho_new) {
  s[beta] = rho_new / s[rho];
  s[rho] = rho_new;
}

// The start of a solve, after r = b − A x (cg_start): ‖b‖ from β_b = b·b, the initial residual test on
// γ = r·r, no iteration done, the iteration cap for a device loop. With b = 0 the solve is over before
// it starts (zero_rhs). A NaN in b or r fails the test, as in the iteration, and stops the solve.
MINIAPP_HOST_DEVICE inline void finish_start(double* s, double bb, double gamma, double tol, double cap) {
  s[b_norm] = std::sqrt(bb);
  s[tolerance] = tol;
  s[iteration_cap] = cap;
  s[iterations] = 0;
  s[loop_runs] = 0;
  s[curvature] = 0;
  s[residual_sq] = gamma;
  if (bb == 0) {
    s[relative_residual] = 0;
    s[status] = static_cast<double>(Status::zero_rhs);
    return;
  }
  s[relative_residual] = std::sqrt(gamma) / s[b_norm];
  s[status] = static_cast<double>(s[relative_residual] > tol ? Status::running : Status::residual_test);
}

// At the end of each body of `body` iterations run by a device loop: counts the run, and whether the
// loop goes on: the solve still runs and one more whole body stays within the iteration cap (the
// host launches a shorter remainder itself).
MINIAPP_HOST_DEVICE inline bool loop_continues(double* s, int body) {
  s[loop_runs] += 1;
  return s[status] == static_cast<double>(Status::running) && s[iterations] + body <= s[iteration_cap];
}

}  // namespace miniapp::cg
