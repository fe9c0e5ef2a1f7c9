#pragma once
#include <deque>
#include <optional>
#include <string>

#include "miniapp/case/case_config.hpp"

namespace miniapp::run {

// The largest velocity that the case's settings give its flow, and which setting gives it: the
// reference velocity, the moving walls' and inlets' speeds, the uniform initial velocity, the held
// bulk velocity, and for a body force f over the reference length L its laminar velocity |f| L² / ν
// (twice a Poiseuille channel's centre-line speed: a driven flow without turbulent drag).
struct VelocityScale {
  double speed = 0;
  std::string source;  // e.g. "physics.reference_velocity", "boundary.lid.velocity"
};
VelocityScale largest_velocity_scale(const cases::CaseConfig& config);

// Watches the kinetic energy of the run's diagnostics rows for a runaway: an energy more than
// `growth_limit` times the most the case allows, the larger of ½ V U² (V the domain's volume, U the
// largest velocity scale) and the first row's energy (the initial field's, e.g. a turbulent start or
// Taylor–Green vortices). An incompressible flow driven by those scales stays near them; a scheme past
// its stability limit grows without bound, where the CFL number of the face velocity (which the
// runaway modes of the cell velocity need not reach) may stay moderate. Host arithmetic only.
class EnergyWatch {
 public:
  static constexpr double growth_limit = 4;  // a root-mean-square velocity twice the largest scale
  static constexpr std::size_t window = 64;  // rows remembered, to say how fast the energy grew

  EnergyWatch(VelocityScale scale, double volume);

  // Records the kinetic energy of step `step`'s row; returns what ran away and by how much ("" when the
  // energy is within the limit), e.g. "the kinetic energy ran away: 361.5, 4.51 times ...".
  std::string record(long step, double kinetic_energy);
  // The energy above which a row is a runaway (before the first row: from the scale alone).
  double limit() const { return growth_limit * reference(); }

 private:
  double reference() const;

  VelocityScale scale_;
  double volume_;
  double scale_energy_;                 // ½ V U²
  std::optional<double> first_energy_;  // of this run's first row
  struct Row {
    long step;
    double energy;
  };
  std::deque<Row> recent_;  // the last `window` rows, oldest first
};

}  // namespace miniapp::run
