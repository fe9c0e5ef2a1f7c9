// numerics.preconditioner = "auto": AMG on the PCG path from amg_default_cells up (from
// amg_default_planar_cells on a mesh one cell thick), AIP-1 below, AMG on the FFT path, the choice and
// its reason recorded; an explicit choice is left alone.
#include <catch2/catch.hpp>

#include "miniapp/case/preconditioner_choice.hpp"

using namespace miniapp::cases;

namespace {

NumericsConfig resolved(Preconditioner p, PoissonSolver poisson, long long cells, bool planar = false) {
  NumericsConfig n;
  n.preconditioner = p;
  n.poisson = poisson;
  resolve_preconditioner(n, cells, planar);
  return n;
}

}  // namespace

TEST_CASE("The automatic preconditioner takes AMG on large PCG meshes and the FFT path, AIP-1 elsewhere", "[case]") {
  const NumericsConfig large = resolved(Preconditioner::automatic, PoissonSolver::pcg, amg_default_cells);
  CHECK(large.preconditioner == Preconditioner::amg);
  CHECK(large.preconditioner_choice == "numerics.preconditioner = auto: amg (32768 cells, at least 32768)");
  const NumericsConfig small = resolved(Preconditioner::automatic, PoissonSolver::pcg, amg_default_cells - 1);
  CHECK(small.preconditioner == Preconditioner::aip1);
  CHECK(small.preconditioner_choice == "numerics.preconditioner = auto: aip1 (32767 cells, fewer than 32768)");
  const NumericsConfig fft = resolved(Preconditioner::automatic, PoissonSolver::fft, 100 * amg_default_cells);
  CHECK(fft.preconditioner == Preconditioner::amg);
  CHECK(fft.preconditioner_choice == "numerics.preconditioner = auto: amg (the FFT path's low frequencies)");
  for (const Preconditioner explicit_choice : {Preconditioner::jacobi, Preconditioner::aip2, Preconditioner::amg}) {
    const NumericsConfig n = resolved(explicit_choice, PoissonSolver::pcg, 10 * amg_default_cells);
    CHECK(n.preconditioner == explicit_choice);
    CHECK(n.preconditioner_choice.empty());
  }
}

TEST_CASE("On a mesh one cell thick the automatic preconditioner takes AMG from fewer cells", "[case]") {
  const NumericsConfig cavity = resolved(Preconditioner::automatic, PoissonSolver::pcg, 256 * 256, true);
  CHECK(cavity.preconditioner == Preconditioner::amg);
  CHECK(cavity.preconditioner_choice ==
        "numerics.preconditioner = auto: amg (65536 cells one cell thick, at least 16384)");
  const NumericsConfig small = resolved(Preconditioner::automatic, PoissonSolver::pcg, 64 * 64, true);
  CHECK(small.preconditioner == Preconditioner::aip1);
  CHECK(small.preconditioner_choice ==
        "numerics.preconditioner = auto: aip1 (4096 cells one cell thick, fewer than 16384)");
  CHECK(resolved(Preconditioner::automatic, PoissonSolver::pcg, 128 * 128, true).preconditioner ==
        Preconditioner::amg);
  CHECK(resolved(Preconditioner::automatic, PoissonSolver::pcg, 128 * 128, false).preconditioner ==
        Preconditioner::aip1);

  MeshConfig box;
  box.cells = {256, 256, 1};
  CHECK(one_cell_thick(box));
  box.cells = {1, 64, 64};
  CHECK(one_cell_thick(box));
  box.cells = {32, 32, 2};
  CHECK_FALSE(one_cell_thick(box));
  MeshConfig file;
  file.generator = MeshGenerator::file;
  file.layers = 1;
  CHECK(one_cell_thick(file));
  file.layers = 48;
  CHECK_FALSE(one_cell_thick(file));
  file.layers = 0;  // a 3D file
  CHECK_FALSE(one_cell_thick(file));
}
