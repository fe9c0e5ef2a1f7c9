#include "operators/kernels/flow_kernels.hpp"

#include <array>
#include <string>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/wall_shear.hpp"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/kernels/dispatch.hpp"

namespace miniapp {
namespace {

// Flops per cell of each model, counted by hand from operators/backend/les_models.hpp (a sqrt,
// division, acos, cos or comparison counts as one): Sigma's 3×3 eigenvalue problem dominates.
double model_flops(LesModel model) {
  switch (model) {
    case LesModel::none: return 0;
    case LesModel::smagorinsky: return 24;
    case LesModel::wale: return 100;
    case LesModel::vreman: return 68;
    case LesModel::sigma: return 130;
  }
  throw Error("eddy_viscosity: unknown LES model " + std::to_string(static_cast<int>(model)));
}

}  // namespace

// Bytes 88n (nine gradient components and Δ read, ν_t written; 8n for `none`, which only writes
// zeros), flops model_flops · n.
void eddy_viscosity(const Executor& exec, LesModel model, double constant,
                    std::span<const Vector* const, 9> gradient, const Vector& filter_width, Vector& nu_t) {
  constexpr const char* kernel = "eddy_viscosity";
  const index_t n = nu_t.size();
  const double flops = model_flops(model) * n;
  detail::check_vector(exec, nu_t, n, kernel, "nu_t");
  if (model == LesModel::none) {
    const double seconds = detail::run_timed(
        exec, [&] { cpu::fill(n, 0.0, nu_t.data()); }, [&] { cuda::fill(exec.stream(), n, 0.0, nu_t.data()); });
    exec.counters().add(KernelKind::pointwise, 8.0 * n, 0.0, seconds);
    return;
  }
  detail::check_vector(exec, filter_width, n, kernel, "filter_width");
  std::array<const double*, 9> g{};
  for (int k = 0; k < 9; ++k) {
    const std::string what = "gradient component " + std::to_string(k);
    if (!gradient[k]) throw Error(std::string(kernel) + ": " + what + " is a null pointer");
    detail::check_vector(exec, *gradient[k], n, kernel, what.c_str());
    g[k] = gradient[k]->data();
  }
  const double seconds = detail::run_timed(
      exec, [&] { cpu::eddy_viscosity(n, model, constant, g.data(), filter_width.data(), nu_t.data()); },
      [&] { cuda::eddy_viscosity(exec.stream(), n, model, constant, g.data(), filter_width.data(), nu_t.data()); });
  exec.counters().add(KernelKind::pointwise, 88.0 * n, flops, seconds);
}

// Bytes 16n, flops 2n (a division and a comparison per entry). A NaN ratio of an entry with y_i > 0
// makes the result NaN; a NaN y_i is skipped like y_i ≤ 0.
double min_ratio(const Executor& exec, const Vector& x, const Vector& y) {
  const index_t n = x.size();
  detail::check_vector(exec, x, n, "min_ratio", "x");
  detail::check_vector(exec, y, n, "min_ratio", "y");
  double result = 0.0;
  const double seconds = detail::run_timed(
      exec, [&] { result = cpu::min_ratio(n, x.data(), y.data()); },
      [&] { result = cuda::min_ratio(exec.stream(), n, x.data(), y.data()); });
  exec.counters().add(KernelKind::pointwise, 16.0 * n, 2.0 * n, seconds);
  exec.counters().add_host_read();
  return result;
}

// Bytes and flops as the synchronous min_ratio.
void min_ratio(const Executor& exec, const Vector& x, const Vector& y, Vector& result) {
  const index_t n = x.size();
  detail::check_vector(exec, x, n, "min_ratio", "x");
  detail::check_vector(exec, y, n, "min_ratio", "y");
  detail::check_vector(exec, result, 1, "min_ratio", "result");
  const double seconds = detail::run_timed(
      exec, [&] { result.data()[0] = cpu::min_ratio(n, x.data(), y.data()); },
      [&] { cuda::min_ratio_async(exec.stream(), n, x.data(), y.data(), result.data()); });
  exec.counters().add(KernelKind::pointwise, 16.0 * n, 2.0 * n, seconds);
}

// Bytes 8n, flops n (a comparison per entry). NaN anywhere in x gives NaN.
double max_abs(const Executor& exec, const Vector& x) {
  const index_t n = x.size();
  detail::check_vector(exec, x, n, "max_abs", "x");
  double result = 0.0;
  const double seconds = detail::run_timed(
      exec, [&] { result = cpu::max_abs(n, x.data()); }, [&] { result = cuda::max_abs(exec.stream(), n, x.data()); });
  exec.counters().add(KernelKind::pointwise, 8.0 * n, double(n), seconds);
  exec.counters().add_host_read();
  return result;
}

// Bytes and flops as the synchronous max_abs.
void max_abs(const Executor& exec, const Vector& x, Vector& result) {
  const index_t n = x.size();
  detail::check_vector(exec, x, n, "max_abs", "x");
  detail::check_vector(exec, result, 1, "max_abs", "result");
  const double seconds = detail::run_timed(
      exec, [&] { result.data()[0] = cpu::max_abs(n, x.data()); },
      [&] { cuda::max_abs_async(exec.stream(), n, x.data(), result.data()); });
  exec.counters().add(KernelKind::pointwise, 8.0 * n, double(n), seconds);
}

// Bytes 16n, no flops (a sign-bit clear). y may be x.
void abs_value(const Executor& exec, const Vector& x, Vector& y) {
  const index_t n = y.size();
  detail::check_vector(exec, y, n, "abs_value", "y");
  detail::check_vector(exec, x, n, "abs_value", "x");
  const double seconds = detail::run_timed(
      exec, [&] { cpu::abs_value(n, x.data(), y.data()); },
      [&] { cuda::abs_value(exec.stream(), n, x.data(), y.data()); });
  exec.counters().add(KernelKind::pointwise, 16.0 * n, 0.0, seconds);
}

// Bytes 96n (ten vectors read, two written), flops 28n (two square roots, two divisions).
void wall_shear(const Executor& exec, std::span<const Vector* const, 3> velocity, double scale,
                std::span<const Vector* const, 3> normal, std::span<const Vector* const, 3> wall_velocity,
                const Vector& distance, double nu, Vector& tau, Vector& yplus) {
  constexpr const char* kernel = "wall_shear";
  const index_t n = tau.size();
  detail::check_vector(exec, tau, n, kernel, "tau");
  detail::check_vector(exec, yplus, n, kernel, "yplus");
  detail::check_vector(exec, distance, n, kernel, "distance");
  wall::FacePointers f{};
  f.distance = distance.data();
  const auto take = [&](std::span<const Vector* const, 3> from, const double** to, const char* what) {
    for (int k = 0; k < 3; ++k) {
      const std::string name = std::string(what) + " component " + std::to_string(k);
      if (!from[k]) throw Error(std::string(kernel) + ": " + name + " is a null pointer");
      detail::check_vector(exec, *from[k], n, kernel, name.c_str());
      to[k] = from[k]->data();
    }
  };
  take(velocity, f.velocity, "velocity");
  take(normal, f.normal, "normal");
  take(wall_velocity, f.wall_velocity, "wall velocity");
  const double seconds = detail::run_timed(
      exec, [&] { cpu::wall_shear(n, f, scale, nu, tau.data(), yplus.data()); },
      [&] { cuda::wall_shear(exec.stream(), n, f, scale, nu, tau.data(), yplus.data()); });
  exec.counters().add(KernelKind::pointwise, 96.0 * n, 28.0 * n, seconds);
}

}  // namespace miniapp
