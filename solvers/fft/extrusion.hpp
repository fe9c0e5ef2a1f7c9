#pragma once
#include <vector>

#include "mesh/geometry.hpp"
#include "mesh/mesh.hpp"
#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::fft {

// A mesh that is one 2D mesh extruded uniformly along a periodic z (thesis §4.2): `planes` (Nper)
// copies of `plane_cells` (N2d) cells, plane k+1 being plane k translated by dz.
struct Extrusion {
  index_t planes = 0;
  index_t plane_cells = 0;
  double dz = 0;
  std::vector<index_t> cell_2d;  // per 3D cell: its 2D cell
  std::vector<index_t> plane;    // per 3D cell: its plane, 0 at the lowest centroid
  // The 3D cell of 2D cell c in plane k at [c · planes + k]: the "1D-block order" of the FFT
  // (periodic index fastest).
  std::vector<index_t> cell_3d;

  index_t at(index_t c, index_t k) const { return cell_3d[static_cast<std::size_t>(c) * planes + k]; }
};

// Decides from the faces whether `mesh` is a uniform periodic extrusion along z: every cell has one
// twin above (an interior face whose owner-to-neighbour centroid vector is (0, 0, dz), periodic shift
// included), dz is the same everywhere, one periodic link translates by Nper · dz along z, every
// column closes after Nper planes, and Nper is even (the real-to-complex FFT path pairs k and Nper − k).
// Throws miniapp::Error naming the first condition that fails (and the cell, where there is one).
// Lengths are compared to 1e-9 of the periodic length.
Extrusion detect_extrusion(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry);

// The 3D Laplacian of an extruded mesh split as L = L2d ⊗ I + diag(w) ⊗ Lper (thesis eq. 4.14,
// with Lper the periodic 1D second difference, stencil [1, −2, 1]):
// - in_plane (L2d, N2d × N2d): the couplings between cells of one plane, its diagonal L_ii + 2 w_i so
//   that outlet terms stay in it;
// - z_coupling (w, N2d): A_f / δn_f of the faces between planes (L's entry to the twin above).
struct PlaneOperator {
  CsrMatrix in_plane;
  std::vector<double> z_coupling;
  // The rows of L2d sum to zero (no outlet): the k = 0 system has the constants as null space.
  bool singular = false;
};

// Splits L (a finite-volume Laplacian of fv::laplacian_matrix, cells in mesh order). Throws
// miniapp::Error when L couples cells more than one plane apart or its coefficients differ between
// planes (relative 1e-9 of the row's diagonal): then no 2D operator represents it.
PlaneOperator split_extruded_operator(const CsrMatrix& l, const Extrusion& extrusion);

// λk = −4 sin²(π k / Nper): the eigenvalue of Lper for the Fourier mode e^{2πi k j / Nper}
// (thesis eq. 4.18); 0 ≤ k < Nper.
double periodic_eigenvalue(index_t k, index_t planes);

}  // namespace miniapp::fft
