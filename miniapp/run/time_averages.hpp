#pragma once
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "miniapp/output/checkpoint.hpp"
#include "miniapp/run/simulation.hpp"

namespace miniapp::run {

// The time averages of [statistics], accumulated on the executor by AXPY-family kernels (one per sum):
// Σ w u_d, Σ w p, Σ w ν_t (with an LES model) and Σ w u_i u_j over the samples from statistics.start_time on, each sample weighted by the
// simulated time since the previous one (the first: since start_time). Means and Reynolds stresses
// ⟨u_i' u_j'⟩ = ⟨u_i u_j⟩ − ⟨u_i⟩⟨u_j⟩ are formed on the host when written.
class TimeAverages {
 public:
  // Products in VTK's symmetric-tensor order: xx, yy, zz, xy, yz, xz.
  static constexpr std::array<std::array<int, 2>, 6> stress_pairs{{{0, 0}, {1, 1}, {2, 2}, {0, 1}, {1, 2}, {0, 2}}};

  explicit TimeAverages(const Simulation& sim);

  // Adds the current fields when due: at or after start_time, on a multiple of sample_interval.
  // Whether it did (queued its kernels).
  bool sample(const time::FlowFields& f);

  long samples() const { return samples_; }
  // Σ w u_d on the executor (the mean is the sum / weight()).
  std::array<const Vector*, 3> velocity_sums() const { return {&velocity_[0], &velocity_[1], &velocity_[2]}; }
  double weight() const { return weight_; }  // Σ w: the averaged span of time

  // Owned cells' means in output_mesh() order (zeros before the first sample).
  struct Means {
    std::array<std::vector<double>, 3> velocity;
    std::vector<double> pressure, eddy_viscosity;
    std::array<std::vector<double>, 6> stress;  // stress_pairs order
  };
  Means means() const;

  // The sums and the sampling state as named checkpoint arrays, and back (bitwise). A checkpoint
  // without them (statistics switched on for the restart) leaves the averages empty.
  void save(std::vector<std::pair<std::string, std::vector<double>>>& arrays) const;
  void restore(const output::CheckpointData& data);

 private:
  // The sums with their checkpoint names (for a const or a mutable *this).
  template <class Self>
  static auto named_sums(Self& self);

  const Simulation& sim_;
  double start_time_;
  long long interval_;
  std::array<Vector, 3> velocity_;
  Vector pressure_, eddy_viscosity_;
  std::array<Vector, 6> products_;
  double weight_ = 0, last_time_;
  long samples_ = 0;
};

}  // namespace miniapp::run
