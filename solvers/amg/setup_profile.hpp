#pragma once
#include <array>
#include <chrono>
#include <iosfwd>
#include <string_view>

namespace miniapp::amg {

// The stages of the AMG set-up, in the order they run on each level: what the start-up report times.
enum class SetupStage { checks, aggregation, spectral_bound, prolongation, galerkin, coarse_inverse, conversion, upload };
inline constexpr int setup_stage_count = 8;
std::string_view name(SetupStage stage);

// Wall seconds per stage, summed over the levels.
struct SetupProfile {
  std::array<double, setup_stage_count> seconds{};
  double& operator[](SetupStage s) { return seconds[static_cast<int>(s)]; }
  double operator[](SetupStage s) const { return seconds[static_cast<int>(s)]; }
  double total() const;
};

// Adds the wall time from its construction to its destruction to one stage of a profile.
class StageClock {
 public:
  StageClock(SetupProfile& profile, SetupStage stage)
      : seconds_(profile[stage]), start_(std::chrono::steady_clock::now()) {}
  ~StageClock() { seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  StageClock(const StageClock&) = delete;
  StageClock& operator=(const StageClock&) = delete;

 private:
  double& seconds_;
  std::chrono::steady_clock::time_point start_;
};

// One line per stage, "    aggregation                 0.123 s", as the start-up report prints its stages.
void print_setup_profile(const SetupProfile& profile, std::ostream& out);

}  // namespace miniapp::amg
