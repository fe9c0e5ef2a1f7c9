#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "operators/kernels/spmv.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/overlapped_operator.hpp"
#include "tests/operators/matrix_generators.hpp"
#include "parallel/subdomain.hpp"
#include "tests/parallel/parallel_test_support.hpp"

using namespace miniapp;
using namespace miniapp::parallel;

namespace {

// A box partitioned over the ranks, with its numbering: the common set-up of these tests.
struct Distributed {
  Communicator comm;
  CellGraph graph;
  LocalNumbering numbering;
  Distributed(const std::string& kind, bool periodic)
      : graph(cell_graph(test::test_box(kind, periodic))),
        numbering(build_local_numbering(graph, partition_cells(comm, graph), comm.rank())) {}
};

// The owned entries of a global field, halo entries NaN (so a halo entry not delivered fails).
std::vector<double> owned_part(const std::vector<double>& global, const LocalNumbering& n) {
  std::vector<double> local = local_values(global, n);
  std::fill(local.begin() + n.owned_count(), local.end(), std::numeric_limits<double>::quiet_NaN());
  return local;
}

}  // namespace

TEST_CASE("halo exchange delivers exactly the owners' values", "[mpi][halo]") {
  const std::string kind = GENERATE("hex", "tet");
  const bool periodic = GENERATE(false, true);
  CAPTURE(kind, periodic);
  const Distributed d(kind, periodic);
  const Executor exec = Executor::cpu();
  HaloExchange halo(d.comm, exec, d.numbering);
  for (unsigned seed : {11u, 12u}) {  // twice: the buffers are reused
    const auto global = test::random_vector(d.graph.cell_count(), seed);
    Vector v = Vector::from_host(exec, owned_part(global, d.numbering));
    halo.exchange(v);
    CHECK(v.to_host() == local_values(global, d.numbering));
  }
  long long sent = halo.plan().send_index.size(), received = halo.plan().recv_index.size();
  CHECK(d.comm.allreduce(sent, ReduceOp::sum) == d.comm.allreduce(received, ReduceOp::sum));
  CHECK(received == d.numbering.halo_count);
}

TEST_CASE("a split exchange lets work run between start and finish", "[mpi][halo]") {
  const Distributed d("hex", true);
  const Executor exec = Executor::cpu();
  HaloExchange halo(d.comm, exec, d.numbering);
  const auto global = test::random_vector(d.graph.cell_count(), 13);
  Vector v = Vector::from_host(exec, owned_part(global, d.numbering));
  halo.start_exchange(v);
  CHECK_THROWS_WITH(halo.start_exchange(v), Catch::Contains("not been finished"));
  halo.finish_exchange(v);
  CHECK(v.to_host() == local_values(global, d.numbering));
  Vector wrong(exec, d.numbering.local_count() + 1);
  CHECK_THROWS_WITH(halo.start_exchange(wrong), Catch::Contains("owned + halo"));
}

TEST_CASE("distributed SpMV on owned + halo equals the global SpMV on the owned rows", "[mpi][halo]") {
  const std::string kind = GENERATE("hex", "tet");
  const bool periodic = GENERATE(false, true);
  CAPTURE(kind, periodic);
  const Distributed d(kind, periodic);
  const Executor exec = Executor::cpu();
  const CsrMatrix global = test::random_graph_operator(d.graph, 21);
  const auto x_global = test::random_vector(d.graph.cell_count(), 22);
  const auto y_global = reference_spmv(global, x_global);

  HaloExchange halo(d.comm, exec, d.numbering);
  const DeviceCsr a(exec, local_rows(global, d.numbering));
  Vector x = Vector::from_host(exec, owned_part(x_global, d.numbering));
  Vector y(exec, d.numbering.owned_count());
  halo.exchange(x);
  spmv(exec, a, x, y);
  const auto got = y.to_host();
  for (index_t l = 0; l < d.numbering.owned_count(); ++l)
    CHECK(got[l] == Approx(y_global[d.numbering.local_to_global[l]]).epsilon(1e-13));
}

TEST_CASE("distributed dots with one allreduce equal the global dots", "[mpi][halo]") {
  const Distributed d("tet", false);
  const Executor exec = Executor::cpu();
  const index_t n = d.graph.cell_count();
  const auto a = test::random_vector(n, 31), b = test::random_vector(n, 32);
  double ab = 0, bb = 0;
  for (index_t i = 0; i < n; ++i) {
    ab += a[i] * b[i];
    bb += b[i] * b[i];
  }
  auto owned = [&](const std::vector<double>& g) {
    auto l = local_values(g, d.numbering);
    l.resize(static_cast<std::size_t>(d.numbering.owned_count()));
    return Vector::from_host(exec, l);
  };
  const Vector x = owned(a), y = owned(b);
  const Subdomain domain(d.comm, exec, d.numbering);
  CHECK(domain.dot(exec, x, y) == Approx(ab).epsilon(1e-12));
  const Vector* xs[] = {&x, &y};
  const Vector* ys[] = {&y, &y};
  double out[2];
  domain.multi_dot(exec, xs, ys, out);
  CHECK(out[0] == Approx(ab).epsilon(1e-12));
  CHECK(out[1] == Approx(bb).epsilon(1e-12));
}

// Five vectors: more than one update carries (Subdomain::max_vectors_per_update), so in two groups,
// the exchange's buffers no larger than halo_device_bytes says.
TEST_CASE("a batched halo update delivers every vector's values", "[mpi][halo]") {
  const std::string kind = GENERATE("hex", "tet");
  CAPTURE(kind);
  const Distributed d(kind, true);
  const Executor exec = Executor::cpu();
  const std::size_t before = exec.bytes_allocated();
  Subdomain domain(d.comm, exec, d.numbering);
  std::vector<std::vector<double>> globals;
  std::vector<Vector> vectors;
  for (unsigned seed = 41; seed < 46; ++seed) {
    globals.push_back(test::random_vector(d.graph.cell_count(), seed));
    vectors.push_back(Vector::from_host(exec, owned_part(globals.back(), d.numbering)));
  }
  Vector* batch[] = {&vectors[0], &vectors[1], &vectors[2], &vectors[3], &vectors[4]};
  domain.update_halo(batch);
  for (int v = 0; v < 5; ++v) CHECK(vectors[v].to_host() == local_values(globals[v], d.numbering));
  const std::size_t vector_bytes = 5 * sizeof(double) * static_cast<std::size_t>(d.numbering.local_count());
  CHECK(exec.bytes_allocated() - before - vector_bytes == domain.halo_device_bytes());
  CHECK((d.comm.size() == 1) == (domain.halo_device_bytes() == 0));
}

TEST_CASE("the overlapped SpMV equals the global SpMV on the owned rows", "[mpi][halo]") {
  const std::string kind = GENERATE("hex", "tet");
  const bool periodic = GENERATE(false, true);
  CAPTURE(kind, periodic);
  const Distributed d(kind, periodic);
  const Executor exec = Executor::cpu();
  Subdomain domain(d.comm, exec, d.numbering);
  const CsrMatrix global = test::random_graph_operator(d.graph, 51);
  const auto x_global = test::random_vector(d.graph.cell_count(), 52);
  const auto y_global = reference_spmv(global, x_global);
  CsrMatrix square = local_rows(global, d.numbering);  // owned rows; the halo rows stay empty
  square.rows = d.numbering.local_count();
  square.row_ptr.resize(static_cast<std::size_t>(square.rows) + 1, square.row_ptr.back());
  const OverlappedOperator a(exec, square, domain, 4);
  for (const bool overlapped : {true, false}) {
    Vector x = Vector::from_host(exec, owned_part(x_global, d.numbering));
    Vector y(exec, d.numbering.local_count());
    if (overlapped) a.apply(domain, x, y);
    else a.apply_after_update(domain, x, y);
    const auto got = y.to_host();
    for (index_t l = 0; l < d.numbering.owned_count(); ++l)
      CHECK(got[l] == Approx(y_global[d.numbering.local_to_global[l]]).margin(1e-13));  // |a|, |x| ≤ 1
  }
}
