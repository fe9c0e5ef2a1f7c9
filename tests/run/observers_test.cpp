// The observers on fields set by hand, whose forces, wall quantities, probe values and averages are
// known exactly.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <iomanip>
#include <map>
#include <sstream>

#include "miniapp/run/forces_summary.hpp"
#include "miniapp/run/probes.hpp"
#include "miniapp/run/profiles.hpp"
#include "miniapp/run/signal_period.hpp"
#include "miniapp/run/wall_monitor.hpp"
#include "miniapp/time/flow_diagnostics.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "tests/run/run_test_support.hpp"

namespace miniapp::run::test {
namespace {

// A field of the cell centroids, uploaded in the operators' order.
void set_field(const Simulation& sim, const std::function<double(const Vec3&)>& value, Vector& out) {
  std::vector<double> host;
  for (index_t c = 0; c < sim.domain->owned_count(); ++c) host.push_back(value(sim.geometry.cell_centroid[c]));
  from_mesh_order(sim, host, out);
}

TEST_CASE("forces and wall quantities of a shear flow and a uniform pressure", "[run][observers]") {
  ScratchDir dir("observers_forces");
  constexpr double a = 3.0, p0 = 2.5;
  // 8 × 4 cells: the side walls have half the faces of the others (patches of unequal lengths).
  Simulation sim = make_simulation("cavity", {"mesh.cells=[8,4,1]", "forces.ymin.reference_area=1",
                                              "output.directory=" + dir.path().string()});
  auto& f = *sim.fields;
  set_field(sim, [&](const Vec3& x) { return a * x.y; }, f.u[0]);  // u = a y: τ_w = ν a at y = 0
  fill(sim.exec, 0.0, f.u[1]);
  fill(sim.exec, 0.0, f.u[2]);
  fill(sim.exec, p0, f.pressure);
  WallMonitor walls(sim, std::nullopt);
  const auto e = walls.evaluate({&f.u[0], &f.u[1], &f.u[2]}, &f.pressure, 1.0);
  const double nu = sim.config.physics.nu, area = 1.0 * 0.015625;  // the ymin patch: x length × z length
  REQUIRE(e.forces.size() == 1);
  CHECK(e.forces[0].pressure.y == Approx(-p0 * area));  // n out of the fluid: −y
  CHECK(e.forces[0].pressure.x == Approx(0).margin(1e-15));
  CHECK(e.forces[0].viscous.x == Approx(nu * a * area));
  CHECK(e.forces[0].viscous.y == Approx(0).margin(1e-15));
  const auto columns = walls.diagnostics_columns();
  REQUIRE(columns.size() == 12);  // four wall patches
  const auto at = std::find(columns.begin(), columns.end(), "utau_ymin") - columns.begin();
  REQUIRE(at % 3 == 0);
  const WallQuantities& ymin = e.walls[at / 3];
  CHECK(ymin.friction_velocity == Approx(std::sqrt(nu * a)));
  CHECK(ymin.yplus_mean == Approx(0.125 * std::sqrt(nu * a) / nu));  // first centroid at h/2 = 1/8
  CHECK(ymin.yplus_max == Approx(ymin.yplus_mean));

  // The lid (ymax) moves at (1, 0, 0): its first cells' centroids at y = 7/8 slip by a 7/8 − 1.
  const auto lid = std::find(columns.begin(), columns.end(), "utau_ymax") - columns.begin();
  const double slip = std::abs(a * 7.0 / 8.0 - 1.0);
  CHECK(e.walls[lid / 3].friction_velocity == Approx(std::sqrt(nu * slip / 0.125)));
  // On the side walls the flow is normal to the wall: no shear.
  const auto side = std::find(columns.begin(), columns.end(), "utau_xmin") - columns.begin();
  CHECK(e.walls[side / 3].friction_velocity == Approx(0).margin(1e-12));
  CHECK(e.walls[side / 3].yplus_max == Approx(0).margin(1e-12));
}

TEST_CASE("probes reproduce a linear field between centroids and refuse points outside", "[run][observers]") {
  ScratchDir dir("observers_probes");
  const std::vector<std::string> base{"mesh.cells=[8,8,1]", "output.directory=" + dir.path().string()};
  auto with = base;
  with.push_back("probes.p1_inner.position=[0.4, 0.55, 0.005]");
  with.push_back("probes.p2_centroid.position=[0.6875, 0.1875, 0.0078125]");
  Simulation sim = make_simulation("cavity", with);
  auto& f = *sim.fields;
  const auto linear = [](const Vec3& x) { return 1 + 2 * x.x + 3 * x.y; };
  set_field(sim, linear, f.u[0]);
  set_field(sim, [](const Vec3& x) { return x.x * x.y; }, f.u[1]);
  fill(sim.exec, 0.0, f.u[2]);
  fill(sim.exec, -1.0, f.pressure);
  Probes probes(sim, std::nullopt);
  time::ResultBatch batch(sim.exec, probes.results());
  probes.queue(f, batch);
  batch.read();
  const std::vector<double> v = probes.values(batch);
  REQUIRE(v.size() == 8);
  CHECK(v[0] == Approx(linear({0.4, 0.55, 0})).epsilon(1e-12));  // interior cell, off its centroid
  CHECK(v[3] == Approx(-1.0));
  CHECK(v[4] == Approx(linear({0.6875, 0.1875, 0})).epsilon(1e-12));  // at a centroid: the cell value
  CHECK(v[5] == Approx(0.6875 * 0.1875).epsilon(1e-12));

  auto outside = base;
  outside.push_back("probes.far.position=[1.5, 0.5, 0.005]");
  Simulation far = make_simulation("cavity", outside);
  CHECK_THROWS_WITH(Probes(far, std::nullopt),
                    Catch::Contains("probes.far.position") && Catch::Contains("outside the mesh"));
}

TEST_CASE("time averages and profiles of two known samples", "[run][observers]") {
  ScratchDir dir("observers_profiles");
  Simulation sim = make_simulation("channel", {"mesh.cells=[4,6,4]", "statistics.start_time=1",
                                               "statistics.sample_interval=1", "statistics.profile_axis=\"y\"",
                                               "output.directory=" + dir.path().string()});
  auto& f = *sim.fields;
  TimeAverages averages(sim);
  const auto take = [&](double time, double shift) {
    f.time = time;
    f.step += 1;
    set_field(sim, [&](const Vec3& x) { return x.y + shift; }, f.u[0]);
    set_field(sim, [&](const Vec3&) { return 2 * shift; }, f.u[1]);
    fill(sim.exec, 0.0, f.u[2]);
    fill(sim.exec, shift, f.pressure);
    averages.sample(f);
  };
  take(0.5, 7.0);  // before start_time: not a sample
  take(2.0, 0.0);  // weight 1 (since start_time)
  take(3.0, 2.0);  // weight 1
  CHECK(averages.samples() == 2);
  CHECK(averages.weight() == 2.0);
  // Means y + 1 and 2, pressure 1; ⟨u'u'⟩ = ⟨v'v'⟩ = 1 and 4, ⟨u'v'⟩ = 2.
  const Profiles profiles(sim);
  const auto bins = profiles.bins(averages);
  REQUIRE(bins.size() == 6);
  for (const auto& b : bins) {
    CHECK(b.velocity[0] == Approx(b.coordinate + 1));
    CHECK(b.velocity[1] == Approx(2.0));
    CHECK(b.pressure == Approx(1.0));
    CHECK(b.stress[0] == Approx(1.0));
    CHECK(b.stress[1] == Approx(4.0));
    CHECK(b.stress[3] == Approx(2.0));
    CHECK(b.stress[2] == Approx(0).margin(1e-12));
  }
  CHECK(bins.front().coordinate < bins.back().coordinate);
}

TEST_CASE("the summary bills rows and samples to the observers, one kernel per sum of a sample", "[run][observers]") {
  ScratchDir dir("observers_summary");
  constexpr long steps = 4;
  const auto run = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> overrides{"mesh.cells=[8,8,8]", "run.max_steps=" + std::to_string(steps),
                                       "output.fields=[]", "output.directory=" + dir.path().string()};
    overrides.insert(overrides.end(), extra.begin(), extra.end());
    Simulation sim = make_simulation("taylor-green-3d", overrides);
    return run_quietly(sim);
  };
  const RunSummary plain = run({});
  const RunSummary sampled = run({"statistics.start_time=0", "statistics.sample_interval=1"});
  const RunSummary modelled =
      run({"statistics.start_time=0", "statistics.sample_interval=1", "physics.les=\"smagorinsky\""});
  const RunSummary modelled_plain = run({"physics.les=\"smagorinsky\""});
  for (const RunSummary* s : {&plain, &sampled, &modelled}) {
    CHECK(s->row_seconds > 0);
    CHECK(s->checkpoint_seconds > 0);  // the one at the end: not an observer
    CHECK(s->step_seconds + s->observer_seconds() + s->output_seconds + s->checkpoint_seconds <= s->wall_seconds);
  }
  const auto calls = [](const RunSummary& s) { return s.monitor_kernels.total().calls; };
  // u, v, w, p and the six products; ν_t only with a model.
  CHECK(calls(sampled) - calls(plain) == 10 * steps);
  CHECK(calls(modelled) - calls(modelled_plain) == 11 * steps);
}

TEST_CASE("diagnostics rows every N steps, and one for the last step whatever N", "[run][observers]") {
  ScratchDir dir("observers_last_row");
  Simulation sim = make_simulation("taylor-green-3d", {"mesh.cells=[8,8,8]", "run.max_steps=7", "output.fields=[]",
                                                       "output.diagnostics_interval=3",
                                                       "output.directory=" + dir.path().string()});
  run_quietly(sim);
  std::ifstream file(dir.path() / "diagnostics.csv");
  std::string line;
  std::vector<long> steps;
  std::getline(file, line);  // the header
  while (std::getline(file, line)) steps.push_back(std::stol(line.substr(0, line.find(','))));
  CHECK(steps == std::vector<long>{3, 6, 7});
}

// A CSV file with a header line as {column: values}; "nan" reads as NaN.
std::map<std::string, std::vector<double>> read_csv_columns(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::string line, cell;
  std::getline(file, line);
  std::vector<std::string> names;
  for (std::istringstream header(line); std::getline(header, cell, ',');) names.push_back(cell);
  std::map<std::string, std::vector<double>> columns;
  while (std::getline(file, line)) {
    std::istringstream row(line);
    for (const std::string& name : names)
      if (std::getline(row, cell, ',')) columns[name].push_back(std::stod(cell));
  }
  return columns;
}

TEST_CASE("enstrophy and max_div on the steps of their own interval, the budget on every row", "[run][observers]") {
  ScratchDir dir("observers_enstrophy_interval");
  Simulation sim = make_simulation("taylor-green-3d", {"mesh.cells=[8,8,8]", "run.max_steps=7", "output.fields=[]",
                                                       "output.enstrophy_divergence_interval=3",
                                                       "output.directory=" + dir.path().string()});
  run_quietly(sim);
  const auto columns = read_csv_columns(dir.path() / "diagnostics.csv");
  REQUIRE(columns.at("step").size() == 7);
  for (std::size_t row = 0; row < 7; ++row) {
    CAPTURE(row);
    const bool due = (row + 1) % 3 == 0;  // steps 3 and 6, not the last (7): a restart's rows stay the same
    CHECK(std::isnan(columns.at("enstrophy")[row]) == !due);
    CHECK(std::isnan(columns.at("max_div")[row]) == !due);
    if (due) CHECK(columns.at("enstrophy")[row] > 0);
    CHECK(columns.at("viscous_dissipation")[row] > 0);
    CHECK(std::isfinite(columns.at("numerical_dissipation")[row]));
  }
}

TEST_CASE("with an LES model the enstrophy and the output's gradient come from the step's gradient, the same values",
          "[run][observers]") {
  ScratchDir dir("observers_les_enstrophy");
  Simulation sim = make_simulation("taylor-green-3d", {"mesh.cells=[8,8,8]", "run.max_steps=3", "output.fields=[]",
                                                       "physics.les=\"smagorinsky\"",
                                                       "output.enstrophy_divergence_interval=1",
                                                       "output.directory=" + dir.path().string()});
  REQUIRE(sim.scheme->velocity_gradient());
  run_quietly(sim);
  const double written = read_csv_columns(dir.path() / "diagnostics.csv").at("enstrophy").back();
  // A FlowDiagnostics of its own takes the derivatives itself: a stale or misindexed step gradient
  // would differ by far more than round-off.
  time::FlowDiagnostics own(sim.exec, *sim.operators, *sim.domain, sim.config.physics.nu);
  const auto afresh = own.evaluate(*sim.fields);
  REQUIRE(afresh.enstrophy);
  CHECK(written > 0);
  CHECK(written == Approx(*afresh.enstrophy).epsilon(1e-13));
  // The gradient the output writes: the step's arrays themselves, equal to the derivatives taken afresh.
  time::FlowDiagnostics with_step(sim.exec, *sim.operators, *sim.domain, sim.config.physics.nu,
                                  sim.scheme->velocity_gradient());
  std::array<std::vector<double>, 9> step, fresh;
  const auto to_host = [](std::array<std::vector<double>, 9>& g, const std::array<Vector, 9>* expected) {
    return [&g, expected](int b, const time::FlowDiagnostics::GradientColumn& column) {
      for (int a = 0; a < 3; ++a) {
        if (expected) CHECK(column[a] == &(*expected)[3 * a + b]);
        g[3 * a + b] = column[a]->to_host();
      }
    };
  };
  with_step.for_each_gradient_column(*sim.fields, to_host(step, sim.scheme->velocity_gradient()));
  own.for_each_gradient_column(*sim.fields, to_host(fresh, nullptr));
  for (int k = 0; k < 9; ++k) {
    CAPTURE(k);
    REQUIRE(step[k].size() == fresh[k].size());
    for (std::size_t c = 0; c < step[k].size(); ++c) REQUIRE(step[k][c] == fresh[k][c]);
  }
}

// The mesh cell of `sim` whose centroid is nearest to `point`.
index_t nearest_cell(const Simulation& sim, const Vec3& point) {
  index_t nearest = 0;
  const auto distance = [&](index_t c) { return norm(sim.geometry.cell_centroid[c] - point); };
  for (index_t c = 1; c < sim.domain->owned_count(); ++c)
    if (distance(c) < distance(nearest)) nearest = c;
  return nearest;
}

// `p` as a TOML array whose numbers read back exactly.
std::string toml_point(const Vec3& p) {
  std::ostringstream out;
  out << std::setprecision(17) << "[" << p.x << ", " << p.y << ", " << p.z << "]";
  return out.str();
}

TEST_CASE("a row's energy, wall quantities and probes, read back together, are each observer's own values",
          "[run][observers]") {
  ScratchDir dir("observers_one_read");
  const std::vector<std::string> mesh{"mesh.cells=[8,8,1]", "output.directory=" + dir.path().string()};
  // Probes at two cells' centroids exactly, where the interpolation's gradient terms are 0: the cells' values.
  const Simulation plain = make_simulation("cavity", mesh);
  const index_t cell_a = nearest_cell(plain, {0.6875, 0.1875, 0}), cell_b = nearest_cell(plain, {0.3125, 0.8125, 0});
  std::vector<std::string> overrides = mesh;
  overrides.insert(overrides.end(), {"run.max_steps=3", "output.fields=[]", "output.enstrophy_divergence_interval=3",
                                     "forces.ymax.reference_area=1",
                                     "probes.a.position=" + toml_point(plain.geometry.cell_centroid[cell_a]),
                                     "probes.b.position=" + toml_point(plain.geometry.cell_centroid[cell_b])});
  Simulation sim = make_simulation("cavity", overrides);
  const RunSummary summary = run_quietly(sim);
  // One host read per row for the diagnostics', the walls' and the probes' results; the forces' faces
  // travel on their own.
  CHECK(summary.monitor_kernels.host_reads() == 2 * 3);

  // The last row is of the fields the run ends with. At a centroid a probe gives the cell's value, exactly.
  const auto& f = *sim.fields;
  const auto probes = read_csv_columns(dir.path() / "probes.csv");
  REQUIRE(probes.at("step").size() == 3);
  const std::pair<const char*, const Vector*> fields[] = {{"_u", &f.u[0]}, {"_v", &f.u[1]}, {"_w", &f.u[2]}, {"_p", &f.pressure}};
  for (const auto& [suffix, field] : fields) {
    CAPTURE(suffix);
    const std::vector<double> values = to_mesh_order(sim, *field);
    CHECK(probes.at(std::string("a") + suffix).back() == values[static_cast<std::size_t>(cell_a)]);
    CHECK(probes.at(std::string("b") + suffix).back() == values[static_cast<std::size_t>(cell_b)]);
  }
  CHECK(probes.at("b_u").back() != 0.0);  // the lid's flow has reached the probe

  // The diagnostics and the wall quantities as observers of their own evaluate them: bitwise the same.
  const auto diagnostics = read_csv_columns(dir.path() / "diagnostics.csv");
  time::FlowDiagnostics own(sim.exec, *sim.operators, *sim.domain, sim.config.physics.nu);
  const time::FlowIntegrals afresh = own.evaluate(f);
  CHECK(diagnostics.at("kinetic_energy").back() == afresh.kinetic_energy);
  CHECK(diagnostics.at("enstrophy").back() == *afresh.enstrophy);
  CHECK(diagnostics.at("max_div").back() == *afresh.max_divergence);
  WallMonitor walls(sim, std::nullopt);
  const auto e = walls.evaluate({&f.u[0], &f.u[1], &f.u[2]}, nullptr, 1.0);
  const auto columns = walls.diagnostics_columns();
  for (std::size_t k = 0; k < columns.size(); ++k) {
    CAPTURE(columns[k]);
    const WallQuantities& w = e.walls[k / 3];
    const double expected[] = {w.friction_velocity, w.yplus_mean, w.yplus_max};
    CHECK(diagnostics.at(columns[k]).back() == expected[k % 3]);
  }
  CHECK(diagnostics.at("utau_ymax").back() > 0);
}

TEST_CASE("the Strouhal frequency of a sampled sine", "[run][observers]") {
  std::vector<double> t, v;
  constexpr double f = 0.165, dt = 0.05;
  for (int i = 0; i < 2000; ++i) t.push_back(i * dt), v.push_back(0.1 + 0.33 * std::sin(2 * M_PI * f * i * dt + 0.3));
  const auto period = signal_period(t, v);
  REQUIRE(period);
  CHECK(period->frequency == Approx(f).epsilon(1e-3));
  CHECK(period->amplitude == Approx(0.33).epsilon(1e-3));
  CHECK(period->mean == Approx(0.1).margin(0.01));  // over 16.5 periods, not a whole number
  CHECK(period->periods >= 15);
  CHECK(period->spectrum_peak == Approx(f).epsilon(2e-3));
  CHECK_FALSE(signal_period(std::span(t).first(100), std::span(v).first(100)));  // under two periods
}

TEST_CASE("The forces summary gives the Strouhal number both ways, with its digits", "[run][observers]") {
  ScratchDir dir("observers_forces_summary");
  const Simulation sim = make_simulation("cavity", {"mesh.cells=[8,8,1]", "forces.ymin.reference_area=1",
                                                    "output.directory=" + dir.path().string()});
  {  // a lift at St 0.165 (U = L = 1) over 20 periods, as WallMonitor writes it
    std::ofstream csv(dir.path() / "forces_ymin.csv");
    csv << "step,time,pressure_x,pressure_y,pressure_z,viscous_x,viscous_y,viscous_z,cd,cl\n";
    for (int i = 0; i <= 2400; ++i) {
      const double t = 0.05 * i;
      csv << i << "," << t << ",0,0,0,0,0,0,1.25," << 0.3 * std::sin(2 * M_PI * 0.165 * t) << "\n";
    }
  }
  std::ostringstream out;
  out << std::fixed << std::setprecision(0);  // what an earlier line may have left behind
  print_forces_summary(sim.config, out);
  INFO(out.str());
  CHECK_THAT(out.str(), Catch::Matchers::Contains("mean Cd 1.25,") && Catch::Matchers::Contains("St 0.165") &&
                            Catch::Matchers::Contains("(the lift spectrum's peak)"));
  const std::string spectral = out.str().substr(out.str().find("lift), ") + 7);
  CHECK(std::stod(spectral) == Approx(0.165).epsilon(2e-3));
}

TEST_CASE("The lift spectrum's peak finds a wandering frequency under ripples that the crossings count",
          "[run][observers]") {
  // A turbulent wake's lift: the shedding's phase wanders over the record, and faster ripples cross the
  // mean near each of its crossings.
  std::vector<double> t, v;
  constexpr double f = 0.21, dt = 0.02;
  for (int i = 0; i < 3000; ++i) {
    const double x = i * dt, wander = 0.4 * std::sin(2 * M_PI * x / 240) - 0.3 * std::sin(2 * M_PI * 3 * x / 240);
    t.push_back(x), v.push_back(std::sin(2 * M_PI * f * x + wander) + 0.3 * std::sin(2 * M_PI * 1.3 * x));
  }
  const auto period = signal_period(t, v);
  REQUIRE(period);
  CHECK(period->frequency > 1.2 * f);
  CHECK(period->spectrum_peak == Approx(f).epsilon(0.03));
}

}  // namespace
}  // namespace miniapp::run::test
