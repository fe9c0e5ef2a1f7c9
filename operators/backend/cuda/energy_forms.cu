// The energy and the budget's quadratic forms (operators/kernels/energy_forms.hpp): one row per
// thread of a grid-stride loop, the row's entries in stored order (a warp reads 32 consecutive values
// and indices per entry of the column-major slice, streamed: read once) with the three components'
// midpoints gathered from u and u_old, then one grid-wide sum of the K values (block_sum.cuh) into
// `out`. The grid depends on
// n only and each sum keeps its order whatever K, so the energy of a call without values equals that
// of a full one bitwise.
#include "operators/backend/cuda/block_sum.cuh"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/launch.cuh"
#include "operators/backend/cuda/reduction_workspace.cuh"
#include "operators/backend/kernel_types.hpp"

namespace miniapp::cuda {
namespace {

using detail::block_size;

// Resident blocks per SM: as the dot kernels.
constexpr int forms_blocks_per_sm = 4;

struct FormArrays {
  int k;  // full forms
  const double* values[max_energy_forms];
  const double* diagonal;  // or null
  const double* u[3];
  const double* u_old[3];
};

// Adds row `row`'s form terms into sum[1..], as the CPU's chunk_sums and add_chunk: one pass over the
// row's stored entries (each column and value loaded once for the three components), values[0] split
// into its off-diagonal part per component and its diagonal, the further forms in full, the diagonal
// array's diagonal entry (summed: a padding entry in the diagonal's column holds 0).
template <int K>
__device__ inline void add_row_forms(const SellView& a, const FormArrays& p, index_t row, double (&sum)[K]) {
  double off_diagonal[3] = {}, full[max_energy_forms][3] = {};
  double diagonal0 = 0.0, diagonal = 0.0;
  const index_t h = a.slice_height, s = row / h;
  const std::int64_t end = __ldg(a.slice_ptr + s + 1);
  for (std::int64_t e = __ldg(a.slice_ptr + s) + row % h; e < end; e += h) {
    const index_t c = __ldcs(a.col + e);
    const bool on_diagonal = c == row;
    const double v0 = __ldcs(p.values[0] + e);
    diagonal0 += on_diagonal ? v0 : 0.0;
    if (p.diagonal && on_diagonal) diagonal += __ldg(p.diagonal + e);
#pragma unroll
    for (int d = 0; d < 3; ++d) {
      const double x = 0.5 * (__ldg(p.u[d] + c) + __ldg(p.u_old[d] + c));
      off_diagonal[d] += on_diagonal ? 0.0 : v0 * x;
#pragma unroll
      for (int v = 1; v < max_energy_forms; ++v)
        if (v < p.k) full[v][d] += __ldcs(p.values[v] + e) * x;
    }
  }
#pragma unroll
  for (int d = 0; d < 3; ++d) {
    const double mid = 0.5 * (p.u[d][row] + p.u_old[d][row]);
    sum[1] += mid * (off_diagonal[d] + diagonal0 * mid);
#pragma unroll
    for (int v = 1; v + 1 < K; ++v) {
      if (v < p.k) sum[1 + v] += mid * full[v][d];
      else if (v == p.k) sum[1 + v] += mid * (off_diagonal[d] + diagonal * mid);
    }
  }
}

template <int K>
__global__ void __launch_bounds__(block_size)
    energy_forms_kernel(SellView a, FormArrays p, const double* w, index_t n, double* partial, unsigned* blocks_done,
                        double* out) {
  double sum[K] = {};
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = detail::global_thread(); i < n; i += stride) {
    const auto row = static_cast<index_t>(i);
#pragma unroll
    for (int d = 0; d < 3; ++d) sum[0] += w[row] * (p.u[d][row] * p.u[d][row]);
    if constexpr (K > 1) add_row_forms(a, p, row, sum);
  }
  detail::grid_sum(sum, partial, static_cast<int>(gridDim.x), blocks_done, [&](const double* total) {
#pragma unroll
    for (int k = 0; k < K; ++k) out[k] = total[k];
  });
}

template <int K>
void launch(cudaStream_t stream, const SellView& a, const FormArrays& p, const double* w, index_t n,
            const detail::ReductionWorkspace& ws, double* out) {
  const unsigned blocks = std::min(detail::grid_stride_blocks(n, forms_blocks_per_sm),
                                   static_cast<unsigned>(detail::max_reduction_blocks));
  energy_forms_kernel<K><<<blocks, block_size, 0, stream>>>(a, p, w, n, ws.d_partial, ws.d_blocks_done, out);
  MINIAPP_CUDA_CHECK_LAUNCH("energy_forms_kernel");
}

}  // namespace

void energy_forms(void* stream, const SellView& a, int k, const double* const* values, const double* diagonal,
                  const double* const* u, const double* const* u_old, const double* w, index_t n, double* out) {
  static_assert(max_energy_forms + 1 <= detail::max_reduction_pairs);
  const cudaStream_t s = detail::as_stream(stream);
  const int sums = 1 + k + (diagonal ? 1 : 0);
  if (n == 0) {
    MINIAPP_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(double) * sums, s));
    return;
  }
  FormArrays p{};
  p.k = k;
  for (int v = 0; v < k; ++v) p.values[v] = values[v];
  p.diagonal = diagonal;
  for (int d = 0; d < 3; ++d) p.u[d] = u[d], p.u_old[d] = u_old[d];
  const detail::ReductionWorkspace& ws = detail::reduction_workspace(stream);
  switch (sums) {
    case 1: launch<1>(s, a, p, w, n, ws, out); break;
    case 2: launch<2>(s, a, p, w, n, ws, out); break;
    case 3: launch<3>(s, a, p, w, n, ws, out); break;
    default: launch<4>(s, a, p, w, n, ws, out); break;
  }
}

}  // namespace miniapp::cuda
