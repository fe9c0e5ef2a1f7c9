#pragma once
// Shared by the CPU and CUDA tests of the FFT path's batched kernels: the SpMV with pᵀq over two spans
// of tiles (the inner tiles while a halo update travels, then the rest) against one call.
#include <catch2/catch.hpp>

#include <algorithm>

#include "solvers/fft/batched_kernels.hpp"
#include "solvers/fft/batched_pcg.hpp"
#include "tests/fft/fft_test_support.hpp"

namespace miniapp::test {

// On `exec`, over the tiles [0, split) then [split, count): after the first call the later tiles'
// rows are untouched; after both, y and the partials are those of one call bit for bit.
inline void check_two_tile_spans(const Executor& exec, const fft::PlaneOperator& op, const std::vector<double>& shifts,
                                 index_t owned, fft::SystemRange range, index_t split) {
  const index_t S = static_cast<index_t>(shifts.size()), n = op.in_plane.rows;
  const std::size_t size = static_cast<std::size_t>(n) * S;
  const fft::ShiftedSystems m(exec, op.in_plane, op.z_coupling, shifts);
  const fft::RowTiles all = fft::row_tiles(exec.backend(), n);
  const Vector p = Vector::from_host(exec, random_vector(size, 21));
  const auto q0 = random_vector(size, 22);
  const auto partials0 = random_vector(static_cast<std::size_t>(fft::batched_partials_size(exec.backend(), n, S)), 23);
  Vector q_one = Vector::from_host(exec, q0), q_two = Vector::from_host(exec, q0);
  Vector partials_one = Vector::from_host(exec, partials0), partials_two = Vector::from_host(exec, partials0);
  fft::batched_shifted_spmv_dot(exec, m.view(), p, q_one, S, range, owned, partials_one);
  fft::batched_shifted_spmv_dot(exec, m.view(), p, q_two, S, range, owned, partials_two, {0, split});
  const auto half = q_two.to_host();
  const auto later = static_cast<std::ptrdiff_t>(std::min(n, split * all.rows_per_tile) * S);
  CHECK(std::equal(half.begin() + later, half.end(), q0.begin() + later));
  fft::batched_shifted_spmv_dot(exec, m.view(), p, q_two, S, range, owned, partials_two, {split, all.count});
  CHECK(q_two.to_host() == q_one.to_host());
  CHECK(partials_two.to_host() == partials_one.to_host());
}

}  // namespace miniapp::test
