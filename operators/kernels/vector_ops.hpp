#pragma once
#include "operators/backend/array.hpp"

namespace miniapp {

// The AXPY family and pointwise kernels. All vectors have the same length and live on `exec`.
// Where a coefficient of an input is 0 that input is not read, so NaN or garbage there does not
// propagate (y = a x + 0 y overwrites y).

// y = a x + b y (AXPY class: 2 reads, 1 write; 1 read, 1 write when b = 0).
void axpby(const Executor& exec, double a, const Vector& x, double b, Vector& y);
// w = a x + b y (AXPY class).
void waxpby(const Executor& exec, double a, const Vector& x, double b, const Vector& y, Vector& w);
// z = x ∘ y, elementwise (pointwise class; diagonal matrices such as Ω⁻¹ are stored as vectors).
void pointwise_multiply(const Executor& exec, const Vector& x, const Vector& y, Vector& z);
// y = value (pointwise class).
void fill(const Executor& exec, double value, Vector& y);
// y = x (copy class).
void copy(const Executor& exec, const Vector& x, Vector& y);

}  // namespace miniapp
