#include <catch2/catch.hpp>

#include <array>
#include <sstream>

#include "operators/kernels/dot.hpp"
#include "operators/kernels/fused_spmv.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "tests/operators/matrix_generators.hpp"

using namespace miniapp;

TEST_CASE("front ends count calls, bytes and flops by the documented formulas", "[counters]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix host = test::random_csr(50, 40, 6, 3);
  const SellMatrix sell = to_sell(host, 8);
  const DeviceSell a(exec, sell);
  const DeviceCsr c(exec, host);
  const double nnz = host.nnz(), stored = sell.stored_entries(), slices = sell.slice_count();
  const index_t n = 40;
  Vector x = Vector::from_host(exec, test::random_vector(n, 1)), x2(exec, n), x3(exec, n);
  Vector y(exec, 50), y2(exec, 50), y3(exec, 50), w(exec, n);
  fill(exec, 1.0, x2);
  fill(exec, 2.0, x3);
  exec.counters().reset();

  spmv(exec, a, x, y);
  spmv(exec, c, x, y);
  const std::array<const Vector*, 3> xs{&x, &x2, &x3};
  const std::array<Vector*, 3> ys{&y, &y2, &y3};
  spmv_multi(exec, a, xs, ys);
  const KernelTally& spmv_t = exec.counters().tally(KernelKind::spmv);
  CHECK(spmv_t.calls == 3);
  CHECK(spmv_t.bytes == (12 * stored + 4 * (slices + 1) + 8 * 90) + (12 * nnz + 4 * 51 + 8 * 90) +
                            (12 * stored + 4 * (slices + 1) + 3 * 8 * 90));
  CHECK(spmv_t.flops == 2 * nnz + 2 * nnz + 3 * 2 * nnz);

  axpby(exec, 2.0, x, 3.0, w);
  axpby(exec, 2.0, x, 0.0, w);
  waxpby(exec, 1.0, x, 1.0, x2, w);
  const KernelTally& axpy_t = exec.counters().tally(KernelKind::axpy);
  CHECK(axpy_t.calls == 3);
  CHECK(axpy_t.bytes == 24.0 * n + 16.0 * n + 24.0 * n);
  CHECK(axpy_t.flops == 3.0 * n + 1.0 * n + 3.0 * n);

  dot(exec, x, x2);
  dot(exec, x, x);
  const std::array<const Vector*, 3> dx{&x, &x, &x2}, dy{&x2, &x, &x2};
  std::array<double, 3> out{};
  multi_dot(exec, dx, dy, out);
  const KernelTally& dot_t = exec.counters().tally(KernelKind::dot);
  CHECK(dot_t.calls == 3);
  CHECK(dot_t.bytes == 16.0 * n + 8.0 * n + 16.0 * n);  // multi_dot reads x and x2 once each
  CHECK(dot_t.flops == 2.0 * n + 2.0 * n + 3 * 2.0 * n);

  pointwise_multiply(exec, x, x2, w);
  fill(exec, 0.0, w);
  copy(exec, x, w);
  CHECK(exec.counters().tally(KernelKind::pointwise).calls == 2);
  CHECK(exec.counters().tally(KernelKind::pointwise).bytes == 24.0 * n + 8.0 * n);
  CHECK(exec.counters().tally(KernelKind::pointwise).flops == 1.0 * n);
  CHECK(exec.counters().tally(KernelKind::copy).bytes == 16.0 * n);

  const KernelTally total = exec.counters().total();
  CHECK(total.calls == 12);
  CHECK(total.bytes == spmv_t.bytes + axpy_t.bytes + dot_t.bytes + 48.0 * n);
  CHECK(total.seconds >= 0.0);

  std::ostringstream table;
  exec.counters().print(table);
  for (const char* kind : {"spmv", "axpy", "dot", "pointwise", "copy", "total", "GB/s"})
    CHECK_THAT(table.str(), Catch::Contains(kind));

  exec.counters().reset();
  CHECK(exec.counters().total().calls == 0);
}

TEST_CASE("SpMV calls are tallied by form too, the forms adding up to the SpMV kind", "[counters]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix host = test::random_csr(30, 30, 5, 4);
  const DeviceSell a(exec, to_sell(host, 8));
  const DeviceCsr c(exec, host);
  // Three vectors interleaved: column 3 · i + d reads x_d[i].
  std::vector<Triplet> t;
  for (index_t i = 0; i < 30; ++i) t.push_back({i, 3 * i + i % 3, 1.0}), t.push_back({i, 3 * ((i + 1) % 30), 0.5});
  const DeviceSell faces(exec, to_sell(csr_from_triplets(30, 90, std::move(t)), 8));
  Vector x = Vector::from_host(exec, test::random_vector(30, 5)), x2(exec, 30), x3(exec, 30);
  Vector y(exec, 30), y2(exec, 30), y3(exec, 30);
  const std::array<const Vector*, 3> xs{&x, &x2, &x3};
  const std::array<Vector*, 3> ys{&y, &y2, &y3};
  exec.counters().reset();

  spmv(exec, a, x, y);
  const std::array<const Vector*, 1> one_x{&x};
  const std::array<Vector*, 1> one_y{&y};
  spmv_multi(exec, a, one_x, one_y);  // one vector: the sELL form
  spmv(exec, c, x, y);
  spmv_axpby(exec, c, x, 1.0, x2, 0.5, y);
  spmv_multi(exec, a, xs, ys);
  spmv_interleaved(exec, faces, xs, y);
  const KernelCounters& k = exec.counters();
  CHECK(k.spmv_tally(SpmvForm::sell).calls == 2);
  CHECK(k.spmv_tally(SpmvForm::csr).calls == 2);
  CHECK(k.spmv_tally(SpmvForm::sell_vectors).calls == 1);
  CHECK(k.spmv_tally(SpmvForm::sell_interleaved).calls == 1);
  CHECK(k.spmv_tally(SpmvForm::sell_vectors).flops == 3 * 2.0 * host.nnz());
  KernelTally forms;
  for (int f = 0; f < spmv_form_count; ++f) {
    forms.calls += k.spmv_tally(static_cast<SpmvForm>(f)).calls;
    forms.bytes += k.spmv_tally(static_cast<SpmvForm>(f)).bytes;
  }
  CHECK(forms.calls == k.tally(KernelKind::spmv).calls);
  CHECK(forms.bytes == k.tally(KernelKind::spmv).bytes);

  // since, +=, repeated and reset carry the forms as they carry the kinds.
  const KernelCounters before = exec.counters();
  spmv(exec, c, x, y);
  const KernelCounters d = exec.counters().since(before);
  CHECK(d.spmv_tally(SpmvForm::csr).calls == 1);
  CHECK(d.spmv_tally(SpmvForm::sell).calls == 0);
  KernelCounters twice = d;
  twice += d;
  CHECK(twice.spmv_tally(SpmvForm::csr).calls == 2);
  CHECK(d.repeated(3).spmv_tally(SpmvForm::csr).bytes == 3 * d.spmv_tally(SpmvForm::csr).bytes);
  exec.counters().reset();
  CHECK(exec.counters().spmv_tally(SpmvForm::csr).calls == 0);
}

TEST_CASE("a rejected call adds nothing to the counters", "[counters]") {
  const Executor exec = Executor::cpu();
  Vector a(exec, 3), b(exec, 4);
  CHECK_THROWS_AS(copy(exec, a, b), Error);
  CHECK(exec.counters().total().calls == 0);
}

TEST_CASE("calls that return a value to the host are counted as host reads, the others not", "[counters]") {
  const Executor exec = Executor::cpu();
  const index_t n = 40;
  const Vector x = Vector::from_host(exec, test::random_vector(n, 2));
  Vector y = Vector::from_host(exec, test::random_vector(n, 3)), result(exec, 1);
  exec.counters().reset();
  axpby(exec, 0.5, x, 0.5, y);
  dot(exec, x, y, result);  // result kept in executor memory
  CHECK(exec.counters().host_reads() == 0);
  dot(exec, x, y);
  CHECK(exec.counters().host_reads() == 1);
  const Vector* lhs[] = {&x, &y};
  const Vector* rhs[] = {&y, &y};
  std::array<double, 2> out{};
  multi_dot(exec, lhs, rhs, out);
  CHECK(exec.counters().host_reads() == 2);
  const KernelCounters before = exec.counters();
  CHECK(result.to_host().size() == 1);  // a copy to the host
  CHECK(exec.counters().since(before).host_reads() == 1);
  CHECK(exec.counters().host_reads() == 3);
  exec.counters().reset();
  CHECK(exec.counters().host_reads() == 0);
}
