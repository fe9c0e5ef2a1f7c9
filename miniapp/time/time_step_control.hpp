#pragma once
#include <complex>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "miniapp/time/device_operators.hpp"
#include "miniapp/time/flow_fields.hpp"
#include "parallel/subdomain.hpp"

// The time-step controller: what Δt the next step takes (the sub-step "6 time step" of thesis
// Algorithm 1), where the run's last step lands, and the checks made before a run starts.
// docs/discretisation.md, "Time-step control", gives the bounds and the rules.
namespace miniapp::time {

// How the controller bounds Δt by the eigenvalues of Ω⁻¹(C + D), both from Gershgorin bounds of the
// per-cell rates c_i = ½ Σ_f A_f |u_s,f| / Ω_i (convection: imaginary eigenvalues) and
// d_i = 2 Σ_f ν_f A_f / δn_f / Ω_i (diffusion: negative real eigenvalues).
//   cfl:        Δt = cfl / max_i (c_i + d_i), one disc per cell;
//   eigenvalue: Δt = cfl · r(φ) / |λ|, with λ = −max d + i max c the corner of the rectangle that holds
//               the eigenvalues, φ its angle from the negative real axis and r(φ) the distance from
//               the origin to the edge of AB2's stability region along that angle (Trias & Lehmkuhl,
//               "A self-adaptive strategy for the time integration of Navier-Stokes equations", 2011).
enum class TimeStepMethod { cfl, eigenvalue };

// The explicit scheme of the predictor, as the one-leg κ-scheme of Trias & Lehmkuhl (2011),
// ((κ+½) uⁿ⁺¹ − 2κ uⁿ + (κ−½) uⁿ⁻¹) / Δt = R((1+κ) uⁿ − κ uⁿ⁻¹) at constant Δt: κ = ½ is Adams–Bashforth
// 2 (κ = 0 is leapfrog, κ = 1 the extrapolated BDF2).
inline constexpr double adams_bashforth_kappa = 0.5;

struct TimeStepOptions {
  TimeStepMethod method = TimeStepMethod::cfl;
  double cfl = 0.5;      // the fraction of the method's stability limit that Δt takes, in (0, 1]
  double fixed_dt = 0;   // > 0: this Δt whatever the flow (its stability fraction still reported)
  double max_dt = 0;     // > 0: cap on the controlled Δt
  // "eigenvalue" only: the largest κ the controller may choose per step, in [½, 1]; ½ keeps AB2.
  double max_kappa = adams_bashforth_kappa;
};

// One step of the κ-scheme with variable steps, in the fractional-step form FractionalStep runs:
// w = e_n uⁿ + e_{n−1} uⁿ⁻¹ (u at t_n + κΔt), uᵖ = k_n uⁿ + k_{n−1} uⁿ⁻¹ − β Ω⁻¹ (R w + s), then the
// projection with β in place of Δt. From the quadratic through (t_{n−1}, t_n, t_{n+1}) differentiated at
// t_n + κΔt: second order for every κ; β = Δt/(κ+½) at constant steps. κ = ½ gives AB2 exactly
// (k = 1, 0; β = Δt); dt_old = 0 (the first step) gives Euler.
struct StepCoefficients {
  double extrapolate_current, extrapolate_previous;  // e_n, e_{n−1}
  double keep_current, keep_previous;                // k_n, k_{n−1}
  double projection_dt;                              // β
};
StepCoefficients step_coefficients(double kappa, double dt, double dt_old);

// Whether the κ-scheme applied to u' = λu with z = λΔt is stable: both roots of its characteristic
// polynomial of modulus ≤ 1.
bool kappa_scheme_stable(double kappa, std::complex<double> z);

// The distance from the origin to the edge of the κ-scheme's stability region along the ray
// z = r e^{i(π − φ)}, φ ∈ [0, π/2] the angle from the negative real axis (0: diffusion, π/2:
// convection): the largest r such that every point of the ray up to it is stable. Host arithmetic,
// 58 evaluations of `kappa_scheme_stable`.
double stability_radius(double kappa, double phi);

// Scratch vectors the controller writes (borrowed from the integrator, which owns its work vectors):
// one on faces, two on cells.
struct TimeStepScratch {
  Vector& faces;
  Vector& convection;
  Vector& diffusion;
};

class TimeStepControl {
 public:
  // `ops` and `domain` must outlive the controller (as the integrator's do).
  TimeStepControl(const Executor& exec, const DeviceOperators& ops, parallel::Subdomain& domain,
                  const TimeStepOptions& options, TimeStepScratch scratch);

  // Δt for the next step from u_s and ν_s (kernel calls and a reduction over the ranks); remembers
  // the fraction of the stability limit it takes. Throws miniapp::Error when the method gives no
  // finite positive Δt (a flow at rest and inviscid, NaN, or no diffusion for "eigenvalue").
  double stable_dt(const FlowFields& fields);

  // Δt of the last stable_dt over its method's stability limit (what the progress lines and the
  // diagnostics call CFL).
  double stability_fraction() const { return fraction_; }
  // The κ of the step that the last stable_dt sized (½ unless "eigenvalue" with max_kappa > ½).
  double kappa() const { return kappa_; }

 private:
  // c_i Ω_i · 2 into scratch.convection (Σ_f A_f |u_s,f|, the boundary speeds included) and
  // d_i Ω_i / 2 into scratch.diffusion (Σ_f ν_f A_f / δn_f).
  void cell_rates(const FlowFields& fields);
  double cfl_limit();         // 1 / max_i (c_i + d_i)
  double eigenvalue_limit();  // r(φ) / |λ|, for the κ in [½, max_kappa] that makes it largest

  Executor exec_;
  const DeviceOperators& ops_;
  parallel::Subdomain& domain_;
  TimeStepOptions options_;
  TimeStepScratch scratch_;
  Vector least_ratios_;  // the eigenvalue limit's two minima, read to the host together
  double fraction_ = 0;
  double kappa_ = adams_bashforth_kappa;
};

// Σ over the wall and inlet faces of each cell of A_f (|u_b| − |u_b · n_f|), in the operators' cell
// order: with Σ_f A_f |u_s,f| (where u_s,f = u_b · n_f on those faces) it counts the boundary's whole
// speed, so that a moving lid bounds Δt from the first step of a flow at rest.
std::vector<double> cell_boundary_speed_flux(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                             const fv::FlowOperators& ops);

// Within landing_steps steps of Δt of `end_time`, the Δt that makes the steps left to it equal, so
// that the run ends exactly there without a last step far shorter than the one before: the collocated
// projection's pressure holds a part that scales with the ratio of successive steps (the cell
// velocity's divergence left by the previous projection over the new Δt), and the pressure, the forces
// and the last output would jump with it. Outside that window none (the steps before do not depend on
// the end time). The run loop never checkpoints a state inside the window (a longer run would not pass
// through it): it checkpoints the state before, from which a restart with a later end time continues
// as one run would.
inline constexpr int landing_steps = 10;
std::optional<double> landing_dt(double dt, double time, std::optional<double> end_time);

// `time` has reached `target` up to round-off (a sum of steps lands within a few ulps of it).
bool reached(double time, double target);

// The first multiple of `interval` after `time` (infinity for interval 0: only at the end). Outputs
// are written at the first step that reaches it, not landed on: the steps stay the controller's.
double next_multiple(double time, double interval);

// An interval of the run at which something is written (output.interval, output.checkpoint_interval).
struct ScheduledInterval {
  std::string_view key;
  double interval;  // 0: only at the end
};

// Refuses, before the run starts, a first step longer than an interval: every such step would pass
// a whole interval without writing. `dt_source` names where Δt comes from, for the message.
void check_step_within_intervals(double dt, std::string_view dt_source, std::span<const ScheduledInterval> intervals);

}  // namespace miniapp::time
