#pragma once
#include <random>
#include <string>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "operators/fv/laplacian.hpp"
#include "operators/sparse/csr_matrix.hpp"
#include "parallel/local_numbering.hpp"
#include "parallel/partition.hpp"

// Meshes and operators of the MPI tests: identical on every rank (same generator, same seed).
namespace miniapp::test {

// A small hex or tet box, periodic on every axis or on none; a few hundred to a thousand cells.
inline mesh::Mesh test_box(const std::string& kind, bool periodic) {
  mesh::BoxSpec spec;
  spec.cells = kind == "hex" ? std::array<index_t, 3>{10, 9, 8} : std::array<index_t, 3>{5, 5, 4};
  spec.periodic = {periodic, periodic, periodic};
  return kind == "hex" ? mesh::make_hex_box(spec) : mesh::make_tet_box(spec);
}

// A non-symmetric operator on the face graph: diagonal plus one entry per face neighbour, random
// values in [-1, 1] (so a wrong column mapping changes the product).
inline CsrMatrix random_graph_operator(const parallel::CellGraph& g, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<Triplet> t;
  for (index_t c = 0; c < g.cell_count(); ++c) {
    t.push_back({c, c, value(gen)});
    for (index_t nb : g.neighbours_of(c)) t.push_back({c, nb, value(gen)});
  }
  return csr_from_triplets(g.cell_count(), g.cell_count(), std::move(t));
}

// −L of a mesh, assembled on the whole mesh (singular where no boundary fixes the pressure).
inline CsrMatrix minus_laplacian(const mesh::Mesh& m) {
  CsrMatrix a = fv::laplacian_matrix(m, mesh::compute_geometry(m));
  for (auto& v : a.val) v = -v;
  return a;
}

// The owned rows of `global` on a square local matrix (halo rows empty), as a rank holds it.
inline CsrMatrix local_square(const CsrMatrix& global, const parallel::LocalNumbering& n) {
  CsrMatrix a = parallel::local_rows(global, n);
  a.rows = n.local_count();
  a.row_ptr.resize(static_cast<std::size_t>(a.rows) + 1, a.row_ptr.back());
  return a;
}

}  // namespace miniapp::test
