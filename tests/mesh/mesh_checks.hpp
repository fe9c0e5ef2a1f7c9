#pragma once
// Invariants every built mesh must satisfy, checked with Catch2 assertions by the mesh tests.
#include <catch2/catch.hpp>

#include "mesh/cell_faces.hpp"
#include "mesh/geometry.hpp"
#include "mesh/mesh.hpp"

namespace miniapp::mesh::test {

// Node average of a cell's local face `local`, computed from the cell's own nodes.
inline Vec3 cell_face_average(const Mesh& m, index_t cell, const LocalFace& f) {
  Vec3 x;
  for (int i = 0; i < f.size; ++i) x += m.nodes[m.cell_nodes[m.cell_node_offsets[cell] + f.nodes[i]]];
  return x * (1.0 / f.size);
}

inline Vec3 face_average(const Mesh& m, index_t face) {
  Vec3 x;
  const index_t begin = m.face_node_offsets[face], end = m.face_node_offsets[face + 1];
  for (index_t i = begin; i < end; ++i) x += m.nodes[m.face_nodes[i]];
  return x * (1.0 / (end - begin));
}

// Volumes positive and summing to `domain_volume`; every cell closed (Σ A n = 0 to round-off);
// normals out of the owner; face lists consistent; periodic twins where the link says.
inline void check_mesh(const Mesh& m, const MeshGeometry& g, double domain_volume) {
  double total = 0;
  for (double v : g.cell_volume) {
    REQUIRE(v > 0);
    total += v;
  }
  CHECK(total == Approx(domain_volume).epsilon(1e-12));

  std::vector<Vec3> sum(m.cell_count());
  std::vector<double> area(m.cell_count(), 0.0);
  std::size_t inward = 0, misordered = 0;
  for (index_t f = 0; f < m.face_count(); ++f) {
    const index_t own = m.face_owner[f], nb = m.face_neighbour[f];
    const Vec3 s = g.face_normal[f] * g.face_area[f];
    sum[own] += s;
    area[own] += g.face_area[f];
    if (nb >= 0) {
      sum[nb] -= s;
      area[nb] += g.face_area[f];
    }
    if (dot(g.face_normal[f], g.face_centroid[f] - g.cell_centroid[own]) <= 0) ++inward;
    if (m.is_boundary(f) != (nb < 0)) ++misordered;
  }
  CHECK(inward == 0);
  CHECK(misordered == 0);
  double worst = 0;
  for (index_t c = 0; c < m.cell_count(); ++c) worst = std::max(worst, norm(sum[c]) / area[c]);
  CHECK(worst < 1e-13);

  std::vector<char> periodic(m.face_count(), 0);
  for (const PeriodicFace& p : m.periodic_faces) {
    periodic[p.face] = 1;
    REQUIRE(!m.is_boundary(p.face));
    const Vec3 image = face_average(m, p.face) + m.periodic_links[p.link].translation;
    const index_t nb = m.face_neighbour[p.face];
    double nearest = 1e300;
    for (const LocalFace& lf : local_faces(m.cell_types[nb]))
      nearest = std::min(nearest, norm(cell_face_average(m, nb, lf) - image));
    CHECK(nearest < 1e-12 * (1 + norm(image)));
  }
  std::size_t upper = 0;
  for (index_t f = 0; f < m.interior_face_count; ++f)
    if (periodic[f] || m.face_owner[f] < m.face_neighbour[f]) ++upper;
  CHECK(upper == static_cast<std::size_t>(m.interior_face_count));

  index_t next = m.interior_face_count;
  for (const Patch& p : m.patches) {
    CHECK(p.first_face == next);
    next += p.face_count;
  }
  CHECK(next == m.face_count());
}

}  // namespace miniapp::mesh::test
