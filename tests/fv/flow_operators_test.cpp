// The constant operators: cell order, ΩG = −(MΓ)ᵀ, Laplacian properties, exactness of G and Γ.
#include <omp.h>

#include <catch2/catch.hpp>

#include <algorithm>

#include "fv_test_support.hpp"
#include "operators/fv/convection_operator.hpp"
#include "operators/fv/face_gradient.hpp"
#include "tests/thread_counts.hpp"

using namespace miniapp;
using namespace miniapp::fv;
using namespace miniapp::fv::test;

namespace {

std::vector<FlowCase> all_cases() {
  std::vector<FlowCase> cases = periodic_cases();
  for (bool outlet : {false, true})
    for (FlowCase& c : bounded_cases(outlet)) {
      if (outlet) c.name += " inlet+outlet";
      cases.push_back(std::move(c));
    }
  return cases;
}

double entry(const CsrMatrix& a, index_t r, index_t c) {
  for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
    if (a.col[k] == c) return a.val[k];
  return 0;
}

}  // namespace

TEST_CASE("cells are renumbered by cell_order in every cell-indexed operator", "[fv][flow]") {
  for (const FlowCase& c : bounded_cases(true)) {
    SECTION(c.name) {
      const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      const Permutation& order = ops.cell_order;
      REQUIRE(order.size() == c.mesh.cell_count());
      for (index_t i = 0; i < order.size(); ++i) {
        CHECK(ops.volume[i] == c.geometry.cell_volume[order.new_to_old[i]]);
        CHECK(ops.volume[i] * ops.inverse_volume[i] == Approx(1.0).epsilon(1e-15));
      }
      for (index_t f = 0; f < c.mesh.face_count(); ++f) {
        CHECK(entry(ops.divergence, order.old_to_new[c.mesh.face_owner[f]], f) == c.geometry.face_area[f]);
        if (!c.mesh.is_boundary(f))
          CHECK(entry(ops.divergence, order.old_to_new[c.mesh.face_neighbour[f]], f) == -c.geometry.face_area[f]);
      }
    }
  }
}

TEST_CASE("a mesh in lattice order keeps it, rows grouped by length, any other takes RCM's order", "[fv][flow]") {
  for (FlowCase c : all_cases()) {
    SECTION(c.name) {
      CHECK(c.mesh.cells_in_lattice_order == (c.name.rfind("mixed", 0) != 0));  // the generated ones
      // L in mesh order: what the assembly's own order comes from.
      const CsrMatrix l = assemble_flow_operators(c.mesh, c.geometry, c.boundaries,
                                                  Permutation::identity(c.mesh.cell_count()))
                              .laplacian;
      for (const bool lattice : {true, false}) {
        INFO("cells_in_lattice_order " << lattice);
        c.mesh.cells_in_lattice_order = lattice;
        const Permutation expected = lattice ? row_grouping(l) : row_grouping_rcm(l);
        CHECK(assemble_flow_operators(c.mesh, c.geometry, c.boundaries).cell_order.new_to_old == expected.new_to_old);
      }
    }
  }
}

TEST_CASE("Omega G equals minus (M Gamma) transposed, per component", "[fv][flow]") {
  for (const FlowCase& c : all_cases()) {
    SECTION(c.name) {
      const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      for (int d = 0; d < 3; ++d) {
        CsrMatrix omega_g = cell_gradient_matrix(ops, d);
        for (index_t r = 0; r < omega_g.rows; ++r)
          for (index_t p = omega_g.row_ptr[r]; p < omega_g.row_ptr[r + 1]; ++p) omega_g.val[p] *= ops.volume[r];
        const CsrMatrix minus_mg_t = scaled(transpose(ops.cell_divergence[d]), -1);
        REQUIRE(max_abs(minus_mg_t) > 0);
        CHECK(max_difference(omega_g, minus_mg_t) <= 1e-14 * max_abs(minus_mg_t));
      }
    }
  }
}

TEST_CASE("L and M Gamma are bitwise the products M Gs and M Gamma in cell order, whatever builds them", "[fv][flow]") {
  const auto same_bits = [](const CsrMatrix& a, const CsrMatrix& b) {
    return a.rows == b.rows && a.cols == b.cols && a.row_ptr == b.row_ptr && a.col == b.col && a.val == b.val;
  };
  for (const FlowCase& c : all_cases()) {
    SECTION(c.name) {
      const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      CHECK(same_bits(ops.laplacian, multiply(ops.divergence, ops.face_gradient)));
      const std::vector<CsrMatrix> gamma = split_interleaved_columns(ops.cell_to_face, 3);
      for (int d = 0; d < 3; ++d) CHECK(same_bits(ops.cell_divergence[d], multiply(ops.divergence, gamma[d])));
      // Γ = [Γ_0 Γ_1 Γ_2] interleaved by column, Γ_d = diag(n_d) Π_c, entries of faces with n_d = 0
      // not stored, by a face loop.
      const CsrMatrix interpolation = convective_interpolation_matrix(c.mesh, c.boundaries, ops.cell_order);
      std::vector<Triplet> t;
      for (index_t f = 0; f < interpolation.rows; ++f)
        for (int d = 0; d < 3; ++d)
          if (c.geometry.face_normal[f][d] != 0)
            for (index_t p = interpolation.row_ptr[f]; p < interpolation.row_ptr[f + 1]; ++p)
              t.push_back({f, 3 * interpolation.col[p] + d, c.geometry.face_normal[f][d] * interpolation.val[p]});
      CHECK(same_bits(ops.cell_to_face, csr_from_triplets(interpolation.rows, 3 * interpolation.cols, std::move(t))));
      // A given order (a rank's mesh) takes the same matrices as the order the assembly chose.
      const FlowOperators given = assemble_flow_operators(c.mesh, c.geometry, c.boundaries, ops.cell_order);
      CHECK(same_bits(given.laplacian, ops.laplacian));
      for (int d = 0; d < 3; ++d) CHECK(same_bits(given.cell_divergence[d], ops.cell_divergence[d]));
      // The face-by-face matrices, built in parallel, do not depend on the thread count.
      const int threads = omp_get_max_threads();
      omp_set_num_threads(1);
      const FlowOperators serial = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      omp_set_num_threads(3);
      const FlowOperators three = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      omp_set_num_threads(threads);
      for (const auto* o : {&serial, &three}) {
        CHECK(same_bits(o->divergence, ops.divergence));
        CHECK(same_bits(o->face_gradient, ops.face_gradient));
        CHECK(same_bits(o->viscous_rate, ops.viscous_rate));
        CHECK(same_bits(o->laplacian, ops.laplacian));
        CHECK(same_bits(o->cell_to_face, ops.cell_to_face));
      }
    }
  }
}

TEST_CASE("every operator and the cell order of a 40^3 box are bitwise the same on 1 and on 3 threads", "[fv][flow]") {
  // Large enough that every thread has rows, transposed columns and RCM seeds of several degrees.
  const SpecialPatches special = {{"xmin", {BoundaryKind::inlet, {1.0, 0.2, -0.1}}},
                                  {"xmax", {BoundaryKind::outlet, {}}},
                                  {"ymin", {BoundaryKind::slip, {}}}};
  FlowCase c = make_case(
      "hex 40^3", mesh::make_hex_box({.cells = {40, 40, 40}, .length = {1, 2, 0.5}, .stretch = {1.5, 0, 0.5}}), special);
  c.mesh.cells_in_lattice_order = GENERATE(true, false);  // false: RCM's order, as for a read mesh
  INFO("cells_in_lattice_order " << c.mesh.cells_in_lattice_order);
  const auto [one, three] = miniapp::test::on_one_and_three_threads(
      [&] { return assemble_flow_operators(c.mesh, c.geometry, c.boundaries); });
  // (Parenthesised: a failure prints false, not the arrays.)
  const auto same_csr = [](const CsrMatrix& a, const CsrMatrix& b) {
    CHECK(a.rows == b.rows);
    CHECK(a.cols == b.cols);
    CHECK((a.row_ptr == b.row_ptr));
    CHECK((a.col == b.col));
    CHECK((a.val == b.val));
  };
  CHECK((one.cell_order.new_to_old == three.cell_order.new_to_old));
  CHECK((one.cell_order.old_to_new == three.cell_order.old_to_new));
  CHECK((one.volume == three.volume));
  CHECK((one.boundary_face_velocity == three.boundary_face_velocity));
  for (const auto m : {&FlowOperators::divergence, &FlowOperators::face_gradient, &FlowOperators::laplacian,
                       &FlowOperators::viscous_rate, &FlowOperators::cell_to_face})
    same_csr(one.*m, three.*m);
  for (int d = 0; d < 3; ++d) {
    INFO("component " << d);
    same_csr(one.cell_divergence[d], three.cell_divergence[d]);
    same_csr(one.boundary_diffusion_source[d], three.boundary_diffusion_source[d]);
    CHECK((one.inlet_convection_source[d] == three.inlet_convection_source[d]));
  }
  // The matrices the upload makes from these, on one thread and on three.
  for (int d = 0; d < 3; ++d) {
    INFO("G, component " << d);
    const auto [g_one, g_three] = miniapp::test::on_one_and_three_threads([&] { return cell_gradient_matrix(one, d); });
    same_csr(g_one, g_three);
  }
  const auto [pi_one, pi_three] =
      miniapp::test::on_one_and_three_threads([&] { return face_interpolation_matrix(c.mesh, one.cell_order); });
  same_csr(pi_one, pi_three);
}

TEST_CASE("the Laplacian is symmetric, negative semi-definite, singular exactly without an outlet", "[fv][flow]") {
  for (const FlowCase& c : all_cases()) {
    SECTION(c.name) {
      const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      const CsrMatrix& l = ops.laplacian;
      const double scale = max_abs(l);
      CHECK(max_difference(l, transpose(l)) <= 1e-14 * scale);
      for (unsigned seed = 1; seed <= 3; ++seed) {
        const std::vector<double> v = random_vector(static_cast<std::size_t>(l.rows), seed);
        CHECK(dot(v, reference_spmv(l, v)) <= 0);
      }
      const std::vector<double> ones(static_cast<std::size_t>(l.rows), 1.0);
      const std::vector<double> l_ones = reference_spmv(l, ones);
      if (c.boundaries.has_pressure_outlet()) {
        CHECK(max_abs(l_ones) > 0.1 * scale);
        CHECK(dot(ones, l_ones) < 0);
      } else {
        CHECK(max_abs(l_ones) <= 1e-13 * scale);
      }
    }
  }
}

TEST_CASE("G is exact for a linear pressure in the interior of a uniform hex box", "[fv][flow]") {
  const FlowCase c = make_case("hex", mesh::make_hex_box({.cells = {5, 4, 6}, .length = {1, 2, 0.5}}));
  const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
  const Vec3 a{0.7, -1.3, 2.1};
  std::vector<double> p(static_cast<std::size_t>(c.mesh.cell_count()));
  for (index_t i = 0; i < c.mesh.cell_count(); ++i) p[i] = dot(a, c.geometry.cell_centroid[ops.cell_order.new_to_old[i]]);
  std::vector<bool> touches_boundary(p.size(), false);
  for (index_t f = c.mesh.interior_face_count; f < c.mesh.face_count(); ++f)
    touches_boundary[ops.cell_order.old_to_new[c.mesh.face_owner[f]]] = true;
  int interior = 0;
  for (int d = 0; d < 3; ++d) {
    const std::vector<double> g = reference_spmv(cell_gradient_matrix(ops, d), p);
    for (std::size_t i = 0; i < p.size(); ++i)
      if (!touches_boundary[i]) {
        CHECK(g[i] == Approx(a[d]).epsilon(1e-12));
        ++interior;
      }
  }
  CHECK(interior == 3 * 3 * 2 * 4);
}

TEST_CASE("Gamma of a uniform velocity is U.n on interior and outlet faces, zero where u is prescribed", "[fv][flow]") {
  const Vec3 u{0.3, -1.1, 0.6};
  for (const FlowCase& c : all_cases()) {
    SECTION(c.name) {
      const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      std::vector<double> interleaved_u(3 * static_cast<std::size_t>(c.mesh.cell_count()));
      for (std::size_t j = 0; j < interleaved_u.size(); ++j) interleaved_u[j] = u[static_cast<int>(j % 3)];
      const std::vector<double> us = reference_spmv(ops.cell_to_face, interleaved_u);
      for (index_t f = 0; f < c.mesh.face_count(); ++f) {
        const bool prescribed = c.mesh.is_boundary(f) && fixes_face_velocity(c.boundaries.of_face(c.mesh, f).kind);
        CHECK(us[f] == Approx(prescribed ? 0.0 : dot(u, c.geometry.face_normal[f])).margin(1e-14));
      }
    }
  }
}

TEST_CASE("Gs has outlet rows -p_own/dn and empty wall and inlet rows", "[fv][flow]") {
  const FlowCase c = bounded_cases(true).front();
  const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
  int outlets = 0;
  for (index_t f = c.mesh.interior_face_count; f < c.mesh.face_count(); ++f) {
    if (c.boundaries.of_face(c.mesh, f).kind != BoundaryKind::outlet) {
      CHECK(ops.face_gradient.row_length(f) == 0);
      continue;
    }
    ++outlets;
    REQUIRE(ops.face_gradient.row_length(f) == 1);
    CHECK(entry(ops.face_gradient, f, ops.cell_order.old_to_new[c.mesh.face_owner[f]]) ==
          Approx(-1.0 / c.geometry.face_delta_n[f]));
  }
  CHECK(outlets == 3 * 5);
}

TEST_CASE("assembly rejects boundary conditions that do not match the patches", "[fv][flow]") {
  FlowCase c = bounded_cases(false).front();
  c.boundaries.by_patch.pop_back();
  CHECK_THROWS_AS(assemble_flow_operators(c.mesh, c.geometry, c.boundaries), Error);
  CHECK_THROWS_WITH(assemble_flow_operators(c.mesh, c.geometry, c.boundaries),
                    Catch::Contains("5 conditions") && Catch::Contains("6 boundary patches"));
}

TEST_CASE("assembly names a face whose normal distance is not positive", "[fv][flow]") {
  FlowCase c = bounded_cases(false).front();
  c.geometry.face_delta_n[3] = 0;
  CHECK_THROWS_WITH(assemble_flow_operators(c.mesh, c.geometry, c.boundaries), Catch::Contains("interior face 3"));
  c = bounded_cases(false).front();
  c.geometry.face_delta_n[c.mesh.interior_face_count] = -1e-3;
  CHECK_THROWS_WITH(assemble_flow_operators(c.mesh, c.geometry, c.boundaries),
                    Catch::Contains("boundary face " + std::to_string(c.mesh.interior_face_count)));
}

TEST_CASE("slip faces carry no flux and no viscous term, walls have a viscous term", "[fv][flow]") {
  for (const FlowCase& c : bounded_cases(true)) {
    SECTION(c.name) {
      const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      const CsrMatrix velocity_gradient =
          face_gradient_matrix(c.mesh, c.geometry, &c.boundaries, GradientOf::velocity, &ops.cell_order);
      const CsrMatrix viscous_rate_faces = transpose(ops.viscous_rate);
      int slip_faces = 0, wall_faces = 0;
      for (index_t f = c.mesh.interior_face_count; f < c.mesh.face_count(); ++f) {
        const BoundaryKind kind = c.boundaries.of_face(c.mesh, f).kind;
        if (kind != BoundaryKind::slip && kind != BoundaryKind::wall) continue;
        const index_t expected = kind == BoundaryKind::wall ? 1 : 0;  // Dirichlet u on walls only
        (kind == BoundaryKind::wall ? wall_faces : slip_faces) += 1;
        CHECK(velocity_gradient.row_length(f) == expected);
        CHECK(viscous_rate_faces.row_length(f) == expected);
        CHECK(ops.face_gradient.row_length(f) == 0);  // ∂p/∂n = 0
        CHECK(ops.cell_to_face.row_length(f) == 0);  // u_s = 0
        CHECK(ops.boundary_face_velocity[f] == 0.0);
      }
      const bool has_ymin = std::any_of(c.mesh.patches.begin(), c.mesh.patches.end(),
                                        [](const mesh::Patch& p) { return p.name == "ymin"; });
      CHECK((slip_faces > 0) == has_ymin);  // the mixed mesh has no ymin patch
      CHECK(wall_faces > 0);
    }
  }
}

TEST_CASE("Π holds ½, ½ on interior faces, 1 at the owner of boundary faces, its row lengths are known before it",
          "[fv][flow]") {
  std::vector<FlowCase> cases = all_cases();
  // A periodic direction one cell thick: faces whose owner is their neighbour (one merged entry of 1).
  cases.push_back(make_case("hex one cell thick", mesh::make_hex_box({.cells = {3, 2, 1},
                                                                      .length = {1, 1, 0.1},
                                                                      .periodic = {false, false, true}})));
  for (const FlowCase& c : cases) {
    SECTION(c.name) {
      const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      const CsrMatrix pi = face_interpolation_matrix(c.mesh, ops.cell_order);
      const std::vector<index_t> lengths = face_interpolation_row_lengths(c.mesh);
      REQUIRE(pi.rows == c.mesh.face_count());
      REQUIRE(lengths.size() == static_cast<std::size_t>(pi.rows));
      index_t merged = 0;
      for (index_t f = 0; f < pi.rows; ++f) {
        CHECK(pi.row_length(f) == lengths[f]);
        const index_t owner = ops.cell_order.old_to_new[c.mesh.face_owner[f]];
        if (c.mesh.is_boundary(f)) {
          CHECK(entry(pi, f, owner) == 1.0);
        } else if (c.mesh.face_owner[f] == c.mesh.face_neighbour[f]) {
          CHECK(entry(pi, f, owner) == 1.0);
          ++merged;
        } else {
          CHECK(entry(pi, f, owner) == 0.5);
          CHECK(entry(pi, f, ops.cell_order.old_to_new[c.mesh.face_neighbour[f]]) == 0.5);
        }
      }
      if (c.name == "hex one cell thick") CHECK(merged == 3 * 2);
    }
  }
}

TEST_CASE("viscous_rate holds A_f/δn_f at the cells of every face that diffuses", "[fv][flow]") {
  std::vector<FlowCase> cases = all_cases();
  // One cell thick and periodic in z: each z face is its cell's own neighbour and diffuses nothing.
  cases.push_back(make_case("hex one cell thick", mesh::make_hex_box({.cells = {3, 2, 1}, .periodic = {false, false, true}})));
  for (const FlowCase& c : cases) {
    SECTION(c.name) {
      const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      const CsrMatrix rate_by_face = transpose(ops.viscous_rate);
      REQUIRE(rate_by_face.rows == c.mesh.face_count());
      index_t self_faces = 0;
      for (index_t f = 0; f < c.mesh.face_count(); ++f) {
        const bool interior = !c.mesh.is_boundary(f);
        const bool self = interior && c.mesh.face_owner[f] == c.mesh.face_neighbour[f];
        self_faces += self ? 1 : 0;
        std::vector<index_t> cells;
        if (!self && (interior || fixes_velocity(c.boundaries.of_face(c.mesh, f).kind))) {
          cells.push_back(ops.cell_order.old_to_new[c.mesh.face_owner[f]]);
          if (interior) cells.push_back(ops.cell_order.old_to_new[c.mesh.face_neighbour[f]]);
          std::sort(cells.begin(), cells.end());
        }
        REQUIRE(rate_by_face.row_length(f) == static_cast<index_t>(cells.size()));
        const double rate = c.geometry.face_area[f] / c.geometry.face_delta_n[f];
        for (std::size_t k = 0; k < cells.size(); ++k) {
          CHECK(rate_by_face.col[rate_by_face.row_ptr[f] + static_cast<index_t>(k)] == cells[k]);
          CHECK(rate_by_face.val[rate_by_face.row_ptr[f] + static_cast<index_t>(k)] == Approx(rate).epsilon(1e-15));
        }
      }
      CHECK((self_faces > 0) == (c.name == "hex one cell thick"));
    }
  }
}
