#pragma once
#include "solvers/fft/periodic_fft.hpp"

namespace miniapp::fft::cuda {

// PeriodicFft by cuFFT (batched D2Z / Z2D plans on the executor's stream). In a build without CUDA it
// throws miniapp::Error.
std::unique_ptr<PeriodicFft> make_cufft_transform(const Executor& exec, index_t lines, index_t n);
// The bytes of the work area that transform allocates on its executor (made by planning, not
// allocating), rounded up to whole doubles.
std::size_t cufft_work_bytes(index_t lines, index_t n);

}  // namespace miniapp::fft::cuda
