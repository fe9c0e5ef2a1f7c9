#pragma once
#include "solvers/fft/periodic_fft.hpp"

namespace miniapp::fft::cpu {

// PeriodicFft by FFTW (many 1D r2c / c2r plans, new-array execution on the executor's vectors).
std::unique_ptr<PeriodicFft> make_fftw_transform(index_t lines, index_t n, bool measure);

}  // namespace miniapp::fft::cpu
