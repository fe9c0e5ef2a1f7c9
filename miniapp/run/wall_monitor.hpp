#pragma once
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "miniapp/output/series_writer.hpp"
#include "miniapp/run/cell_sampler.hpp"

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
// (forces_<patch>.csv), from the cells beside the wall faces, sampled on the executor. Collective.
// The patches with forces are sampled on every row (their forces make a time series); the others only
// on the rows that ask for all walls, since each face's sample travels to the host.
class WallMonitor {
 public:
  WallMonitor(const Simulation& sim, std::optional<long> restart_step);

  // utau_<patch>, yplus_mean_<patch>, yplus_max_<patch> per wall patch.
  std::vector<std::string> diagnostics_columns() const;
  // Appends the wall quantities of the current fields to `row` (nan for the patches without forces
  // unless `all_walls`), and writes the forces' lines (rank 0).
  void record(const time::FlowFields& f, std::vector<double>& row, bool all_walls);

  // Of a velocity given by its components times `scale` (e.g. time-averaged sums and 1/Σw); per wall
  // patch, in diagnostics_columns()'s order; forces too when `pressure` is given.
  struct Evaluation {
    std::vector<WallQuantities> walls;
    std::vector<PatchForce> forces;  // per [forces.<patch>]
  };
  Evaluation evaluate(const std::array<const Vector*, 3>& velocity, const Vector* pressure, double scale,
                      bool all_walls = true);

  // u_τ over all wall patches together (area-weighted), for wall units; 0 without walls.
  double friction_velocity(const std::array<const Vector*, 3>& velocity, double scale);

 private:
  struct Face {
    int wall;         // index into wall_names_
    int forces;       // index into sim.config.forces, or -1
    double area, distance;
    Vec3 normal, wall_velocity;
  };
  // The faces of one sampling schedule, with their sampler.
  struct FaceGroup {
    std::vector<Face> faces;
    std::optional<CellSampler> sampler;
  };
  // Adds the group's faces to the per-wall sums (Σ A τ, Σ A y⁺, Σ A), maxima and force sums.
  void accumulate(FaceGroup& group, const std::array<const Vector*, 3>& velocity, const Vector* pressure,
                  double scale, std::vector<double>& sums, std::vector<double>& maxima) const;

  const Simulation& sim_;
  double nu_;
  std::vector<std::string> wall_names_;
  std::vector<bool> wall_has_forces_;
  FaceGroup force_walls_, other_walls_;
  std::vector<std::unique_ptr<output::SeriesWriter>> force_files_;  // rank 0
};

}  // namespace miniapp::run
