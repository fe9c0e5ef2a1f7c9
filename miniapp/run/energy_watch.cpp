#include "miniapp/run/energy_watch.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace miniapp::run {

VelocityScale largest_velocity_scale(const cases::CaseConfig& config) {
  const cases::PhysicsConfig& p = config.physics;
  VelocityScale largest{std::abs(p.reference_velocity), "physics.reference_velocity"};
  const auto consider = [&largest](double speed, std::string source) {
    if (speed > largest.speed) largest = {speed, std::move(source)};
  };
  for (const auto& b : config.boundaries) consider(norm(b.velocity), "boundary." + b.patch + ".velocity");
  if (config.initial.type == cases::InitialType::uniform) consider(norm(config.initial.velocity), "initial.velocity");
  if (p.bulk_velocity) consider(norm(*p.bulk_velocity), "physics.bulk_velocity");
  if (p.nu > 0)
    consider(norm(p.body_force) * p.reference_length * p.reference_length / p.nu,
             "physics.body_force (its laminar velocity |f| L² / nu, L = physics.reference_length)");
  return largest;
}

EnergyWatch::EnergyWatch(VelocityScale scale, double volume)
    : scale_(std::move(scale)), volume_(volume), scale_energy_(0.5 * volume * scale_.speed * scale_.speed) {}

double EnergyWatch::reference() const { return std::max(scale_energy_, first_energy_.value_or(0)); }

std::string EnergyWatch::record(long step, double kinetic_energy) {
  if (!first_energy_) first_energy_ = kinetic_energy;
  if (recent_.size() == window) recent_.pop_front();
  recent_.push_back({step, kinetic_energy});
  if (!(kinetic_energy > limit())) return "";
  const Row low = *std::min_element(recent_.begin(), recent_.end(),
                                    [](const Row& a, const Row& b) { return a.energy < b.energy; });
  std::ostringstream why;
  why.precision(4);
  why << "the kinetic energy ran away: " << kinetic_energy << ", " << kinetic_energy / reference()
      << " times the most this case allows (" << reference() << ": the larger of the first row's "
      << *first_energy_ << " and ½ V U² = " << scale_energy_ << " with V = " << volume_ << " and U = " << scale_.speed
      << " from " << scale_.source << ")";
  if (low.step < step && low.energy > 0)
    why << "; it grew " << kinetic_energy / low.energy << "-fold in " << step - low.step << " steps, from "
        << low.energy << " at step " << low.step;
  return why.str();
}

}  // namespace miniapp::run
