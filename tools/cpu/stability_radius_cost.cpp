// Host time of the eigenvalue time step's search (time::stability_radius: bisection along the
// eigenvalue's direction), which runs every step between the minima's read and the next kernel, for
// Adams-Bashforth 2 alone and for the five κ candidates that numerics.max_kappa = 1 lets it try.
// Median of 9 batches of 200 calls per direction. docs/cost-model.md cites its output.
// Usage: stability_radius_cost
#include <algorithm>
#include <cstdio>

#include "miniapp/bench/timing.hpp"
#include "miniapp/time/time_step_control.hpp"

using namespace miniapp;

namespace {

// Median microseconds per call of `search` over 9 batches of 200 (phi nudged each call: no reuse).
template <class Search>
double microseconds(Search search, double phi) {
  volatile double sink = 0;
  return bench::median_seconds(0, 9, [&] {
           for (int i = 0; i < 200; ++i) sink = sink + search(phi + 1e-9 * i);
         }) / 200 * 1e6;
}

}  // namespace

int main() {
  const auto ab2 = [](double phi) { return time::stability_radius(time::adams_bashforth_kappa, phi); };
  const auto five = [](double phi) {
    double best = 0;
    for (int i = 0; i < 5; ++i) best = std::max(best, time::stability_radius(0.5 + 0.5 * i / 4, phi));
    return best;
  };
  std::printf("phi (rad)  AB2 radius  AB2 us  five kappa us\n");
  for (const double phi : {0.05, 0.3, 0.8, 1.2, 1.5})
    std::printf("%9.2f  %10.3f  %6.1f  %13.1f\n", phi, ab2(phi), microseconds(ab2, phi), microseconds(five, phi));
}
