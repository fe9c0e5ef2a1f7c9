#include "miniapp/case/preconditioner_choice.hpp"

#include <string>

namespace miniapp::cases {

void resolve_preconditioner(NumericsConfig& n, long long cells) {
  if (n.preconditioner != Preconditioner::automatic) return;
  const std::string prefix = "numerics.preconditioner = auto: ";
  if (n.poisson == PoissonSolver::fft) {
    n.preconditioner = Preconditioner::amg;
    n.preconditioner_choice = prefix + "amg (the FFT path's low frequencies)";
    return;
  }
  const bool amg = cells >= amg_default_cells;
  n.preconditioner = amg ? Preconditioner::amg : Preconditioner::aip1;
  n.preconditioner_choice = prefix + (amg ? "amg (" : "aip1 (") + std::to_string(cells) + " cells, " +
                            (amg ? "at least " : "fewer than ") + std::to_string(amg_default_cells) + ")";
}

}  // namespace miniapp::cases
