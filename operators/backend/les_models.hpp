#pragma once
// Per-cell math of the pointwise flow kernels (operators/kernels/flow_kernels.hpp), compiled by the
// host compiler for the CPU backend and by nvcc for the CUDA backend from this one source, so both
// backends evaluate the same expressions in the same order.
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/error.hpp"
#include "core/physics.hpp"

#include "operators/backend/host_device.hpp"

namespace miniapp::les {

// The nine components g_ab = ∂u_a/∂x_b of one cell, row-major (g[3a + b]).
struct CellGradient {
  double g[9];
};

// Pointers to the nine gradient component vectors, by value so that a CUDA kernel can take them.
struct GradientPointers {
  const double* component[9];

  MINIAPP_HOST_DEVICE CellGradient at(std::int64_t i) const {
    CellGradient c;
    for (int k = 0; k < 9; ++k) c.g[k] = component[k][i];
    return c;
  }
};

// Symmetric 3×3 matrix: its diagonal and upper triangle.
struct Symmetric3 {
  double xx, yy, zz, xy, xz, yz;
};

// S:S with S = ½(g + gᵀ).
MINIAPP_HOST_DEVICE inline double strain_squared(const CellGradient& c) {
  const double* g = c.g;
  const double sxy = 0.5 * (g[1] + g[3]), sxz = 0.5 * (g[2] + g[6]), syz = 0.5 * (g[5] + g[7]);
  return g[0] * g[0] + g[4] * g[4] + g[8] * g[8] + 2.0 * (sxy * sxy + sxz * sxz + syz * syz);
}

// g:g, the squared Frobenius norm.
MINIAPP_HOST_DEVICE inline double gradient_squared(const CellGradient& c) {
  double sum = 0.0;
  for (int k = 0; k < 9; ++k) sum += c.g[k] * c.g[k];
  return sum;
}

MINIAPP_HOST_DEVICE inline double determinant(const CellGradient& c) {
  const double* g = c.g;
  return g[0] * (g[4] * g[8] - g[5] * g[7]) - g[1] * (g[3] * g[8] - g[5] * g[6]) +
         g[2] * (g[3] * g[7] - g[4] * g[6]);
}

// Sᵈ:Sᵈ of WALE, Sᵈ = ½(g² + g²ᵀ) − ⅓ tr(g²) I.
MINIAPP_HOST_DEVICE inline double traceless_square_squared(const CellGradient& c) {
  const double* g = c.g;
  double h[9];  // g²
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) h[3 * a + b] = g[3 * a] * g[b] + g[3 * a + 1] * g[3 + b] + g[3 * a + 2] * g[6 + b];
  const double third_trace = (h[0] + h[4] + h[8]) / 3.0;
  const double dx = h[0] - third_trace, dy = h[4] - third_trace, dz = h[8] - third_trace;
  const double sxy = 0.5 * (h[1] + h[3]), sxz = 0.5 * (h[2] + h[6]), syz = 0.5 * (h[5] + h[7]);
  return dx * dx + dy * dy + dz * dz + 2.0 * (sxy * sxy + sxz * sxz + syz * syz);
}

// B_β / Δ⁴ of Vreman: the sum of the principal 2×2 minors of gᵀg, which by Cauchy–Binet is the sum
// of the squares of all nine 2×2 minors of g. That form has no cancellation between minors, unlike
// β11β22 − β12², so it stays accurate for nearly rank-one gradients.
MINIAPP_HOST_DEVICE inline double vreman_invariant(const CellGradient& c) {
  const double* g = c.g;
  double sum = 0.0;
  for (int a = 0; a < 2; ++a)
    for (int b = a + 1; b < 3; ++b)
      for (int i = 0; i < 2; ++i)
        for (int j = i + 1; j < 3; ++j) {
          const double minor = g[3 * a + i] * g[3 * b + j] - g[3 * a + j] * g[3 * b + i];
          sum += minor * minor;
        }
  return sum;
}

// G = gᵀg, G_ij = Σ_a g_ai g_aj.
MINIAPP_HOST_DEVICE inline Symmetric3 gram(const CellGradient& c) {
  const double* g = c.g;
  auto col_dot = [g](int i, int j) { return g[i] * g[j] + g[3 + i] * g[3 + j] + g[6 + i] * g[6 + j]; };
  return {col_dot(0, 0), col_dot(1, 1), col_dot(2, 2), col_dot(0, 1), col_dot(0, 2), col_dot(1, 2)};
}

MINIAPP_HOST_DEVICE inline void sort_descending(double& a, double& b, double& c) {
  auto order = [](double& hi, double& lo) {
    if (hi < lo) {
      const double t = hi;
      hi = lo;
      lo = t;
    }
  };
  order(a, b);
  order(b, c);
  order(a, b);
}

// Eigenvalues l0 ≥ l1 ≥ l2 of the symmetric m, closed form (Smith 1961): with q = tr(m)/3 and
// p = sqrt(|m − qI|²/6), they are q + 2p cos(φ + 2πk/3), 3φ = acos(det(m − qI) / 2p³). The cosine
// argument is clamped to [−1, 1], where rounding can push it for repeated eigenvalues; a diagonal m
// (which includes m = qI, p = 0) is read off exactly. Accuracy: ε‖m‖, except that the split of two
// nearly equal eigenvalues is only good to about √ε p (acos is ill-conditioned at ±1); for Sigma that
// means ν_t ≈ 1e-8 (CΔ)²σ1 instead of 0 there, far below any modelling error.
MINIAPP_HOST_DEVICE inline void symmetric_eigenvalues(const Symmetric3& m, double& l0, double& l1, double& l2) {
  const double off = m.xy * m.xy + m.xz * m.xz + m.yz * m.yz;
  if (off == 0.0) {
    l0 = m.xx, l1 = m.yy, l2 = m.zz;
  } else {
    const double q = (m.xx + m.yy + m.zz) / 3.0;
    const double dx = m.xx - q, dy = m.yy - q, dz = m.zz - q;
    const double p = sqrt((dx * dx + dy * dy + dz * dz + 2.0 * off) / 6.0);
    const double det =
        dx * (dy * dz - m.yz * m.yz) - m.xy * (m.xy * dz - m.yz * m.xz) + m.xz * (m.xy * m.yz - dy * m.xz);
    const double r = fmin(fmax(det / (2.0 * p * p * p), -1.0), 1.0);
    const double phi = acos(r) / 3.0;
    constexpr double two_pi_third = 2.0943951023931954923;
    l0 = q + 2.0 * p * cos(phi);
    l2 = q + 2.0 * p * cos(phi + two_pi_third);
    l1 = 3.0 * q - l0 - l2;
  }
  sort_descending(l0, l1, l2);
}

// σ3 (σ1 − σ2)(σ2 − σ3) / σ1² of the singular values σ1 ≥ σ2 ≥ σ3 of g (0 for g = 0). σ1, σ2 are the
// square roots of the eigenvalues of gᵀg (negatives from rounding clamped to 0); σ3 comes from
// |det g| = σ1σ2σ3 instead, because the smallest eigenvalue of gᵀg is a difference of O(σ1²) terms
// whose rounding error would dominate √λ3 for nearly singular g. It is exactly 0 for a 2D gradient.
MINIAPP_HOST_DEVICE inline double sigma_operator(const CellGradient& c) {
  double l0, l1, l2;
  symmetric_eigenvalues(gram(c), l0, l1, l2);
  const double s1 = sqrt(fmax(l0, 0.0)), s2 = sqrt(fmax(l1, 0.0));
  if (s2 == 0.0) return 0.0;  // rank ≤ 1: σ3 = 0 (this also covers g = 0)
  const double s3 = fmin(fabs(determinant(c)) / (s1 * s2), s2);
  return s3 * (s1 - s2) * (s2 - s3) / (s1 * s1);
}

// ν_t of model M at one cell (formulas in operators/kernels/flow_kernels.hpp); `c` the model
// constant, `delta` the filter width. Zero where the model's denominator vanishes (g = 0).
template <LesModel M>
MINIAPP_HOST_DEVICE double eddy_viscosity(double c, const CellGradient& g, double delta) {
  const double cd2 = (c * delta) * (c * delta);
  if constexpr (M == LesModel::smagorinsky) {
    return cd2 * sqrt(2.0 * strain_squared(g));
  } else if constexpr (M == LesModel::wale) {
    const double ss = strain_squared(g), dd = traceless_square_squared(g);
    const double denominator = ss * ss * sqrt(ss) + dd * sqrt(sqrt(dd));
    return denominator > 0.0 ? cd2 * dd * sqrt(dd) / denominator : 0.0;
  } else if constexpr (M == LesModel::vreman) {
    const double gg = gradient_squared(g);
    return gg > 0.0 ? c * delta * delta * sqrt(vreman_invariant(g) / gg) : 0.0;
  } else if constexpr (M == LesModel::sigma) {
    return cd2 * sigma_operator(g);
  } else {
    return 0.0;
  }
}

// Calls f(std::integral_constant<LesModel, M>{}) for the run-time `model`, so that each backend
// instantiates one loop per model instead of branching per cell. Host only.
template <class F>
void with_model(LesModel model, F&& f) {
  switch (model) {
    case LesModel::none: f(std::integral_constant<LesModel, LesModel::none>{}); return;
    case LesModel::smagorinsky: f(std::integral_constant<LesModel, LesModel::smagorinsky>{}); return;
    case LesModel::wale: f(std::integral_constant<LesModel, LesModel::wale>{}); return;
    case LesModel::vreman: f(std::integral_constant<LesModel, LesModel::vreman>{}); return;
    case LesModel::sigma: f(std::integral_constant<LesModel, LesModel::sigma>{}); return;
  }
  throw Error("eddy_viscosity: unknown LES model " + std::to_string(static_cast<int>(model)));
}

// Reduction operators of min_ratio and max_abs, shared so that both backends treat NaN alike: a NaN
// operand wins (the result is NaN once any compared value is), whatever the order of combination.
MINIAPP_HOST_DEVICE inline double nan_min(double a, double b) { return (b < a || b != b) ? b : a; }
MINIAPP_HOST_DEVICE inline double nan_max(double a, double b) { return (b > a || b != b) ? b : a; }

}  // namespace miniapp::les
