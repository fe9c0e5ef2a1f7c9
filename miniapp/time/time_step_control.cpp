#include "miniapp/time/time_step_control.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <sstream>
#include <vector>

#include "operators/kernels/flow_kernels.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::time {

using complex = std::complex<double>;

// The roots of (κ+½) g² − (2κ + (1+κ) z) g + (κ − ½ + κ z) = 0, with round-off slack (the principal
// root is 1 + O(z) near the origin).
bool kappa_scheme_stable(double kappa, complex z) {
  const complex a = kappa + 0.5, b = -(2 * kappa + (1 + kappa) * z), c = kappa - 0.5 + kappa * z;
  const complex root = std::sqrt(b * b - 4.0 * a * c);
  constexpr double slack = 1e-12;
  return std::abs((-b + root) / (2.0 * a)) <= 1 + slack && std::abs((-b - root) / (2.0 * a)) <= 1 + slack;
}

double stability_radius(double kappa, double phi) {
  const complex direction = std::polar(1.0, std::numbers::pi - phi);
  // Every κ-scheme's region lies within |z| < 4, and along each ray its stable points form one
  // interval from the origin (time_step_control_test checks both), so bisecting [0, 4] finds the
  // interval's end: 8 halvings to a bracket of 1/64, 50 more to round-off.
  double inside = 0, outside = 4.0;
  for (int i = 0; i < 58; ++i) {
    const double mid = 0.5 * (inside + outside);
    (kappa_scheme_stable(kappa, mid * direction) ? inside : outside) = mid;
  }
  return inside;
}

TimeStepControl::TimeStepControl(const Executor& exec, const DeviceOperators& ops, parallel::Subdomain& domain,
                                 const TimeStepOptions& options, TimeStepScratch scratch)
    : exec_(exec), ops_(ops), domain_(domain), options_(options), scratch_(scratch), least_ratios_(exec, 2) {}

void TimeStepControl::cell_rates(const FlowFields& f) {
  abs_value(exec_, f.face_velocity, scratch_.faces);
  spmv(exec_, ops_.flux_magnitude_sum, scratch_.faces, scratch_.convection);
  if (ops_.has_moving_boundaries) axpby(exec_, 1.0, ops_.boundary_speed_flux, 1.0, scratch_.convection);
  spmv(exec_, ops_.viscous_rate, f.face_viscosity, scratch_.diffusion);
}

// Over the owned cells of every rank.
double TimeStepControl::cfl_limit() {
  axpby(exec_, 2.0, scratch_.diffusion, 0.5, scratch_.convection);
  return domain_.min(min_ratio(exec_, domain_.owned(ops_.volume), domain_.owned(scratch_.convection)));
}

double TimeStepControl::eigenvalue_limit() {
  Vector least_convective = least_ratios_.window(0, 1), least_diffusive = least_ratios_.window(1, 1);
  min_ratio(exec_, domain_.owned(ops_.volume), domain_.owned(scratch_.convection), least_convective);
  min_ratio(exec_, domain_.owned(ops_.volume), domain_.owned(scratch_.diffusion), least_diffusive);
  const std::vector<double> least = least_ratios_.to_host();  // one round trip for both
  const double convection = 0.5 / domain_.min(least[0]);
  const double diffusion = 2.0 / domain_.min(least[1]);
  if (!(diffusion > 0)) {
    std::ostringstream msg;
    msg << "time step control: numerics.time_step = \"eigenvalue\" needs diffusion (the largest diffusive eigenvalue is "
        << diffusion << "): Adams-Bashforth 2 is unstable on the imaginary axis, where an inviscid flow's eigenvalues "
        << "lie; use numerics.time_step = \"cfl\"";
    throw Error(msg.str());
  }
  const double phi = std::atan2(convection, diffusion);
  // r(κ) rises with κ towards the real axis and falls towards the imaginary one: a few candidates
  // find the best within a few per cent.
  constexpr int candidates = 5;
  double radius = stability_radius(adams_bashforth_kappa, phi);
  kappa_ = adams_bashforth_kappa;
  for (int i = 1; i < candidates && options_.max_kappa > adams_bashforth_kappa; ++i) {
    const double kappa = adams_bashforth_kappa + (options_.max_kappa - adams_bashforth_kappa) * i / (candidates - 1);
    if (const double r = stability_radius(kappa, phi); r > radius) radius = r, kappa_ = kappa;
  }
  return radius / std::hypot(convection, diffusion);
}

double TimeStepControl::stable_dt(const FlowFields& f) {
  cell_rates(f);
  const double limit = options_.method == TimeStepMethod::eigenvalue ? eigenvalue_limit() : cfl_limit();
  if (options_.fixed_dt > 0) {
    fraction_ = std::isfinite(limit) ? options_.fixed_dt / limit : 0.0;
    return options_.fixed_dt;
  }
  double dt = options_.cfl * limit;
  if (options_.max_dt > 0) dt = std::min(dt, options_.max_dt);
  if (!std::isfinite(dt) || dt <= 0) {
    std::ostringstream msg;
    msg << "time step control: the stability limit gives no finite positive time step (" << dt
        << "): the flow is at rest and inviscid, or holds NaN; set numerics.dt or numerics.max_dt";
    throw Error(msg.str());
  }
  fraction_ = dt / limit;
  return dt;
}

StepCoefficients step_coefficients(double kappa, double dt, double dt_old) {
  if (!(dt_old > 0)) return {1.0, 0.0, 1.0, 0.0, dt};
  const double ratio = dt / dt_old;
  // AB2's own expressions, so that κ = ½ runs bit for bit as before the κ-scheme existed.
  if (kappa == adams_bashforth_kappa) return {1.0 + 0.5 * ratio, -0.5 * ratio, 1.0, 0.0, dt};
  // du/dt at t_n + κh ≈ a₊ uⁿ⁺¹ + a₀ uⁿ + a₋ uⁿ⁻¹ (h = dt, h₀ = dt_old); β = 1/a₊, k = −β a.
  const double h = dt, h0 = dt_old, lead = 2 * kappa * h + h0;
  const double beta = h * (h + h0) / lead;
  return {1.0 + kappa * ratio, -kappa * ratio, (lead - h) * (h + h0) / (h0 * lead),
          -(2 * kappa - 1) * h * h / (h0 * lead), beta};
}

std::vector<double> cell_boundary_speed_flux(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                             const fv::FlowOperators& ops) {
  std::vector<double> flux(static_cast<std::size_t>(mesh.cell_count()), 0.0);
  for (index_t f = mesh.interior_face_count; f < mesh.face_count(); ++f) {
    const fv::BoundaryCondition& bc = ops.boundaries.of_face(mesh, f);
    if (!fv::fixes_velocity(bc.kind)) continue;
    const double speed = norm(bc.velocity), beyond_normal = speed - std::abs(dot(bc.velocity, geometry.face_normal[f]));
    // An inflow normal to its face (the cylinder's inlet) leaves only the normal's round-off here.
    if (beyond_normal <= 1e-12 * speed) continue;
    flux[ops.cell_order.old_to_new[mesh.face_owner[f]]] += geometry.face_area[f] * beyond_normal;
  }
  return flux;
}

std::optional<double> landing_dt(double dt, double time, std::optional<double> end_time) {
  if (!end_time) return std::nullopt;
  const double left = *end_time - time;
  if (left > landing_steps * dt) return std::nullopt;
  // Steps left within round-off of a whole number count as that number: one more would halve the
  // step for a remainder of nothing.
  const double steps = std::max(1.0, std::ceil(left / dt * (1 - 1e-9)));
  return left / steps;
}

bool reached(double time, double target) { return time >= target * (1 - 1e-12); }

double next_multiple(double time, double interval) {
  if (interval <= 0) return std::numeric_limits<double>::infinity();
  return (std::floor(time / interval + 1e-9) + 1.0) * interval;
}

void check_step_within_intervals(double dt, std::string_view dt_source, std::span<const ScheduledInterval> intervals) {
  for (const ScheduledInterval& s : intervals) {
    // The same relative slack as the run loop's test of a reached time.
    if (s.interval <= 0 || dt <= s.interval * (1 + 1e-12)) continue;
    std::ostringstream msg;
    msg << "the first time step, dt = " << dt << " (" << dt_source << "), is longer than " << s.key << " = "
        << s.interval << ": every step would pass a whole interval without writing; lower numerics.cfl, set "
        << "numerics.max_dt to at most " << s.interval << ", or lengthen " << s.key;
    throw Error(msg.str());
  }
}

}  // namespace miniapp::time
