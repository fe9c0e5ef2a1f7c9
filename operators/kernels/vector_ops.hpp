#pragma once
#include "operators/backend/array.hpp"
#include "operators/backend/coefficient.hpp"

namespace miniapp {

// The AXPY family and pointwise kernels. All vectors have the same length and live on `exec`.
// Where a coefficient of an input is 0 that input does not enter the result, so NaN or garbage there
// does not propagate (y = a x + 0 y overwrites y); a plain 0 is not even read.

// y = a x + b y (AXPY class: 2 reads, 1 write; 1 read, 1 write when b is a plain 0). A coefficient is
// a number or an entry of a vector in executor memory (entry_of), read when the kernel runs.
void axpby(const Executor& exec, Coefficient a, const Vector& x, Coefficient b, Vector& y);
// w = a x + b y (AXPY class).
void waxpby(const Executor& exec, Coefficient a, const Vector& x, Coefficient b, const Vector& y, Vector& w);
// Entry i of v as a coefficient read when the kernel runs; v must outlive the calls (and any graph
// that records them). Throws unless 0 ≤ i < v.size().
Coefficient entry_of(const Vector& v, index_t i);
// z = x ∘ y, elementwise (pointwise class; diagonal matrices such as Ω⁻¹ are stored as vectors).
void pointwise_multiply(const Executor& exec, const Vector& x, const Vector& y, Vector& z);
// z = a x ∘ y + z, elementwise (pointwise class: 3 reads, 1 write): running sums of products.
void accumulate_product(const Executor& exec, double a, const Vector& x, const Vector& y, Vector& z);
// y = value (pointwise class).
void fill(const Executor& exec, double value, Vector& y);
// y = x (copy class).
void copy(const Executor& exec, const Vector& x, Vector& y);

}  // namespace miniapp
