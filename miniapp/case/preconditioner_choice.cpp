#include "miniapp/case/preconditioner_choice.hpp"

#include <algorithm>
#include <string>

namespace miniapp::cases {

bool one_cell_thick(const MeshConfig& mesh) {
  if (mesh.generator == MeshGenerator::file) return mesh.layers == 1;
  return std::count(mesh.cells.begin(), mesh.cells.end(), 1) > 0;
}

void resolve_preconditioner(NumericsConfig& n, long long cells, bool planar) {
  if (n.preconditioner != Preconditioner::automatic) return;
  const std::string prefix = "numerics.preconditioner = auto: ";
  if (n.poisson == PoissonSolver::fft) {
    n.preconditioner = Preconditioner::amg;
    n.preconditioner_choice = prefix + "amg (the FFT path's low frequencies)";
    return;
  }
  const long long threshold = planar ? amg_default_planar_cells : amg_default_cells;
  const bool amg = cells >= threshold;
  n.preconditioner = amg ? Preconditioner::amg : Preconditioner::aip1;
  n.preconditioner_choice = prefix + (amg ? "amg (" : "aip1 (") + std::to_string(cells) + " cells" +
                            (planar ? " one cell thick, " : ", ") + (amg ? "at least " : "fewer than ") +
                            std::to_string(threshold) + ")";
}

}  // namespace miniapp::cases
