#pragma once
// The per-system scalars of the batched frequency PCG (solvers/fft/batched_pcg.hpp) and the scalar
// steps that close each of its iterations. Compiled by the host compiler for the CPU backend and by
// nvcc for the CUDA backend from this one source (as operators/backend/cg_scalars.hpp is for the
// single-system PCG), so both backends decide α, β and each system's stop with the same IEEE
// operations, and the iteration needs no host round trip.
#include <cmath>
#include <cstdint>

#include "operators/backend/cg_scalars.hpp"

namespace miniapp::fft::batched_cg {

// Slot k of system s is state[k · S + s]: doubles in executor memory, S the solver's row stride (at
// least the number of systems).
enum Slot : int {
  rho,                // ρ_s = r_s·z_s of the current residual
  alpha,              // α_s of the current step; 0 once the system stopped (x_s, r_s frozen)
  beta,               // β_s for the next direction; 0 once stopped
  b_norm,             // ‖b_s‖, set when the solve starts
  relative_residual,  // ‖r_s‖ / ‖b_s‖ of the recursively updated residual
  tolerance,          // the system stops once relative_residual ≤ tolerance
  iterations,         // completed iterations of the system
  status,             // a cg::Status value
  slot_count
};

MINIAPP_HOST_DEVICE inline double& slot(double* state, std::int64_t systems, Slot k, std::int64_t s) {
  return state[k * systems + s];
}
MINIAPP_HOST_DEVICE inline double slot(const double* state, std::int64_t systems, Slot k, std::int64_t s) {
  return state[k * systems + s];
}

MINIAPP_HOST_DEVICE inline bool running(const double* state, std::int64_t systems, std::int64_t s) {
  return slot(state, systems, status, s) == static_cast<double>(cg::Status::running);
}

// The start of system s from b_s·b_s, r_s·z_s and r_s·r_s of the initial residual: every slot set, so
// a solve starts in executor memory without the host (a system that already meets the tolerance is
// stopped before its first iteration; a zero b_s counts as met).
MINIAPP_HOST_DEVICE inline void start(double* state, std::int64_t systems, std::int64_t s, double bb, double rz,
                                      double rr, double tolerance_value) {
  const double norm = std::sqrt(bb);
  const double residual = norm > 0 ? std::sqrt(rr) / norm : 0.0;
  slot(state, systems, rho, s) = rz;
  slot(state, systems, alpha, s) = 0.0;
  slot(state, systems, beta, s) = 0.0;
  slot(state, systems, b_norm, s) = norm;
  slot(state, systems, relative_residual, s) = residual;
  slot(state, systems, tolerance, s) = tolerance_value;
  slot(state, systems, iterations, s) = 0.0;
  slot(state, systems, status, s) =
      static_cast<double>(residual <= tolerance_value ? cg::Status::residual_test : cg::Status::running);
}

// After σ_s = p_sᵀ (A + σ_s W) p_s: α_s = ρ_s / σ_s for a running system, 0 for a stopped one, and a
// breakdown (α_s = 0) when σ_s is not positive (not SPD, or NaN).
MINIAPP_HOST_DEVICE inline void finish_curvature(double* state, std::int64_t systems, std::int64_t s, double sigma) {
  double a = 0.0;
  if (running(state, systems, s)) {
    if (sigma > 0) a = slot(state, systems, rho, s) / sigma;
    else slot(state, systems, status, s) = static_cast<double>(cg::Status::breakdown);
  }
  slot(state, systems, alpha, s) = a;
}

// After x_s += α_s p_s, r_s −= α_s q_s, z_s = M_s⁻¹ r_s, with ρ_new = r_s·z_s and γ = r_s·r_s: one more
// iteration of a running system and its residual test (which also stops on NaN); β_s = ρ_new / ρ_s
// while it runs, 0 once stopped (p_s = z_s is then harmless: α_s stays 0).
MINIAPP_HOST_DEVICE inline void finish_residual(double* state, std::int64_t systems, std::int64_t s, double rho_new,
                                                double gamma) {
  double b = 0.0;
  if (running(state, systems, s)) {
    slot(state, systems, iterations, s) += 1;
    const double residual = std::sqrt(gamma) / slot(state, systems, b_norm, s);
    slot(state, systems, relative_residual, s) = residual;
    if (!(residual > slot(state, systems, tolerance, s)))
      slot(state, systems, status, s) = static_cast<double>(cg::Status::residual_test);
    else
      b = rho_new / slot(state, systems, rho, s);
    slot(state, systems, rho, s) = rho_new;
  }
  slot(state, systems, beta, s) = b;
}

}  // namespace miniapp::fft::batched_cg
