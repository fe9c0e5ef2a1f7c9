#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "mesh/geometry.hpp"
#include "miniapp/run/rank_mesh.hpp"
#include "operators/fv/flow_operators.hpp"
#include "parallel/local_mesh.hpp"

using namespace miniapp;

namespace {

// Walls on every patch (the cut patch included): the rows compared do not depend on the conditions'
// kinds, only on the faces each cell has.
fv::FlowBoundaries walls(const mesh::Mesh& m) {
  fv::FlowBoundaries b;
  b.by_patch.assign(m.patches.size(), fv::BoundaryCondition{});
  return b;
}

// The Laplacian row of each owned cell of a rank's mesh, as global row → (global column → value).
std::map<index_t, std::map<index_t, double>> owned_rows(const mesh::Mesh& m, const parallel::LocalNumbering& n) {
  const auto ops = fv::assemble_flow_operators(m, mesh::compute_geometry(m), walls(m), Permutation::identity(m.cell_count()));
  std::map<index_t, std::map<index_t, double>> rows;
  for (index_t r = 0; r < n.owned_count(); ++r)
    for (index_t p = ops.laplacian.row_ptr[r]; p < ops.laplacian.row_ptr[r + 1]; ++p)
      rows[n.local_to_global[r]][n.local_to_global[ops.laplacian.col[p]]] += ops.laplacian.val[p];
  return rows;
}

std::vector<index_t> sorted(std::vector<index_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

// A rank that generates its own z-layers must end with what the whole-mesh path gives for the same
// partition: the same owned, interface and halo cells, and the same operator rows.
TEST_CASE("z-layer rank meshes equal the rank meshes cut from the whole box", "[run][z-layers]") {
  const auto cells = GENERATE(mesh::BoxCells::hexahedra, mesh::BoxCells::tetrahedra);
  const bool periodic = GENERATE(false, true);
  const int ranks = GENERATE(2, 3, 4);
  CAPTURE(cells == mesh::BoxCells::hexahedra, periodic, ranks);
  mesh::BoxSpec box;
  box.cells = {4, 3, 7};
  box.length = {1.0, 2.0, 3.0};
  box.stretch = {0.0, 1.5, periodic ? 0.0 : 1.2};
  box.periodic = {true, false, periodic};
  const mesh::Mesh whole = cells == mesh::BoxCells::hexahedra ? mesh::make_hex_box(box) : mesh::make_tet_box(box);
  const index_t per_layer = whole.cell_count() / box.cells[2];
  // The documented share: rank r owns layers [r nz / P, (r + 1) nz / P).
  std::vector<int> part(static_cast<std::size_t>(whole.cell_count()));
  for (std::size_t c = 0; c < part.size(); ++c) {
    const index_t layer = static_cast<index_t>(c) / per_layer;
    while (static_cast<index_t>((part[c] + 1) * box.cells[2] / ranks) <= layer) ++part[c];
  }
  const parallel::CellGraph graph = parallel::cell_graph(whole);
  for (int rank = 0; rank < ranks; ++rank) {
    CAPTURE(rank);
    const run::RankMesh generated = run::layered_rank_mesh(box, cells, ranks, rank);
    const parallel::LocalNumbering cut = parallel::build_local_numbering(graph, part, rank);
    const parallel::LocalNumbering& own = *generated.numbering;
    CHECK(generated.global_cells == whole.cell_count());
    REQUIRE(own.inner_count == cut.inner_count);
    REQUIRE(own.interface_count == cut.interface_count);
    REQUIRE(own.halo_count == cut.halo_count);
    const auto range = [](const parallel::LocalNumbering& n, index_t from, index_t to) {
      return sorted({n.local_to_global.begin() + from, n.local_to_global.begin() + to});
    };
    CHECK(range(own, 0, own.inner_count) == range(cut, 0, cut.inner_count));
    CHECK(range(own, own.inner_count, own.owned_count()) == range(cut, cut.inner_count, cut.owned_count()));
    CHECK(range(own, own.owned_count(), own.local_count()) == range(cut, cut.owned_count(), cut.local_count()));
    CHECK(own.neighbour_ranks() == cut.neighbour_ranks());
    CHECK(generated.owned_global == std::vector<index_t>(own.local_to_global.begin(),
                                                         own.local_to_global.begin() + own.owned_count()));
    CHECK(generated.owned_piece->cell_count() == own.owned_count());
    // Every patch of the whole box is there (empty or not), the cut patch last.
    REQUIRE(generated.mesh.patches.size() == whole.patches.size() + 1);
    for (std::size_t p = 0; p < whole.patches.size(); ++p) CHECK(generated.mesh.patches[p].name == whole.patches[p].name);
    CHECK(generated.mesh.patches.back().name == parallel::cut_patch_name);

    const auto generated_rows = owned_rows(generated.mesh, own);
    const auto cut_rows = owned_rows(parallel::extract_local_mesh(whole, cut.local_to_global), cut);
    REQUIRE(generated_rows.size() == cut_rows.size());
    for (const auto& [row, entries] : cut_rows) {
      const auto& other = generated_rows.at(row);
      REQUIRE(other.size() == entries.size());
      for (const auto& [col, value] : entries) CHECK(other.at(col) == Approx(value).epsilon(1e-12).margin(1e-12));
    }
  }
}

TEST_CASE("z-layer decomposition refuses too many ranks for the layers", "[run][z-layers]") {
  mesh::BoxSpec box;
  box.cells = {3, 3, 4};
  CHECK_THROWS_WITH(run::layered_rank_mesh(box, mesh::BoxCells::hexahedra, 5, 0),
                    Catch::Contains("5 ranks for 4 z-layers"));
  box.periodic = {false, false, true};
  // 2 ranks own 2 of 4 periodic layers each: halo below and above are distinct (allowed); 3 layers are not.
  CHECK_NOTHROW(run::layered_rank_mesh(box, mesh::BoxCells::hexahedra, 2, 0));
  box.cells = {3, 3, 3};
  CHECK_THROWS_WITH(run::layered_rank_mesh(box, mesh::BoxCells::hexahedra, 2, 1),
                    Catch::Contains("halo layers below and above would be the same layer"));
}
