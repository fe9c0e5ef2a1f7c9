#include "miniapp/run/time_averages.hpp"

#include <algorithm>

#include "operators/kernels/vector_ops.hpp"

namespace miniapp::run {
namespace {

constexpr const char* state_name = "statistics_state";  // Σ w, samples, time of the last sample

}  // namespace

TimeAverages::TimeAverages(const Simulation& sim)
    : sim_(sim), start_time_(sim.config.statistics.start_time), interval_(sim.config.statistics.sample_interval),
      last_time_(sim.config.statistics.start_time) {
  const index_t cells = sim.cells();
  const auto zero = [&] {
    Vector v(sim.exec, cells);
    fill(sim.exec, 0.0, v);
    return v;
  };
  for (auto& v : velocity_) v = zero();
  pressure_ = zero();
  eddy_viscosity_ = zero();
  for (auto& v : products_) v = zero();
}

bool TimeAverages::sample(const time::FlowFields& f) {
  if (f.step % interval_ != 0 || f.time < start_time_) return false;
  const double w = f.time - std::max(last_time_, start_time_);
  if (!(w > 0)) return false;
  for (int d = 0; d < 3; ++d) axpby(sim_.exec, w, f.u[d], 1.0, velocity_[d]);
  axpby(sim_.exec, w, f.pressure, 1.0, pressure_);
  // Without a model ν_t is 0 everywhere: its sum stays 0.
  if (sim_.config.physics.les != LesModel::none) axpby(sim_.exec, w, f.eddy_viscosity, 1.0, eddy_viscosity_);
  for (std::size_t k = 0; k < stress_pairs.size(); ++k)
    accumulate_product(sim_.exec, w, f.u[stress_pairs[k][0]], f.u[stress_pairs[k][1]], products_[k]);
  weight_ += w;
  samples_ += 1;
  last_time_ = f.time;
  return true;
}

TimeAverages::Means TimeAverages::means() const {
  const double scale = weight_ > 0 ? 1.0 / weight_ : 0.0;
  const auto mean = [&](const Vector& sum) {
    std::vector<double> v = to_mesh_order(sim_, sum);
    for (double& x : v) x *= scale;
    return v;
  };
  Means m;
  for (int d = 0; d < 3; ++d) m.velocity[d] = mean(velocity_[d]);
  m.pressure = mean(pressure_);
  m.eddy_viscosity = mean(eddy_viscosity_);
  for (std::size_t k = 0; k < stress_pairs.size(); ++k) {
    m.stress[k] = mean(products_[k]);
    const auto& a = m.velocity[stress_pairs[k][0]];
    const auto& b = m.velocity[stress_pairs[k][1]];
    for (std::size_t i = 0; i < a.size(); ++i) m.stress[k][i] -= a[i] * b[i];
  }
  return m;
}

template <class Self>
auto TimeAverages::named_sums(Self& self) {
  using Pointer = decltype(&self.pressure_);
  std::vector<std::pair<std::string, Pointer>> out{{"statistics_sum_u", &self.velocity_[0]},
                                                   {"statistics_sum_v", &self.velocity_[1]},
                                                   {"statistics_sum_w", &self.velocity_[2]},
                                                   {"statistics_sum_pressure", &self.pressure_},
                                                   {"statistics_sum_eddy_viscosity", &self.eddy_viscosity_}};
  const char* names[] = {"uu", "vv", "ww", "uv", "vw", "uw"};  // stress_pairs order
  for (std::size_t k = 0; k < self.products_.size(); ++k)
    out.emplace_back(std::string("statistics_sum_") + names[k], &self.products_[k]);
  return out;
}

void TimeAverages::save(std::vector<std::pair<std::string, std::vector<double>>>& arrays) const {
  for (const auto& [name, sum] : named_sums(*this)) arrays.emplace_back(name, to_mesh_order(sim_, *sum));
  arrays.emplace_back(state_name, std::vector<double>{weight_, static_cast<double>(samples_), last_time_});
}

void TimeAverages::restore(const output::CheckpointData& data) {
  if (!data.find(state_name)) return;
  const auto cells = static_cast<std::size_t>(sim_.domain->owned_count());
  for (const auto& [name, sum] : named_sums(*this)) from_mesh_order(sim_, data.array(name, cells), *sum);
  const std::vector<double>& state = data.array(state_name, 3);
  weight_ = state[0];
  samples_ = static_cast<long>(state[1]);
  last_time_ = state[2];
}

}  // namespace miniapp::run
