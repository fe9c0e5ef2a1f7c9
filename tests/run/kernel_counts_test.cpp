// The kernel calls of each sub-step of one time step, per shipped case, against the counts that
// miniapp/time/fractional_step.cpp makes (docs/validation.md lists them): a change of the algorithm
// must update this test and the docs together.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>

#include "tests/run/run_test_support.hpp"

namespace miniapp::run::test {
namespace {

using Counts = std::array<std::uint64_t, kernel_kind_count>;  // spmv, axpy, dot, pointwise, copy

Counts calls(const KernelCounters& k) {
  Counts c{};
  for (int i = 0; i < kernel_kind_count; ++i) c[i] = k.tally(static_cast<KernelKind>(i)).calls;
  return c;
}

// What the case switches on, read from its configuration (not from the operators under test).
struct Features {
  bool les, constant_source, viscous_source, singular, jacobi, aip_product;  // singular: no outlet
  bool lid, eigenvalue_time_step;  // a moving wall (its speed joins the time step's rates); numerics.time_step
  bool kappa_scheme;                // numerics.max_kappa > ½: the predictor adds k_{n−1} uⁿ⁻¹
  std::uint64_t held_components;    // physics.bulk_velocity's non-zero components (0 without it)
};

Features features_of(const cases::CaseConfig& c) {
  const bool les = c.physics.les != LesModel::none;
  bool moving = false, inflow = false, outlet = false, lid = false;
  for (const auto& b : c.boundaries) {
    const bool nonzero = b.velocity.x != 0 || b.velocity.y != 0 || b.velocity.z != 0;
    moving = moving || ((b.type == BoundaryKind::moving_wall || b.type == BoundaryKind::inlet) && nonzero);
    inflow = inflow || (b.type == BoundaryKind::inlet && nonzero);
    outlet = outlet || b.type == BoundaryKind::outlet;
    lid = lid || (b.type == BoundaryKind::moving_wall && nonzero);
  }
  const Vec3& f = c.physics.body_force;
  const bool body_force = f.x != 0 || f.y != 0 || f.z != 0;
  // Without LES the wall diffusion source is constant and joins the constant source.
  const bool jacobi = c.numerics.preconditioner == cases::Preconditioner::jacobi;
  // AIP-1 takes the product Gᵀ G on a one-layer mesh's 5-point pattern (7 entries a row against 3 + 3
  // and y for two passes) and two passes on 3D patterns (solvers/aip.hpp).
  const bool one_layer = c.mesh.generator == cases::MeshGenerator::file ? c.mesh.layers == 1 : c.mesh.cells[2] == 1;
  std::uint64_t held = 0;
  if (c.physics.bulk_velocity)
    for (int d = 0; d < 3; ++d) held += (*c.physics.bulk_velocity)[d] != 0;
  return {les,    body_force || inflow || (moving && !les), les && moving, !outlet, jacobi, !jacobi && one_layer,
          lid,    c.numerics.time_step == cases::TimeStepMethod::eigenvalue, c.numerics.max_kappa > 0.5, held};
}

// Expected calls per phase (thesis Table 2.1 rows) for a step whose Poisson solve took k iterations.
std::array<Counts, time::phase_count> expected_counts(const Features& f, std::uint64_t k) {
  const std::uint64_t les = f.les, src = f.constant_source, visc = f.viscous_source, sing = f.singular;
  // The preconditioner apply: AIP z = Gᵀ(G r) is 2 SpMVs, or 1 with the product, Jacobi 1 pointwise
  // product.
  const std::uint64_t pre_spmv = f.jacobi ? 0 : f.aip_product ? 1 : 2, pre_pointwise = f.jacobi ? 1 : 0;
  std::array<Counts, time::phase_count> e{};
  // 1: AB2 extrapolation (3 AXPY), E_C u_s (+ E_D ν_s with LES), C + D (AXPY), R w (one generalized
  // SpMV), per component: sources (AXPY; wall source per unit ν_s: SpMV + AXPY), Ω⁻¹ (pointwise), update
  // (and the κ-scheme's uⁿ⁻¹ term, AXPY; the held flow rate's force, AXPY per held component). With
  // outlets E_C's input clips their inflow first: |u_s|, two AXPY and the outlet mask (pointwise).
  const std::uint64_t kappa = f.kappa_scheme, held = f.held_components, outlet = !f.singular;
  e[0] = {2 + les + 3 * visc, 7 + 3 * src + 3 * visc + 3 * kappa + held + 2 * outlet, 0, 3 + 2 * outlet, 0};
  e[1] = {3, 3, 0, 0, 0};  // 2.1: M Γ uᵖ (3 SpMV, 2 sums) and the M u_bc term
  // 2.2: copy b; mean removal of b, x (and of x at the end) when singular; ‖b‖; r = b − A x, z, fused
  // r·r and r·z, p = z, q = A p with p·q; per iteration the fused CG kernels
  // (operators/kernels/cg_kernels.hpp): the x and r update (with z = D⁻¹ r and r·z for Jacobi; else
  // z = M⁻¹ r and r·z apart), then p = z + β p with q = A p and p·q in one pass.
  const std::uint64_t rz = f.jacobi ? 0 : 1;
  e[2] = {2 + pre_spmv + k * (1 + pre_spmv), 1 + 3 * sing + k, 2 + 3 * sing + rz * k, pre_pointwise, 2};
  e[3] = {3, 3, 0, 0, 0};  // 3: G p and uⁿ⁺¹ = uᵖ − Δt g per component
  e[4] = {2, 2, 0, 0, 0};  // 4: Γ uᵖ (one interleaved SpMV), Gs p; −Δt Gs p, + u_bc
  if (f.les) e[5] = {4, 1, 0, 1, 0};  // 5: ∇u (3 generalized SpMVs), model, Π ν_t, + ν
  // 6: |u_s|, |M| |u_s| (+ the lid's speed), viscous rate; "cfl": their sum, one min ratio;
  // "eigenvalue": a min ratio of each. Before them the held flow rate: U_b (a DOT per held component),
  // the shift of u (AXPY per held component) and of u_s (AXPY).
  const std::uint64_t lid = f.lid, eigen = f.eigenvalue_time_step;
  e[6] = {2, lid + 1 - eigen + (held ? held + 1 : 0), held, 2 + eigen, 0};
  return e;
}

std::vector<std::string> shrinking_overrides(const std::string& name) {
  const auto config = cases::load_case(cases::case_path(name));
  // The counts below are those of the PCG pressure solve (the FFT path has its own kernels).
  const std::string pcg = "numerics.poisson=\"pcg\"";
  std::vector<std::string> overrides = {pcg};
  // AMG's V-cycle has counts of its own (solvers/amg/): the formulas above are AIP's and Jacobi's.
  if (config.numerics.preconditioner == cases::Preconditioner::amg) overrides.push_back("numerics.preconditioner=\"aip1\"");
  if (config.mesh.generator == cases::MeshGenerator::file) {  // the cylinder cases: their coarse mesh
    overrides.push_back("mesh.file=meshes/cylinder_coarse.msh");
    overrides.push_back(config.mesh.layers == 1 ? "mesh.layers=1" : "mesh.layers=4");
  } else {
    overrides.push_back(config.mesh.cells[2] == 1 ? "mesh.cells=[8,8,1]" : "mesh.cells=[8,8,8]");
  }
  return overrides;
}

// Two steps (Euler, then AB2 or the κ-scheme) of `case_name` against the expected counts.
void check_kernel_counts(const std::string& case_name, const std::vector<std::string>& overrides) {
  INFO("case " << case_name);
  Simulation sim = make_simulation(case_name, overrides);
  const Features f = features_of(sim.config);
  CHECK(sim.aip_form == (f.jacobi ? std::nullopt : std::optional(f.aip_product ? AipForm::product : AipForm::two_pass)));
  CHECK(sim.operators->has_sources == f.constant_source);
  CHECK(sim.operators->viscous_source.empty() == !f.viscous_source);
  for (int step = 0; step < 2; ++step) {  // Euler, then AB2 or the κ-scheme
    const KernelCounters before = sim.exec.counters();
    const time::StepReport report = sim.scheme->advance(*sim.fields);
    REQUIRE(report.poisson.iterations > 0);
    const auto expected = expected_counts(f, static_cast<std::uint64_t>(report.poisson.iterations));
    KernelCounters phases;
    for (int p = 0; p < time::phase_count; ++p) {
      INFO("step " << step + 1 << ", sub-step " << name(static_cast<time::Phase>(p)));
      CHECK(calls(report.kernels[p]) == expected[p]);
      phases += report.kernels[p];
    }
    // Every kernel of the step belongs to a sub-step.
    CHECK(calls(sim.exec.counters().since(before)) == calls(phases));
    // The time step's host reads: the held flow rate's DOTs, then one for its limit (both of the
    // eigenvalue method's minima read together).
    CHECK(report.kernels[static_cast<int>(time::Phase::time_step)].host_reads() == 1 + f.held_components);
  }
}

TEST_CASE("Kernel calls per sub-step match the algorithm for every shipped case", "[run][kernels]") {
  for (const std::string& case_name : cases::list_cases()) check_kernel_counts(case_name, shrinking_overrides(case_name));
}

TEST_CASE("The kappa-scheme adds its AXPY per component to the predictor", "[run][kernels]") {
  auto overrides = shrinking_overrides("channel");
  overrides.insert(overrides.end(), {"numerics.time_step=\"eigenvalue\"", "numerics.max_kappa=1"});
  check_kernel_counts("channel", overrides);
}

TEST_CASE("A held bulk velocity adds its force to the predictor and its hold to the time step", "[run][kernels]") {
  auto overrides = shrinking_overrides("channel");
  overrides.push_back("physics.bulk_velocity=[15,0,0]");
  check_kernel_counts("channel", overrides);
  overrides.back() = "physics.bulk_velocity=[3,4,0]";  // two components
  check_kernel_counts("channel", overrides);
}

}  // namespace
}  // namespace miniapp::run::test
