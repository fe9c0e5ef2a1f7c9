#include "solvers/amg/setup_profile.hpp"

#include <iomanip>
#include <numeric>
#include <ostream>

namespace miniapp::amg {

std::string_view name(SetupStage stage) {
  constexpr std::string_view names[setup_stage_count] = {
      "checks", "aggregation", "lambda_max", "prolongation", "Galerkin RAP", "coarse inverse", "sELL conversion",
      "upload"};
  return names[static_cast<int>(stage)];
}

double SetupProfile::total() const { return std::accumulate(seconds.begin(), seconds.end(), 0.0); }

void print_setup_profile(const SetupProfile& profile, std::ostream& out) {
  for (int s = 0; s < setup_stage_count; ++s)
    out << "    " << std::left << std::setw(26) << name(static_cast<SetupStage>(s)) << std::right << std::fixed
        << std::setprecision(3) << profile.seconds[s] << " s\n"
        << std::defaultfloat;
}

}  // namespace miniapp::amg
