#pragma once
// Types and limits shared by the front ends (operators/kernels/) and the backends that implement them
// (cpu/, cuda/), so that neither includes the other's headers for them.
#include "core/types.hpp"

namespace miniapp {

// Vectors one generalized SpMV (spmv_multi) takes at most.
inline constexpr int max_spmv_vectors = 4;
// Dot products one multi_dot fuses at most.
inline constexpr int max_fused_dots = 4;
// Value arrays one energy_forms pass takes at most (with the energy: four sums, one reduction).
inline constexpr int max_energy_forms = 3;

// One sELL matrix with float values, as the backends read it (layout of SellMatrix).
struct SellFloatView {
  index_t rows, cols, slice_height, slice_count;
  const index_t* slice_ptr;
  const index_t* col;
  const float* val;
};

// Plain view handed to the backends: pointers into executor memory. Two passes: z = second (first r)
// through work; one: z = first r (the product), second and work unused.
struct AipFactorView {
  int passes;  // 1 or 2
  SellFloatView first, second;
  double* work;  // y = G r, rows entries (two passes)
};

}  // namespace miniapp
