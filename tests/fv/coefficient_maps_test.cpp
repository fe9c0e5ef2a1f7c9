// E_C and E_D: the values they lay into the sELL layout of the momentum pattern, skew-symmetry of C
// for a divergence-free u_s, and D = −M diag(ν) Gs_u symmetric positive semi-definite.
#include <omp.h>

#include <catch2/catch.hpp>

#include "fv_test_support.hpp"
#include "operators/fv/convection_operator.hpp"
#include "operators/fv/diffusion_operator.hpp"
#include "operators/fv/face_gradient.hpp"
#include "operators/sparse/sell_matrix.hpp"

using namespace miniapp;
using namespace miniapp::fv;
using namespace miniapp::fv::test;

namespace {

// The operator whose values `map` lays out for the face field `face_values`, back in CSR.
CsrMatrix operator_from_map(const CsrMatrix& map, const std::vector<double>& face_values, SellMatrix layout) {
  const std::vector<double> values = reference_spmv(map, face_values);
  layout.val.assign(values.begin(), values.end());
  return to_csr(layout);
}

// (Cφ)_i = Σ_f ½(φ_i + φ_j) F_f with F_f = A_f u_f out of i; outlet faces F_f φ_i; by a face loop.
CsrMatrix convection_by_faces(const FlowCase& c, const FlowOperators& ops, const std::vector<double>& us) {
  std::vector<Triplet> t;
  for (index_t f = 0; f < c.mesh.face_count(); ++f) {
    const index_t o = ops.cell_order.old_to_new[c.mesh.face_owner[f]];
    const double flux = c.geometry.face_area[f] * us[f];
    if (!c.mesh.is_boundary(f)) {
      const index_t n = ops.cell_order.old_to_new[c.mesh.face_neighbour[f]];
      t.insert(t.end(), {{o, o, flux / 2}, {o, n, flux / 2}, {n, n, -flux / 2}, {n, o, -flux / 2}});
    } else if (c.boundaries.of_face(c.mesh, f).kind == BoundaryKind::outlet) {
      t.push_back({o, o, flux});
    }
  }
  return csr_from_triplets(c.mesh.cell_count(), c.mesh.cell_count(), std::move(t));
}

// E of M diag(φ) B from its terms (position of (i, j), f, M_if B_fj) sorted into CSR by
// csr_from_triplets: the map the slice-by-slice builder must give bitwise.
CsrMatrix map_from_triplets(const CsrMatrix& m, const CsrMatrix& b, const CsrMatrix& pattern, const SellMatrix& layout) {
  std::vector<Triplet> t;
  for (index_t i = 0; i < m.rows; ++i)
    for (index_t p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p)
      for (index_t q = b.row_ptr[m.col[p]]; q < b.row_ptr[m.col[p] + 1]; ++q) {
        index_t k = 0;
        while (pattern.col[pattern.row_ptr[i] + k] != b.col[q]) ++k;
        t.push_back({layout.position(i, k), m.col[p], m.val[p] * b.val[q]});
      }
  return csr_from_triplets(layout.stored_entries(), m.cols, std::move(t));
}

bool same_bits(const CsrMatrix& a, const CsrMatrix& b) {
  return a.rows == b.rows && a.cols == b.cols && a.row_ptr == b.row_ptr && a.col == b.col && a.val == b.val;
}

std::vector<FlowCase> map_cases() {
  std::vector<FlowCase> cases = periodic_cases();
  for (FlowCase& c : bounded_cases(true)) cases.push_back(std::move(c));
  return cases;
}

// check(case, its operators, its momentum pattern, a layout of it) in a section per case and slice height.
template <class Check>
void for_each_layout(std::initializer_list<index_t> slices, Check check) {
  for (const FlowCase& c : map_cases())
    for (index_t slice : slices)
      SECTION(c.name + ", slices of " + std::to_string(slice)) {
        const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
        const CsrMatrix pattern = momentum_pattern(ops.laplacian);
        check(c, ops, pattern, to_sell(pattern, slice));
      }
}

}  // namespace

TEST_CASE("the momentum pattern holds each cell and its face neighbours as stored zeros", "[fv][maps]") {
  for (const FlowCase& c : map_cases()) {
    SECTION(c.name) {
      const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      const CsrMatrix pattern = momentum_pattern(ops.laplacian);
      CHECK(max_abs(pattern) == 0);
      std::vector<index_t> expected(static_cast<std::size_t>(c.mesh.cell_count()), 1);
      for (index_t f = 0; f < c.mesh.interior_face_count; ++f) {
        ++expected[c.mesh.face_owner[f]];
        ++expected[c.mesh.face_neighbour[f]];
      }
      for (index_t i = 0; i < pattern.rows; ++i)
        CHECK(pattern.row_length(i) == expected[ops.cell_order.new_to_old[i]]);
      CHECK(to_csr(to_sell(pattern, 4)).nnz() == pattern.nnz());
      const std::vector<index_t> lengths = momentum_row_lengths(ops.laplacian);
      REQUIRE(static_cast<index_t>(lengths.size()) == pattern.rows);
      for (index_t i = 0; i < pattern.rows; ++i) CHECK(lengths[i] == pattern.row_length(i));
    }
  }
}

TEST_CASE("the momentum pattern adds the diagonal where the Laplacian lacks it", "[fv][maps]") {
  // Row 0 couples to 1 only, row 1 has its diagonal, row 2 is empty (a cell walled on every side).
  CsrMatrix laplacian;
  laplacian.rows = laplacian.cols = 3;
  laplacian.row_ptr = {0, 1, 3, 3};
  laplacian.col = {1, 0, 1};
  laplacian.val = {1.0, 1.0, -1.0};
  const CsrMatrix pattern = momentum_pattern(laplacian);
  CHECK((pattern.row_ptr == std::vector<index_t>{0, 2, 4, 5}));
  CHECK((pattern.col == std::vector<index_t>{0, 1, 0, 1, 2}));
  CHECK((momentum_row_lengths(laplacian) == std::vector<index_t>{2, 2, 1}));
}

TEST_CASE("E_C u_s lays C(u_s) at the sELL positions of a face-loop assembly", "[fv][maps]") {
  for_each_layout({1, 4, 32}, [](const FlowCase& c, const FlowOperators& ops, const CsrMatrix& pattern,
                                      const SellMatrix& layout) {
    const CsrMatrix e_c = convection_map(c.mesh, c.geometry, ops, pattern, layout);
    REQUIRE(e_c.rows == layout.stored_entries());
    REQUIRE(e_c.cols == c.mesh.face_count());
    const std::vector<double> us = random_vector(static_cast<std::size_t>(c.mesh.face_count()), 11);
    const CsrMatrix expected = convection_by_faces(c, ops, us);
    CHECK(max_difference(operator_from_map(e_c, us, layout), expected) <= 1e-14 * max_abs(expected));
  });
}

TEST_CASE("E_C and E_D are bitwise their terms sorted into CSR, on one thread and on several", "[fv][maps]") {
  for_each_layout({1, 4, 8}, [](const FlowCase& c, const FlowOperators& ops, const CsrMatrix& pattern,
                                      const SellMatrix& layout) {
    const CsrMatrix interpolation = convective_interpolation_matrix(c.mesh, ops.boundaries, ops.cell_order);
    CsrMatrix minus_gradient =
        face_gradient_matrix(c.mesh, c.geometry, &ops.boundaries, GradientOf::velocity, &ops.cell_order);
    for (double& v : minus_gradient.val) v = -v;
    const int threads = omp_get_max_threads();
    for (int n : {1, 3}) {
      omp_set_num_threads(n);
      CHECK(same_bits(convection_map(c.mesh, c.geometry, ops, pattern, layout),
                      map_from_triplets(ops.divergence, interpolation, pattern, layout)));
      CHECK(same_bits(diffusion_map(c.mesh, c.geometry, ops, pattern, layout),
                      map_from_triplets(ops.divergence, minus_gradient, pattern, layout)));
    }
    omp_set_num_threads(threads);
  });
}

TEST_CASE("D's values for a constant viscosity, from the Laplacian, are E_D nu to round-off", "[fv][maps]") {
  // Every boundary kind: walls and inlets (velocity fixed, pressure not), outlets (the reverse), slip
  // faces (neither), periodic faces; slice heights with padding.
  for_each_layout({1, 4, 32}, [](const FlowCase& c, const FlowOperators& ops, const CsrMatrix& pattern,
                                      const SellMatrix& layout) {
    const double nu = 0.37;
    const std::vector<double> want = reference_spmv(diffusion_map(c.mesh, c.geometry, ops, pattern, layout),
                                                    std::vector<double>(static_cast<std::size_t>(c.mesh.face_count()), nu));
    const std::vector<double> got = diffusion_values(c.mesh, c.geometry, ops, pattern, layout, nu);
    REQUIRE(got.size() == want.size());
    double scale = 0, difference = 0;
    for (std::size_t p = 0; p < got.size(); ++p) {
      scale = std::max(scale, std::abs(want[p]));
      difference = std::max(difference, std::abs(got[p] - want[p]));
    }
    REQUIRE(scale > 0);
    CHECK(difference <= 1e-14 * scale);
  });
}

TEST_CASE("C(u_s) is skew-symmetric when M u_s = 0", "[fv][maps]") {
  for (const FlowCase& c : periodic_cases()) {
    SECTION(c.name) {
      const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      const CsrMatrix pattern = momentum_pattern(ops.laplacian);
      const SellMatrix layout = to_sell(pattern, 8);
      const std::vector<double> us = divergence_free_face_velocity(c, ops, 5);
      double max_flux = 0;
      for (index_t f = 0; f < c.mesh.face_count(); ++f)
        max_flux = std::max(max_flux, std::abs(c.geometry.face_area[f] * us[f]));
      REQUIRE(max_abs(reference_spmv(ops.divergence, us)) <= 1e-13 * max_flux);

      const CsrMatrix conv = operator_from_map(convection_map(c.mesh, c.geometry, ops, pattern, layout), us, layout);
      CHECK(max_difference(conv, scaled(transpose(conv), -1)) <= 1e-13 * max_flux);
      for (unsigned seed = 1; seed <= 3; ++seed) {
        const std::vector<double> v = random_vector(static_cast<std::size_t>(conv.rows), seed);
        CHECK(std::abs(dot(v, reference_spmv(conv, v))) <= 1e-12 * dot(v, v) * max_flux);
      }
    }
  }
}

TEST_CASE("E_D nu_s equals -M diag(nu) Gs_u and D is symmetric positive semi-definite", "[fv][maps]") {
  for (const FlowCase& c : map_cases()) {
    SECTION(c.name) {
      const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      const CsrMatrix pattern = momentum_pattern(ops.laplacian);
      const SellMatrix layout = to_sell(pattern, 4);
      const std::vector<double> nu = random_vector(static_cast<std::size_t>(c.mesh.face_count()), 3, 0.5, 2.0);
      const CsrMatrix diffusion = operator_from_map(diffusion_map(c.mesh, c.geometry, ops, pattern, layout), nu, layout);

      CsrMatrix m_nu = ops.divergence;
      for (std::size_t p = 0; p < m_nu.val.size(); ++p) m_nu.val[p] *= -nu[m_nu.col[p]];
      const Permutation faces = Permutation::identity(c.mesh.face_count());
      const CsrMatrix gs_u = permute(face_gradient_matrix(c.mesh, c.geometry, &c.boundaries, GradientOf::velocity), faces,
                                     ops.cell_order);
      const CsrMatrix expected = multiply(m_nu, gs_u);
      const double scale = max_abs(expected);
      CHECK(max_difference(diffusion, expected) <= 1e-14 * scale);
      CHECK(max_difference(diffusion, transpose(diffusion)) <= 1e-14 * scale);
      for (unsigned seed = 1; seed <= 3; ++seed) {
        const std::vector<double> v = random_vector(static_cast<std::size_t>(diffusion.rows), seed);
        CHECK(dot(v, reference_spmv(diffusion, v)) >= 0);
      }
    }
  }
}

TEST_CASE("the coefficient maps reject a layout of another pattern", "[fv][maps]") {
  const FlowCase c = periodic_cases().front();
  const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
  const CsrMatrix pattern = momentum_pattern(ops.laplacian);
  const SellMatrix other = to_sell(ops.cell_divergence[0], 4);  // x-neighbours only on hexahedra
  CHECK_THROWS_AS(convection_map(c.mesh, c.geometry, ops, pattern, other), Error);
  CHECK_THROWS_WITH(diffusion_map(c.mesh, c.geometry, ops, pattern, other), Catch::Contains("momentum pattern"));
  CHECK_THROWS_WITH(diffusion_values(c.mesh, c.geometry, ops, pattern, other, 1.0),
                    Catch::Contains("momentum pattern"));
}

TEST_CASE("the coefficient maps name an entry of the operator missing from the momentum pattern", "[fv][maps]") {
  const FlowCase c = periodic_cases().front();
  const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
  // Row 5's largest column moved past the last one: the same row lengths (so the layout is accepted),
  // but the operator's entry (5, j) has no place left in the pattern.
  CsrMatrix pattern = momentum_pattern(ops.laplacian);
  const index_t last = pattern.row_ptr[6] - 1, moved = pattern.col[last];
  REQUIRE(moved + 1 < pattern.cols);
  pattern.col[last] = pattern.cols - 1;
  const SellMatrix layout = to_sell(pattern, 4);
  const std::string entry = "entry (5, " + std::to_string(moved) + ") is missing from the momentum pattern";
  const int threads = omp_get_max_threads();
  for (int n : {1, 3}) {
    omp_set_num_threads(n);
    CHECK_THROWS_WITH(convection_map(c.mesh, c.geometry, ops, pattern, layout), Catch::Contains(entry));
    CHECK_THROWS_WITH(diffusion_map(c.mesh, c.geometry, ops, pattern, layout), Catch::Contains(entry));
  }
  omp_set_num_threads(threads);
}
