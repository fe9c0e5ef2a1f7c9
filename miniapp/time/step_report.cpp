#include "miniapp/time/step_report.hpp"

namespace miniapp::time {

std::string_view name(Phase phase) {
  constexpr std::string_view names[] = {"1 predictor",      "2.1 Poisson rhs",   "2.2 Poisson solve",
                                        "3 correction",     "4 face velocity",   "5 eddy viscosity",
                                        "6 time step"};
  return names[static_cast<int>(phase)];
}

}  // namespace miniapp::time
