#pragma once
// The rules of the aggregation and of the weak links' filter, shared by the host code (aggregation.cpp,
// prolongation.cpp) and the device code (cuda/aggregation.cu, cuda/level_kernels.cu), which make the
// same aggregates and filtered matrices from them.
#include <cstdint>

#include "core/types.hpp"
#include "operators/backend/host_device.hpp"

namespace miniapp::amg {

// A well-mixed 64-bit hash of an integer (the splitmix64 finalizer): pseudo-random priorities and
// start vectors that depend on the index alone.
MINIAPP_HOST_DEVICE inline std::uint64_t mix_bits(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

namespace aggregation_rules {

// A row not (yet) in an aggregate.
inline constexpr index_t free_row = -1;

// A row's state in the independent-set rounds: chosen (the largest value), excluded (0), or still
// undecided, its value a hashed priority with the row index in the low bits (so no two are equal).
inline constexpr std::uint64_t chosen = ~std::uint64_t{0}, excluded = 0;

MINIAPP_HOST_DEVICE inline std::uint64_t priority(index_t i) {
  return (mix_bits(static_cast<std::uint64_t>(i)) >> 33 << 32 | static_cast<std::uint64_t>(i)) + 1;
}

MINIAPP_HOST_DEVICE inline bool undecided(std::uint64_t state) { return state != chosen && state != excluded; }

// A row left free by the first roots becomes a root of its own with at least this many free strong
// neighbours. Measured on closed boxes (docs/amg.md): 2 or 3 gave more, smaller aggregates (operator
// complexity up to 2.2 on tetrahedra) for at most one iteration less; 5 kept the complexity of the
// sequential aggregation it replaced, within one iteration on hex, tet and prism meshes.
inline constexpr int second_root_neighbours = 5;

// The strength test |a_ij| ≥ θ √(a_ii a_jj) failed, in squares (no root per entry), the products in
// this order on both sides.
MINIAPP_HOST_DEVICE inline bool weak_link(double a_ij, double a_ii, double a_jj, double threshold_squared) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a_ij, a_ij) < __dmul_rn(__dmul_rn(threshold_squared, a_ii), a_jj);
#else
  return a_ij * a_ij < threshold_squared * a_ii * a_jj;
#endif
}

// How strongly a left-over row is linked to neighbour j: a_ij² / a_jj (a_ii is common to the row).
// Each operation rounded on its own on both sides (no fused multiply-add).
MINIAPP_HOST_DEVICE inline double join_strength(double a_ij, double a_jj) {
#ifdef __CUDA_ARCH__
  return __ddiv_rn(__dmul_rn(a_ij, a_ij), a_jj);
#else
  return a_ij * a_ij / a_jj;
#endif
}

}  // namespace aggregation_rules
}  // namespace miniapp::amg
