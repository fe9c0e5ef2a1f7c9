#pragma once
// What the CPU's AVX2 sELL kernels (spmv.cpp, aip_kernels.cpp) share: whether the processor has AVX2
// and FMA, and two ways to read x[col[0..3]] into one vector. x86-64 with GCC or Clang only: the
// kernels are compiled for AVX2 by target attributes and chosen at run time, so that the default
// build stays portable (no -march).
#if defined(__x86_64__) && defined(__GNUC__)
#define MINIAPP_X86_AVX2 1
#include <immintrin.h>

#include "core/types.hpp"

namespace miniapp::cpu {

inline bool cpu_has_avx2_fma() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}

// x[col[0..3]] by one vgatherdpd, which takes the 32-bit column indices as they are stored.
struct GatheredX {
  __attribute__((target("avx2"))) static __m256d load(const double* x, const index_t* col) {
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(col));
    // The masked form with an explicit zero source: GCC 12 warns that the unmasked one reads an
    // uninitialised register (it does not; same instruction).
    const __m256d all = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
    return _mm256_mask_i32gather_pd(_mm256_setzero_pd(), x, c, all, 8);
  }
};

// The same values by four scalar loads.
struct LoadedX {
  __attribute__((target("avx2"))) static __m256d load(const double* x, const index_t* col) {
    return _mm256_set_pd(x[col[3]], x[col[2]], x[col[1]], x[col[0]]);
  }
};

// Calls f(LoadedX{}) on AMD processors and f(GatheredX{}) on others. Both read the same values, so a
// kernel's sums do not depend on the choice; its speed does, by vendor (docs/performance.md): AMD's
// cores issue the four loads faster than the gather while x is in cache, Intel's the gather.
template <class F>
void with_x_loads(F&& f) {
  static const bool amd = __builtin_cpu_is("amd");
  if (amd) f(LoadedX{});
  else f(GatheredX{});
}

}  // namespace miniapp::cpu
#endif
