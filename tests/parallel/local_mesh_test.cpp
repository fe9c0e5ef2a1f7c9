#include <catch2/catch.hpp>

#include <functional>
#include <map>

#include "mesh/geometry.hpp"
#include "operators/fv/flow_operators.hpp"
#include "parallel/local_mesh.hpp"
#include "parallel/local_numbering.hpp"
#include "tests/mesh/same_mesh.hpp"
#include "tests/parallel/parallel_test_support.hpp"

using namespace miniapp;
using namespace miniapp::parallel;

namespace {

// Walls on every patch of `m` (the cut patch of a rank's mesh included).
fv::FlowBoundaries walls(const mesh::Mesh& m) {
  fv::FlowBoundaries b;
  b.by_patch.assign(m.patches.size(), fv::BoundaryCondition{});
  return b;
}

// Row `row` of `a` as (column → value) with columns mapped by `column_of`.
std::map<index_t, double> row_of(const CsrMatrix& a, index_t row, const std::function<index_t(index_t)>& column_of) {
  std::map<index_t, double> r;
  for (index_t p = a.row_ptr[row]; p < a.row_ptr[row + 1]; ++p)
    r[column_of(a.col[p])] += a.val[p];
  return r;
}

// Equal entry by entry, a missing entry counting as 0 (assembly may leave round-off where the other
// has an exact zero), to round-off relative to the row's largest entry.
void check_same_row(const std::map<index_t, double>& local, const std::map<index_t, double>& global) {
  double scale = 0;
  for (const auto& [col, value] : global) scale = std::max(scale, std::abs(value));
  std::map<index_t, double> all = global;
  for (const auto& [col, value] : local) all.emplace(col, 0.0);
  for (const auto& [col, value] : all) {
    const double l = local.count(col) ? local.at(col) : 0.0;
    CHECK(l == Approx(value).margin(1e-12 * scale));
  }
}

}  // namespace

// The defining property of a rank's mesh: every operator row of an owned cell, assembled on it, is
// the row of the whole mesh (cells compared by global index).
TEST_CASE("operators on a rank's mesh reproduce the global rows of its owned cells", "[mpi][local_mesh]") {
  const std::string kind = GENERATE("hex", "tet");
  const bool periodic = GENERATE(false, true);
  CAPTURE(kind, periodic);
  const Communicator comm;
  const mesh::Mesh whole = test::test_box(kind, periodic);
  const auto whole_geometry = mesh::compute_geometry(whole);
  const fv::FlowOperators global = fv::assemble_flow_operators(whole, whole_geometry, walls(whole));
  const CellGraph graph = cell_graph(whole);
  const LocalNumbering n = build_local_numbering(graph, partition_cells(comm, graph), comm.rank());

  const mesh::Mesh part = extract_local_mesh(whole, n.local_to_global);
  REQUIRE(part.cell_count() == n.local_count());
  const auto geometry = mesh::compute_geometry(part);
  const fv::FlowOperators local =
      fv::assemble_flow_operators(part, geometry, walls(part), Permutation::identity(part.cell_count()));

  // Every held cell keeps its exact volume (the cut patch closes the halo cells).
  for (index_t l = 0; l < n.local_count(); ++l)
    CHECK(geometry.cell_volume[l] == Approx(whole_geometry.cell_volume[n.local_to_global[l]]).epsilon(1e-12));
  const auto global_cell = [&](index_t row) { return global.cell_order.new_to_old[row]; };
  const auto local_cell = [&](index_t row) { return n.local_to_global[row]; };
  std::array<CsrMatrix, 3> local_gradient, global_gradient;
  for (int d = 0; d < 3; ++d) {
    local_gradient[d] = fv::cell_gradient_matrix(local, d);
    global_gradient[d] = fv::cell_gradient_matrix(global, d);
  }
  for (index_t l = 0; l < n.owned_count(); ++l) {
    const index_t g = global.cell_order.old_to_new[n.local_to_global[l]];
    check_same_row(row_of(local.laplacian, l, local_cell), row_of(global.laplacian, g, global_cell));
    for (int d = 0; d < 3; ++d) {
      check_same_row(row_of(local_gradient[d], l, local_cell), row_of(global_gradient[d], g, global_cell));
      check_same_row(row_of(local.cell_divergence[d], l, local_cell),
                     row_of(global.cell_divergence[d], g, global_cell));
    }
  }
  if (comm.size() > 1) CHECK(part.patches.back().face_count > 0);  // the cut patch closes the halo
}

// The mesh reader cuts every rank's window with one cutter: each cut must start from clean maps,
// whatever the cuts before it held, and after a cut it refused.
TEST_CASE("One cutter cuts each set of cells as a fresh extraction does", "[local_mesh]") {
  const mesh::Mesh whole = test::test_box(GENERATE(as<std::string>{}, "hex", "tet"), GENERATE(false, true));
  const index_t n = whole.cell_count();
  std::vector<index_t> first_half, second_half, every_third;
  for (index_t c = 0; c < n; ++c) (c < n / 2 ? first_half : second_half).push_back(c);
  for (index_t c = n - 1; c >= 0; c -= 3) every_third.push_back(c);  // decreasing: any order is allowed
  LocalMeshCutter cutter(whole);
  for (const auto* cells : {&first_half, &second_half, &every_third, &first_half}) {
    mesh::test::check_same_mesh(cutter(*cells), extract_local_mesh(whole, *cells));
    const std::vector<index_t> twice{cells->front(), cells->back(), cells->front()};
    CHECK_THROWS_WITH(cutter(twice), Catch::Contains("is listed twice"));
  }
  mesh::test::check_same_mesh(cutter(second_half), extract_local_mesh(whole, second_half));
}
