#pragma once
#include <vector>

#include "miniapp/run/time_averages.hpp"
#include "miniapp/run/wall_monitor.hpp"

namespace miniapp::run {

// Profiles along statistics.profile_axis of the time averages, averaged over the two other
// (periodic, homogeneous) axes: one bin per layer of the generated box, each cell in the layer that
// holds its centroid, volume-weighted. Written to <output>/profile_<axis>.csv (rank 0, atomically), in
// wall units too with u_τ of the mean wall shear stress.
class Profiles {
 public:
  explicit Profiles(const Simulation& sim);

  // One bin's volume-weighted means.
  struct Bin {
    double coordinate = 0, volume = 0;
    double velocity[3] = {0, 0, 0}, pressure = 0, eddy_viscosity = 0;
    double stress[6] = {0, 0, 0, 0, 0, 0};  // TimeAverages::stress_pairs order
  };
  // The bins of the current averages (collective).
  std::vector<Bin> bins(const TimeAverages& averages) const;
  // Writes the file (collective; rank 0 writes).
  void write(const TimeAverages& averages, WallMonitor& walls) const;

 private:
  const Simulation& sim_;
  int axis_;
  std::vector<double> edges_;  // the box's node coordinates along the axis
  std::vector<index_t> bin_of_cell_;  // per owned cell
};

}  // namespace miniapp::run
