// The time-step controller: the κ-scheme's stability radius against closed forms, the Δt of both
// methods on a uniform flow against the rates by hand, the boundary speeds, and the checks before a run.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <numbers>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "miniapp/time/time_step_control.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::time::test {
namespace {

constexpr double half_pi = std::numbers::pi / 2;

TEST_CASE("The stability radius of the kappa-scheme matches its closed forms", "[time][time-step]") {
  // On the negative real axis the κ-scheme is stable up to 4κ / (2κ + 1): 1 for AB2, 4/3 for κ = 1.
  CHECK(stability_radius(0.5, 0.0) == Approx(1.0).epsilon(1e-9));
  CHECK(stability_radius(1.0, 0.0) == Approx(4.0 / 3.0).epsilon(1e-9));
  CHECK(stability_radius(0.75, 0.0) == Approx(1.2).epsilon(1e-9));
  // κ = 0 is leapfrog, stable on the imaginary axis up to |z| = 1 (a double root there).
  CHECK(stability_radius(0.0, half_pi) == Approx(1.0).epsilon(1e-6));
  // AB2 leaves the imaginary axis out: near it, Re z ≤ −|z|⁴/4, so r ≈ (4 cos φ)^{1/3}.
  const double tilt = 1e-3;
  CHECK(stability_radius(0.5, half_pi - tilt) == Approx(std::cbrt(4 * std::sin(tilt))).epsilon(0.01));
  CHECK(stability_radius(0.5, half_pi) < 0.01);
  // From diffusion to convection AB2's radius only shrinks.
  double previous = stability_radius(0.5, 0.0);
  for (int i = 1; i <= 10; ++i) {
    const double r = stability_radius(0.5, half_pi * i / 10);
    CHECK(r < previous);
    previous = r;
  }
}

// The march in steps of 1/64 then bisection that stability_radius did before it bisected [0, 4]:
// the first unstable point of the march ends the first stable interval, wherever others lie.
double first_exit_radius(double kappa, double phi) {
  const std::complex<double> direction = std::polar(1.0, std::numbers::pi - phi);
  double inside = 0, outside = 1.0 / 64;
  while (outside <= 4 && kappa_scheme_stable(kappa, outside * direction)) inside = outside, outside += 1.0 / 64;
  for (int i = 0; i < 50; ++i) {
    const double mid = 0.5 * (inside + outside);
    (kappa_scheme_stable(kappa, mid * direction) ? inside : outside) = mid;
  }
  return inside;
}

TEST_CASE("Along every ray the kappa-scheme's stable points are one interval from the origin and the radius is its end",
          "[time][time-step]") {
  for (const double kappa : {0.5, 0.625, 0.75, 0.875, 1.0}) {
    for (int k = 0; k <= 90; ++k) {
      const double phi = half_pi * k / 90;
      const std::complex<double> direction = std::polar(1.0, std::numbers::pi - phi);
      INFO("kappa " << kappa << ", phi " << phi);
      // Sampled out to |z| = 4: no stable point beyond the first unstable one, none at 4.
      int first_unstable = 0;
      for (int j = 1; j <= 2048; ++j) {
        const bool stable = kappa_scheme_stable(kappa, (j / 512.0) * direction);
        if (!stable && first_unstable == 0) first_unstable = j;
        if (stable && first_unstable != 0) FAIL("stable again at |z| = " << j / 512.0);
      }
      REQUIRE(first_unstable > 0);
      const double radius = stability_radius(kappa, phi);
      CHECK(radius >= (first_unstable - 1) / 512.0);
      CHECK(radius < first_unstable / 512.0);
      // The same double as the march that found the first exit: time steps unchanged bit for bit.
      CHECK(radius == first_exit_radius(kappa, phi));
    }
  }
}

TEST_CASE("The kappa-scheme's step coefficients: AB2 at one half, the constant-step forms, Euler first",
          "[time][time-step]") {
  const StepCoefficients euler = step_coefficients(0.8, 0.1, 0.0);
  CHECK((euler.extrapolate_current == 1 && euler.extrapolate_previous == 0 && euler.keep_current == 1 &&
         euler.keep_previous == 0 && euler.projection_dt == 0.1));
  const StepCoefficients ab2 = step_coefficients(0.5, 0.3, 0.15);  // step ratio 2
  CHECK((ab2.extrapolate_current == 2 && ab2.extrapolate_previous == -1 && ab2.keep_current == 1 &&
         ab2.keep_previous == 0 && ab2.projection_dt == 0.3));
  for (const double kappa : {0.6, 0.75, 1.0}) {
    const double h = 0.01;
    const StepCoefficients c = step_coefficients(kappa, h, h);
    CHECK(c.projection_dt == Approx(h / (kappa + 0.5)).epsilon(1e-14));
    CHECK(c.keep_current == Approx(2 * kappa / (kappa + 0.5)).epsilon(1e-14));
    CHECK(c.keep_previous == Approx(-(kappa - 0.5) / (kappa + 0.5)).epsilon(1e-14));
    CHECK(c.extrapolate_current == Approx(1 + kappa).epsilon(1e-14));
  }
}

// u' = −u from 0 to 1 by the κ-scheme with steps h(t) = H (1 + ½ sin 3t), the error at t = 1.
double kappa_scheme_error(double kappa, double h_scale) {
  double t = 0, u = 1, u_old = 1, dt_old = 0;
  while (t < 1 - 1e-12) {
    const double dt = std::min(h_scale * (1 + 0.5 * std::sin(3 * t)), 1 - t);
    const StepCoefficients c = step_coefficients(kappa, dt, dt_old);
    const double w = c.extrapolate_current * u + c.extrapolate_previous * u_old;
    const double next = c.keep_current * u + c.keep_previous * u_old - c.projection_dt * w;
    u_old = u, u = next, dt_old = dt, t += dt;
  }
  return std::abs(u - std::exp(-1.0));
}

TEST_CASE("The kappa-scheme is second order with varying steps", "[time][time-step]") {
  for (const double kappa : {0.5, 0.75, 1.0}) {
    INFO("kappa " << kappa);
    const double coarse = kappa_scheme_error(kappa, 0.02), fine = kappa_scheme_error(kappa, 0.01);
    CHECK(std::log2(coarse / fine) == Approx(2.0).margin(0.15));
  }
}

// A periodic box of n × n × layers hexahedra, side h = 1/n in x and y, with a uniform velocity U along
// x and viscosity ν.
class UniformFlow {
 public:
  UniformFlow(double velocity, double viscosity, index_t n = 4, index_t layers = 4, double thickness = 1.0)
      : mesh_(mesh::make_hex_box({{n, n, layers}, {0, 0, 0}, {1.0, 1.0, thickness}, {0, 0, 0}, {true, true, true}})),
        geometry_(mesh::compute_geometry(mesh_)),
        host_(fv::assemble_flow_operators(mesh_, geometry_, fv::FlowBoundaries{})),
        device_(exec_, mesh_, geometry_, host_, 8, viscosity, false, {0, 0, 0}),
        domain_(mesh_.cell_count()),
        fields_(exec_, mesh_.cell_count(), mesh_.face_count()),
        faces_(exec_, mesh_.face_count()),
        convection_(exec_, mesh_.cell_count()),
        diffusion_(exec_, mesh_.cell_count()) {
    std::vector<double> u_s(static_cast<std::size_t>(mesh_.face_count()));
    for (std::size_t f = 0; f < u_s.size(); ++f) u_s[f] = velocity * geometry_.face_normal[f].x;
    fields_.face_velocity.copy_from_host(u_s);
    fill(exec_, viscosity, fields_.face_viscosity);
  }

  TimeStepControl control(const TimeStepOptions& options) {
    return TimeStepControl(exec_, device_, domain_, options, {faces_, convection_, diffusion_});
  }
  const FlowFields& fields() const { return fields_; }

 private:
  Executor exec_ = Executor::cpu();
  mesh::Mesh mesh_;
  mesh::MeshGeometry geometry_;
  fv::FlowOperators host_;
  DeviceOperators device_;
  parallel::Subdomain domain_;
  FlowFields fields_;
  Vector faces_, convection_, diffusion_;
};

TEST_CASE("Both methods bound the time step by the rates of a uniform flow", "[time][time-step]") {
  const double h = 0.25, u = 2.0, nu = 0.01;
  // Per cell: c = ½ Σ A|u_s| / Ω = u/h (two x faces), d = 2 Σ ν A/δn / Ω = 12 ν/h² (six faces).
  const double c = u / h, d = 12 * nu / (h * h);
  UniformFlow flow(u, nu);
  auto cfl = flow.control({TimeStepMethod::cfl, 0.5, 0, 0});
  CHECK(cfl.stable_dt(flow.fields()) == Approx(0.5 / (c + d)).epsilon(1e-12));
  CHECK(cfl.stability_fraction() == Approx(0.5).epsilon(1e-12));

  auto eigenvalue = flow.control({TimeStepMethod::eigenvalue, 0.8, 0, 0});
  const double limit = stability_radius(adams_bashforth_kappa, std::atan2(c, d)) / std::hypot(c, d);
  CHECK(eigenvalue.stable_dt(flow.fields()) == Approx(0.8 * limit).epsilon(1e-12));
  CHECK(eigenvalue.stability_fraction() == Approx(0.8).epsilon(1e-12));

  auto capped = flow.control({TimeStepMethod::eigenvalue, 0.8, 0, 1e-3});
  CHECK(capped.stable_dt(flow.fields()) == 1e-3);
  CHECK(capped.stability_fraction() == Approx(1e-3 / limit).epsilon(1e-12));
  auto fixed = flow.control({TimeStepMethod::cfl, 0.5, 0.1, 0});
  CHECK(fixed.stable_dt(flow.fields()) == 0.1);
  CHECK(fixed.stability_fraction() == Approx(0.1 * (c + d)).epsilon(1e-12));
}

TEST_CASE("With a larger kappa allowed, the eigenvalue method takes it where diffusion dominates",
          "[time][time-step]") {
  const double h = 0.25, nu = 0.05;
  // At rest the best κ in [½, 1] is 1: stable up to Δt d = 4/3.
  UniformFlow at_rest(0.0, nu);
  auto control = at_rest.control({TimeStepMethod::eigenvalue, 1.0, 0, 0, 1.0});
  CHECK(control.stable_dt(at_rest.fields()) == Approx(4.0 / 3.0 * h * h / (12 * nu)).epsilon(1e-9));
  CHECK(control.kappa() == 1.0);
  // Convection-dominated: AB2's κ = ½ has the widest region near the imaginary axis.
  UniformFlow fast(10.0, 1e-4);
  auto convective = fast.control({TimeStepMethod::eigenvalue, 1.0, 0, 0, 1.0});
  convective.stable_dt(fast.fields());
  CHECK(convective.kappa() == adams_bashforth_kappa);
}

TEST_CASE("Diffusion alone: the eigenvalue method reaches AB2's real-axis limit", "[time][time-step]") {
  // At rest the eigenvalues are real: AB2 is stable up to Δt d = 1, so at cfl = 1 the step is 1/d.
  const double h = 0.25, nu = 0.05;
  UniformFlow flow(0.0, nu);
  auto control = flow.control({TimeStepMethod::eigenvalue, 1.0, 0, 0});
  CHECK(control.stable_dt(flow.fields()) == Approx(h * h / (12 * nu)).epsilon(1e-9));
}

TEST_CASE("A periodic direction one cell thick adds no diffusive rate", "[time][time-step]") {
  // Each cell is its own z neighbour: D has nothing there (its diagonal and off-diagonal entries
  // cancel), so d = 2 · 4 ν/h² from the four side faces, however thin the layer.
  const double h = 0.25, nu = 0.05;
  UniformFlow flow(0.0, nu, 4, 1, 0.01);
  auto control = flow.control({TimeStepMethod::eigenvalue, 1.0, 0, 0});
  CHECK(control.stable_dt(flow.fields()) == Approx(h * h / (8 * nu)).epsilon(1e-9));
}

TEST_CASE("The eigenvalue method refuses a flow without diffusion", "[time][time-step]") {
  UniformFlow flow(1.0, 0.0);
  auto control = flow.control({TimeStepMethod::eigenvalue, 0.5, 0, 0});
  CHECK_THROWS_WITH(control.stable_dt(flow.fields()),
                    Catch::Contains("needs diffusion") && Catch::Contains("numerics.time_step = \"cfl\""));
  auto cfl = flow.control({TimeStepMethod::cfl, 0.5, 0, 0});
  CHECK(cfl.stable_dt(flow.fields()) == Approx(0.5 * 0.25 / 1.0).epsilon(1e-12));
}

TEST_CASE("A moving wall's and an oblique inlet's speeds join the owner cells' rates", "[time][time-step]") {
  const index_t n = 4;
  const mesh::Mesh m = mesh::make_hex_box({{n, n, 1}, {0, 0, 0}, {1, 1, 0.25}, {0, 0, 0}, {false, false, true}});
  const mesh::MeshGeometry g = mesh::compute_geometry(m);
  fv::FlowBoundaries boundaries;
  for (const auto& patch : m.patches)
    boundaries.by_patch.push_back(patch.name == "ymax"   ? fv::BoundaryCondition{BoundaryKind::moving_wall, {3, 0, 0}}
                                  : patch.name == "xmin" ? fv::BoundaryCondition{BoundaryKind::inlet, {1, 1, 0}}
                                                         : fv::BoundaryCondition{BoundaryKind::wall, {0, 0, 0}});
  const fv::FlowOperators ops = fv::assemble_flow_operators(m, g, boundaries);
  const std::vector<double> flux = cell_boundary_speed_flux(m, g, ops);
  const double area = 0.25 * 0.25;  // a side face: h × the one-cell thickness
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const Vec3 x = g.cell_centroid[c];
    const bool lid = x.y > 0.75, inlet = x.x < 0.25;
    // The lid moves along itself: its whole speed counts; the inlet's normal part is in u_s already.
    const double expected = (lid ? 3 * area : 0.0) + (inlet ? (std::sqrt(2.0) - 1) * area : 0.0);
    INFO("cell at " << x.x << ", " << x.y);
    CHECK(flux[ops.cell_order.old_to_new[c]] == Approx(expected).margin(1e-14));
  }
}

TEST_CASE("The last steps are made equal to land on the end time, and times count as reached up to round-off",
          "[time][time-step]") {
  CHECK(landing_dt(0.3, 0.9, 1.0) == Approx(0.1).epsilon(1e-12));  // one step left, shorter
  CHECK(landing_dt(0.05, 0.9, 1.0) == Approx(0.05).epsilon(1e-12));  // two whole steps left
  CHECK(landing_dt(0.03, 0.9, 1.0) == Approx(0.1 / 4).epsilon(1e-12));  // 3.3 steps: four of 0.025
  CHECK(landing_dt(0.01, 0.89, 1.0) == std::nullopt);  // 11 steps left: outside the window
  CHECK(landing_dt(0.3, 0.9, std::nullopt) == std::nullopt);
  // Steps of the window taken one after another end exactly on the end time, none shorter than 0.9 of
  // the step before, whatever the stable Δt does meanwhile.
  for (const double start_dt : {0.0123, 0.01, 0.0099999999999}) {
    INFO("stable dt " << start_dt);
    double t = 0.9, dt = start_dt, last = dt;
    int steps = 0;
    while (t < 1.0) {
      const std::optional<double> landing = landing_dt(dt, t, 1.0);
      const double taken = landing ? *landing : dt;
      CHECK(taken >= 0.9 * last * (1 - 1e-9));
      t += taken, last = taken, dt *= 1.001, ++steps;
      REQUIRE(steps < 100);
    }
    CHECK(t == Approx(1.0).epsilon(1e-14));
  }
  CHECK(reached(0.30000000000000004, 0.3));
  CHECK(reached(0.3 - 1e-14, 0.3));
  CHECK_FALSE(reached(0.2999, 0.3));
  CHECK(next_multiple(0.25, 0.1) == Approx(0.3));
  CHECK(next_multiple(0.3 - 1e-14, 0.1) == Approx(0.4));  // 0.3 counts as passed
  CHECK(std::isinf(next_multiple(5.0, 0.0)));
}

TEST_CASE("A first step longer than an output interval is refused with the interval named", "[time][time-step]") {
  const ScheduledInterval intervals[] = {{"output.interval", 0.1}, {"output.checkpoint_interval", 0.0}};
  CHECK_NOTHROW(check_step_within_intervals(0.1, "numerics.dt", intervals));
  CHECK_NOTHROW(check_step_within_intervals(1e-3, "numerics.dt", intervals));
  CHECK_THROWS_WITH(check_step_within_intervals(0.25, "numerics.dt", intervals),
                    Catch::Contains("dt = 0.25 (numerics.dt)") && Catch::Contains("output.interval = 0.1") &&
                        Catch::Contains("numerics.max_dt to at most 0.1"));
}

}  // namespace
}  // namespace miniapp::time::test
