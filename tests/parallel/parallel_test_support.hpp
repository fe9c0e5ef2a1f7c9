#pragma once
#include <random>
#include <string>

#include "mesh/generators.hpp"
#include "operators/sparse/csr_matrix.hpp"
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

}  // namespace miniapp::test
