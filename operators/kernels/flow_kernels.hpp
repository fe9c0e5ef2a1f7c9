#pragma once
#include <span>

#include "core/physics.hpp"
#include "operators/backend/array.hpp"

namespace miniapp {

// Pointwise kernels of the flow solver: the "extra" column of thesis Table 2.1 (LES model, CFL).
// Counted as KernelKind::pointwise (reductions too: they are not DOTs of the cost model).

// ν_t,i = eddy viscosity of `model` at each cell from the velocity gradient g_ab = ∂u_a/∂x_b
// (gradient[3a + b]), filter width Δ_i = Ω_i^{1/3} (`filter_width`) and the model constant C:
//   smagorinsky: (C Δ)² |S|, |S| = sqrt(2 S_ab S_ab), S = ½(g + gᵀ)
//   wale:        (C Δ)² (Sᵈ:Sᵈ)^{3/2} / ((S:S)^{5/2} + (Sᵈ:Sᵈ)^{5/4}), Sᵈ = ½(g² + g²ᵀ) − ⅓ tr(g²) I
//   vreman:      C sqrt(B_β / (g:g)), β = Δ² gᵀg, B_β = β11β22 − β12² + β11β33 − β13² + β22β33 − β23²
//   sigma:       (C Δ)² σ3 (σ1 − σ2)(σ2 − σ3) / σ1², σ1 ≥ σ2 ≥ σ3 the singular values of g
// Where a denominator vanishes (uniform flow) ν_t = 0. model = none gives ν_t = 0.
void eddy_viscosity(const Executor& exec, LesModel model, double constant,
                    std::span<const Vector* const, 9> gradient, const Vector& filter_width, Vector& nu_t);

// min_i x_i / y_i over the entries with y_i > 0 (+infinity when there is none). Synchronous.
double min_ratio(const Executor& exec, const Vector& x, const Vector& y);
// The same into result[0], `result` a vector of one entry on the executor: asynchronous on CUDA, the
// same value bitwise, so that several minima reach the host in one read.
void min_ratio(const Executor& exec, const Vector& x, const Vector& y, Vector& result);

// max_i |x_i| (0 for an empty vector). Synchronous.
double max_abs(const Executor& exec, const Vector& x);
// The same into result[0], `result` a vector of one entry on the executor: asynchronous on CUDA, the
// same value bitwise, so that several maxima reach the host in one read.
void max_abs(const Executor& exec, const Vector& x, Vector& result);

// y_i = |x_i|.
void abs_value(const Executor& exec, const Vector& x, Vector& y);

// The wall shear stress and y⁺ of wall faces i (operators/backend/wall_shear.hpp): from the velocity
// in the cell beside each face times `scale`, relative to the wall's velocity w_i, its part u_t
// tangential to the face's unit normal n_i, τ_i = ν |u_t| / d_i and y⁺_i = d_i sqrt(τ_i) / ν, d_i the
// distance of the cell's centroid from the face.
void wall_shear(const Executor& exec, std::span<const Vector* const, 3> velocity, double scale,
                std::span<const Vector* const, 3> normal, std::span<const Vector* const, 3> wall_velocity,
                const Vector& distance, double nu, Vector& tau, Vector& yplus);

}  // namespace miniapp
