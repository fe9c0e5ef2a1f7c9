#pragma once
#include "operators/sparse/csr_matrix.hpp"
#include "parallel/local_numbering.hpp"

namespace miniapp::bench {

// A rank's piece of a synthetic distributed operator for the multi-rank benchmarks: the 7-point
// Laplacian (Dirichlet walls, so SPD) of an nx × ny × (ranks · nz) grid cut into z-slabs, rank r owning
// planes [r nz, (r + 1) nz). Each rank builds only its own slab (no global mesh, no METIS), so the
// benchmarks reach sizes that the mesh-based set-up cannot: the numbering puts the inner planes first,
// then the interface planes (those next to another rank), then the halo planes (one per neighbour).
struct SlabOperator {
  parallel::LocalNumbering numbering;
  CsrMatrix matrix;  // local_count² , halo rows empty
};

// `cells_per_rank` is rounded to nx = ny = n and nz ≥ 2 with n² nz ≈ cells_per_rank.
SlabOperator slab_laplacian(long long cells_per_rank, int rank, int ranks);

}  // namespace miniapp::bench
