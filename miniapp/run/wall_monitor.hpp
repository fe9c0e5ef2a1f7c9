#pragma once
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "miniapp/output/series_writer.hpp"
#include "miniapp/run/cell_sampler.hpp"
#include "miniapp/time/result_batch.hpp"

namespace miniapp::run {

// Per wall patch: the friction velocity u_τ = sqrt(⟨τ_w⟩) (area-weighted mean of the wall shear
// stress τ_w = ν |u_t| / d, u_t the tangential velocity of the wall cell relative to the wall, d the
// distance of its centroid from the face) and y⁺ = d sqrt(τ_w) / ν of the first cells (area-weighted
// mean and maximum).
struct WallQuantities {
  double friction_velocity = 0, yplus_mean = 0, yplus_max = 0;
};

// The force of the fluid on a patch: Σ p A n (n out of the fluid) and Σ ν A u_t / d.
struct PatchForce {
  Vec3 pressure{0, 0, 0}, viscous{0, 0, 0};
};

// The wall patches' quantities (a diagnostics row's columns) and the forces of [forces.<patch>]
// (forces_<patch>.csv), from the cells beside the wall faces. Collective. The wall quantities are
// reduced on the executor (wall_shear, then every patch's sums and maximum, read with the row's other
// results), so that a wall's faces never travel to the host; the forces' faces, a few thousand on a
// body, are summed on the host.
class WallMonitor {
 public:
  WallMonitor(const Simulation& sim, std::optional<long> restart_step);

  // utau_<patch>, yplus_mean_<patch>, yplus_max_<patch> per wall patch.
  std::vector<std::string> diagnostics_columns() const;
  // Entries of a ResultBatch that queue takes: per wall patch its two sums and its maximum.
  index_t results() const { return 3 * static_cast<index_t>(wall_names_.size()); }
  // Queues the wall quantities of the current fields into `batch`, which other observers share.
  void queue(const time::FlowFields& f, time::ResultBatch& batch);
  // Once `batch` is read: appends the wall quantities of the fields queue was given to `row` and writes
  // the forces' lines (rank 0; collective).
  void record(const time::FlowFields& f, const time::ResultBatch& batch, std::vector<double>& row);

  // Of a velocity given by its components times `scale` (e.g. time-averaged sums and 1/Σw); per wall
  // patch, in diagnostics_columns()'s order; forces too when `pressure` is given.
  struct Evaluation {
    std::vector<WallQuantities> walls;
    std::vector<PatchForce> forces;  // per [forces.<patch>]
  };
  Evaluation evaluate(const std::array<const Vector*, 3>& velocity, const Vector* pressure, double scale);

  // u_τ over all wall patches together (area-weighted), for wall units; 0 without walls.
  double friction_velocity(const std::array<const Vector*, 3>& velocity, double scale);

 private:
  // Every wall face of this rank on the executor, patch after patch: the faces of wall w are entries
  // [first_[w], first_[w + 1]) of each vector.
  struct WallFaces {
    std::vector<index_t> first;
    std::optional<CellSampler> cells;
    Vector area, distance, tau, yplus;
    std::array<Vector, 3> normal, wall_velocity, velocity;
  };
  // The faces of the patches with forces, on the host.
  struct ForceFace {
    int forces;  // index into sim.config.forces
    double area, distance;
    Vec3 normal, wall_velocity;
  };
  // Per wall w, into `batch`: Σ A τ and Σ A y⁺ at 2w and 2w + 1, its maximum of y⁺ at 2 · walls + w
  // (nothing when this rank has no wall face).
  void queue_walls(const std::array<const Vector*, 3>& velocity, double scale, time::ResultBatch& batch);
  // The quantities queue_walls queued, once `batch` is read (collective).
  std::vector<WallQuantities> wall_quantities(const time::ResultBatch& batch);
  // Both, with a host read of their own.
  std::vector<WallQuantities> wall_quantities(const std::array<const Vector*, 3>& velocity, double scale);
  std::vector<PatchForce> forces(const std::array<const Vector*, 3>& velocity, const Vector& pressure,
                                 double scale);

  const Simulation& sim_;
  double nu_;
  std::vector<std::string> wall_names_;
  std::vector<double> wall_area_;  // per wall patch, over all ranks
  WallFaces walls_;
  time::ResultBatch::Slot queued_;  // the last queue_walls's entries
  std::vector<ForceFace> force_faces_;
  std::optional<CellSampler> force_cells_;
  std::vector<std::unique_ptr<output::SeriesWriter>> force_files_;  // rank 0
};

}  // namespace miniapp::run
