#pragma once
#include <complex>
#include <memory>
#include <vector>

#include "solvers/fft/batched_pcg.hpp"
#include "solvers/fft/extrusion.hpp"

namespace miniapp::fft {

struct FftPoissonOptions {
  BatchedPcgOptions pcg;
  bool measure = false;  // FFTW_MEASURE (slower set-up, faster transforms) instead of FFTW_ESTIMATE
};

struct FftPoissonResult {
  BatchedPcgResult frequencies;  // system s: k = 0, then (Re, Im) of k = 1..Nper/2−1, then k = Nper/2
  int max_iterations = 0;        // over the frequency systems
  bool converged = false;
};

// Solves −L p = b on a uniform periodic extrusion along z (thesis ch. 4, Algorithm 1): a real-to-
// complex DFT along z of b (FFTW, batched over the 2D cells, 1D-block order), then for each of the
// Nper/2 + 1 frequencies k the 2D system (−L2d + |λk| W) p̂k = b̂k, with λk of periodic_eigenvalue,
// real and imaginary parts as two right-hand sides (k = 0 and Nper/2 are real), all Nper real systems
// by one BatchedPcg, then the inverse DFT divided by Nper. With no outlet the k = 0 system is
// singular: b is projected to zero mean and p has zero mean, like Pcg's singular mode.
// Host code on std::vector, one thread; plans and buffers are made once by the constructor.
class FftPoisson {
 public:
  FftPoisson(Extrusion extrusion, const PlaneOperator& op, const FftPoissonOptions& options = {});
  ~FftPoisson();
  FftPoisson(const FftPoisson&) = delete;
  FftPoisson& operator=(const FftPoisson&) = delete;

  // b and p in 3D cell order (cell_count entries); p is overwritten.
  FftPoissonResult solve(const std::vector<double>& b, std::vector<double>& p);

 private:
  void to_systems(std::vector<double>& batched) const;
  void from_systems(const std::vector<double>& batched);

  Extrusion extrusion_;
  FftPoissonOptions options_;
  std::unique_ptr<BatchedPcg> pcg_;
  std::vector<double> real_;                 // [c · Nper + j]
  std::vector<std::complex<double>> modes_;  // [c · (Nper/2 + 1) + k]
  std::vector<double> rhs_, solution_;       // interleaved [c · Nper + s]
  void* forward_ = nullptr;                  // fftw_plan, kept opaque so that users need no fftw3.h
  void* backward_ = nullptr;
};

}  // namespace miniapp::fft
