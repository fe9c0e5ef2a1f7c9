// The batched periodic transforms' layout: each line's n/2 + 1 modes mode_stride(backend, n) doubles
// from the last (on CUDA with unused entries between lines, checked in fft_cuda_test), and
// backward(forward(x)) = n x.
#include <catch2/catch.hpp>

#include "solvers/fft/periodic_fft.hpp"
#include "tests/fft/fft_test_support.hpp"

using namespace miniapp;

TEST_CASE("A line's modes take n + 2 doubles on the CPU and start on 128-byte boundaries on CUDA", "[fft]") {
  for (index_t n = 2; n <= 512; n += 2) {
    CAPTURE(n);
    CHECK(fft::mode_stride(Backend::cpu, n) == n + 2);
    const index_t cuda = fft::mode_stride(Backend::cuda, n);
    CHECK(cuda % 16 == 0);  // 16 doubles: 128 bytes
    CHECK(cuda >= n + 2);
    CHECK(cuda < n + 2 + 16);
  }
}

TEST_CASE("A length with a prime factor above 13 is named, with the nearest even lengths without one", "[fft]") {
  CHECK(fft::largest_prime_factor(1) == 1);
  CHECK(fft::largest_prime_factor(192) == 3);
  CHECK(fft::largest_prime_factor(194) == 97);
  CHECK(fft::largest_prime_factor(289) == 17);
  CHECK(fft::largest_prime_factor(2 * 3 * 5 * 7 * 11 * 13) == 13);
  for (const index_t fast : {2, 64, 96, 130, 192, 256, 2 * 3 * 5 * 7 * 11 * 13}) CHECK(fft::slow_length_note(fast).empty());
  CHECK_THAT(fft::slow_length_note(194), Catch::Contains("Nper = 194 has the prime factor 97") &&
                                             Catch::Contains("192 or 196 layers would transform faster"));
  CHECK_THAT(fft::slow_length_note(34), Catch::Contains("prime factor 17") && Catch::Contains("32 or 36 layers"));
  CHECK_THAT(fft::slow_length_note(38), Catch::Contains("prime factor 19") && Catch::Contains("36 or 40 layers"));
}

TEST_CASE("FFTW's modes of each line lie at its stride and come back as n times the line", "[fft]") {
  const Executor exec = Executor::cpu();
  const index_t n = GENERATE(8, 14, 64), lines = 5, stride = fft::mode_stride(Backend::cpu, n);
  CAPTURE(n);
  const auto real = test::random_vector(static_cast<std::size_t>(lines * n), 3);
  Vector r = Vector::from_host(exec, real), modes(exec, lines * stride);
  const auto transform = fft::make_periodic_fft(exec, lines, n, false);
  transform->forward(r, modes);
  const std::vector<double> m = modes.to_host();
  for (index_t c = 0; c < lines; ++c) {
    // Mode k of line c is Σ_j x_j e^{−2πi jk/n}: the constant mode's real part is the line's sum, the
    // imaginary parts of modes 0 and n/2 are zero, and mode n/2's real part the alternating sum.
    double sum = 0, alternating = 0;
    for (index_t j = 0; j < n; ++j) {
      sum += real[c * n + j];
      alternating += (j % 2 == 0 ? 1 : -1) * real[c * n + j];
    }
    CHECK(m[c * stride] == Approx(sum).margin(1e-12));
    CHECK(m[c * stride + 1] == Approx(0).margin(1e-12));
    CHECK(m[c * stride + n] == Approx(alternating).margin(1e-12));
    CHECK(m[c * stride + n + 1] == Approx(0).margin(1e-12));
  }
  transform->backward(modes, r);
  const std::vector<double> back = r.to_host();
  for (std::size_t i = 0; i < back.size(); ++i) CHECK(back[i] == Approx(n * real[i]).margin(1e-11));
}
