// A host matrix moved into executor memory: on the CPU backend its arrays become the executor's
// without a copy, counted as the executor's memory while they live.
#include <catch2/catch.hpp>

#include <utility>

#include "operators/kernels/spmv.hpp"
#include "tests/operators/matrix_generators.hpp"

using namespace miniapp;

TEST_CASE("A moved CSR matrix becomes the CPU executor's memory without a copy and is counted while it lives",
          "[spmv][memory]") {
  const Executor exec = Executor::cpu();
  const CsrMatrix a = test::random_csr(300, 200, 6, 11);
  CsrMatrix moved = a;
  const double* values = moved.val.data();
  const index_t* columns = moved.col.data();
  const std::size_t before = exec.bytes_allocated();
  {
    const DeviceCsr adopted(exec, std::move(moved));
    const CsrView view = adopted.view();
    CHECK(view.val == values);
    CHECK(view.col == columns);
    const std::size_t bytes = 12 * static_cast<std::size_t>(a.nnz()) + 4 * static_cast<std::size_t>(a.rows + 1);
    CHECK(exec.bytes_allocated() == before + bytes);
    // The same products as a copy's.
    const std::vector<double> x = test::random_vector(a.cols, 5);
    const Vector dx = Vector::from_host(exec, x);
    Vector y(exec, a.rows), z(exec, a.rows);
    spmv(exec, adopted, dx, y);
    spmv(exec, DeviceCsr(exec, a), dx, z);
    CHECK(y.to_host() == z.to_host());
    CHECK(adopted.to_host().val == a.val);
  }
  CHECK(exec.bytes_allocated() == before);
}
