#pragma once
#include <algorithm>

#include "core/types.hpp"

// Where the CPU's sELL kernels (spmv.cpp with double values, aip_kernels.cpp with float ones) put the
// products of `m` consecutive rows from row0, for vector j: the plain SpMV stores them; a fused SpMV
// hands each to its epilogue (operators/backend/spmv_epilogue.hpp).
namespace miniapp::cpu {

struct PlainStore {
  double* const* y;
  void operator()(int j, index_t row0, const double* acc, index_t m) const { std::copy_n(acc, m, y[j] + row0); }
};

template <class Epilogue>
struct EpilogueStore {
  Epilogue epilogue;
  void operator()(int, index_t row0, const double* acc, index_t m) const {
    for (index_t r = 0; r < m; ++r) epilogue(row0 + r, acc[r]);
  }
};

}  // namespace miniapp::cpu
