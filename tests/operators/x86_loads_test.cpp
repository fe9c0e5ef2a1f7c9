// The two ways the CPU's AVX2 sELL kernels read x (operators/backend/cpu/x86_loads.hpp): which one runs
// depends on the processor's vendor, so both must give the same values in the same lanes.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "operators/backend/cpu/x86_loads.hpp"

#ifdef MINIAPP_X86_AVX2
using namespace miniapp;

namespace {

template <class XLoads>
__attribute__((target("avx2"))) void load_x(const double* x, const index_t* col, double* out) {
  _mm256_storeu_pd(out, XLoads::load(x, col));
}

}  // namespace

TEST_CASE("The gathered and the loaded x of the AVX2 kernels are x[col[0..3]] in order", "[spmv]") {
  if (!cpu::cpu_has_avx2_fma()) {
    WARN("no AVX2 and FMA on this processor: the portable kernels run instead");
    return;
  }
  std::mt19937 random(11);
  std::vector<double> x(1000);
  for (double& v : x) v = std::uniform_real_distribution<double>(-1, 1)(random);
  std::uniform_int_distribution<index_t> column(0, static_cast<index_t>(x.size()) - 1);
  for (int trial = 0; trial < 200; ++trial) {
    index_t col[4] = {column(random), column(random), column(random), column(random)};
    if (trial == 0) col[0] = col[1] = col[2] = col[3] = 0;  // repeated and first entries
    if (trial == 1) col[3] = static_cast<index_t>(x.size()) - 1;  // the last entry
    double gathered[4], loaded[4];
    load_x<cpu::GatheredX>(x.data(), col, gathered);
    load_x<cpu::LoadedX>(x.data(), col, loaded);
    for (int lane = 0; lane < 4; ++lane) {
      CHECK(std::memcmp(&gathered[lane], &x[col[lane]], sizeof(double)) == 0);
      CHECK(std::memcmp(&loaded[lane], &x[col[lane]], sizeof(double)) == 0);
    }
  }
}
#endif
