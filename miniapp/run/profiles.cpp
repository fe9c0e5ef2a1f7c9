#include "miniapp/run/profiles.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "mesh/spacing.hpp"
#include "miniapp/output/atomic_file.hpp"

namespace miniapp::run {
namespace {

double component(const Vec3& v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

// Values per bin: coordinate, 3 velocities, pressure, ν_t, 6 stresses, then the volume.
constexpr int values_per_bin = 13;

}  // namespace

Profiles::Profiles(const Simulation& sim) : sim_(sim), axis_(*sim.config.statistics.profile_axis) {
  const cases::MeshConfig& m = sim.config.mesh;
  edges_ = mesh::stretched_coordinates(m.cells[axis_], component(m.origin, axis_), component(m.length, axis_),
                                       m.stretch[axis_]);
  const index_t owned = sim.domain->owned_count();
  for (index_t c = 0; c < owned; ++c) {
    const double x = component(sim.geometry.cell_centroid[c], axis_);
    const auto above = std::upper_bound(edges_.begin(), edges_.end(), x) - edges_.begin();
    bin_of_cell_.push_back(static_cast<index_t>(std::clamp<std::ptrdiff_t>(above - 1, 0, edges_.size() - 2)));
  }
}

std::vector<Profiles::Bin> Profiles::bins(const TimeAverages& averages) const {
  const TimeAverages::Means m = averages.means();
  const std::size_t count = edges_.size() - 1;
  std::vector<double> sums(count * values_per_bin, 0.0);
  for (std::size_t c = 0; c < bin_of_cell_.size(); ++c) {
    const double v = sim_.geometry.cell_volume[c];
    double* s = &sums[static_cast<std::size_t>(bin_of_cell_[c]) * values_per_bin];
    const double values[] = {component(sim_.geometry.cell_centroid[c], axis_), m.velocity[0][c], m.velocity[1][c],
                             m.velocity[2][c], m.pressure[c], m.eddy_viscosity[c], m.stress[0][c], m.stress[1][c],
                             m.stress[2][c], m.stress[3][c], m.stress[4][c], m.stress[5][c]};
    for (int k = 0; k < values_per_bin - 1; ++k) s[k] += v * values[k];
    s[values_per_bin - 1] += v;
  }
  sim_.domain->sum(sums);
  std::vector<Bin> out(count);
  for (std::size_t b = 0; b < count; ++b) {
    const double* s = &sums[b * values_per_bin];
    Bin& bin = out[b];
    bin.volume = s[values_per_bin - 1];
    const double scale = bin.volume > 0 ? 1.0 / bin.volume : 0.0;
    bin.coordinate = bin.volume > 0 ? s[0] * scale : 0.5 * (edges_[b] + edges_[b + 1]);
    for (int d = 0; d < 3; ++d) bin.velocity[d] = s[1 + d] * scale;
    bin.pressure = s[4] * scale;
    bin.eddy_viscosity = s[5] * scale;
    for (int k = 0; k < 6; ++k) bin.stress[k] = s[6 + k] * scale;
  }
  return out;
}

void Profiles::write(const TimeAverages& averages, WallMonitor& walls) const {
  const std::vector<Bin> profile = bins(averages);
  const double weight = averages.weight();
  const double u_tau = walls.friction_velocity(averages.velocity_sums(), weight > 0 ? 1.0 / weight : 0.0);
  if (sim_.rank() != 0) return;
  const double nu = sim_.config.physics.nu, low = edges_.front(), high = edges_.back();
  const double u = u_tau > 0 ? 1.0 / u_tau : 0.0;
  char line[1024];
  std::snprintf(line, sizeof line, "# u_tau %.10g, Re_tau %.10g (half-height / (nu / u_tau)), %ld samples over %.10g time units\n",
                u_tau, 0.5 * (high - low) * u_tau / nu, averages.samples(), weight);
  std::string text = line;
  const char axis = static_cast<char>('x' + axis_);
  text += std::string(1, axis) + "," + std::string(1, axis) +
          "_plus,U,V,W,P,nu_t,uu,vv,ww,uv,vw,uw,U_plus,uu_plus,vv_plus,ww_plus,uv_plus\n";
  for (const Bin& b : profile) {
    const double wall_distance = std::min(b.coordinate - low, high - b.coordinate);
    std::snprintf(line, sizeof line,
                  "%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n",
                  b.coordinate, wall_distance * u_tau / nu, b.velocity[0], b.velocity[1], b.velocity[2], b.pressure,
                  b.eddy_viscosity, b.stress[0], b.stress[1], b.stress[2], b.stress[3], b.stress[4], b.stress[5],
                  b.velocity[0] * u, b.stress[0] * u * u, b.stress[1] * u * u, b.stress[2] * u * u, b.stress[3] * u * u);
    text += line;
  }
  output::write_file_atomically(std::filesystem::path(sim_.config.output.directory) /
                                    (std::string("profile_") + axis + ".csv"), text);
}

}  // namespace miniapp::run
