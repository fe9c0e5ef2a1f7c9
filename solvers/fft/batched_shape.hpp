#pragma once
#include "operators/backend/device_matrix.hpp"

// Plain views handed by the batched front ends (batched_kernels.hpp) to their backends.
namespace miniapp::fft {

// N rows × S interleaved systems ([c · S + s]); the kernel covers systems [begin, end).
struct BatchedShape {
  index_t rows, systems, begin, end;
  index_t width() const { return end - begin; }
};

// A + σ_s diag(w): pointers into executor memory. shifts == nullptr: the plain A.
struct ShiftedPointers {
  CsrView a;
  const double* diagonal;
  const double* w;
  const double* shifts;
};

}  // namespace miniapp::fft
