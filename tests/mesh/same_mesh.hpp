#pragma once
// Bitwise comparison of built meshes and their geometry, and runs of a build on different thread
// counts: the builder and compute_geometry must give the same faces, in the same order, on any number
// of threads (the face numbering fixes the order of every sum the operators make).
#include <algorithm>
#include <array>
#include <limits>
#include <tuple>
#include <utility>

#include <catch2/catch.hpp>

#include "mesh/geometry.hpp"
#include "mesh/mesh.hpp"
#include "tests/thread_counts.hpp"

namespace miniapp::mesh::test {

inline void check_same_mesh(const Mesh& a, const Mesh& b) {
  CHECK(a.nodes == b.nodes);
  CHECK(a.cell_types == b.cell_types);
  CHECK(a.cell_nodes == b.cell_nodes);
  CHECK(a.face_node_offsets == b.face_node_offsets);
  CHECK(a.face_nodes == b.face_nodes);
  CHECK(a.face_owner == b.face_owner);
  CHECK(a.face_neighbour == b.face_neighbour);
  CHECK(a.interior_face_count == b.interior_face_count);
  REQUIRE(a.patches.size() == b.patches.size());
  for (std::size_t p = 0; p < a.patches.size(); ++p) {
    CHECK(a.patches[p].name == b.patches[p].name);
    CHECK(a.patches[p].first_face == b.patches[p].first_face);
    CHECK(a.patches[p].face_count == b.patches[p].face_count);
  }
  REQUIRE(a.periodic_faces.size() == b.periodic_faces.size());
  for (std::size_t i = 0; i < a.periodic_faces.size(); ++i) {
    CHECK(a.periodic_faces[i].face == b.periodic_faces[i].face);
    CHECK(a.periodic_faces[i].link == b.periodic_faces[i].link);
  }
}

inline void check_same_geometry(const MeshGeometry& a, const MeshGeometry& b) {
  CHECK(a.cell_volume == b.cell_volume);
  CHECK(a.cell_centroid == b.cell_centroid);
  CHECK(a.face_area == b.face_area);
  CHECK(a.face_normal == b.face_normal);
  CHECK(a.face_centroid == b.face_centroid);
  CHECK(a.face_delta_n == b.face_delta_n);
}

// A mesh built on 1 and on 3 threads, and the geometry of each, are the same to the bit.
template <class Build>
void check_thread_count_independent(Build build) {
  const auto [one, three] = miniapp::test::on_one_and_three_threads([&] {
    Mesh m = build();
    MeshGeometry g = compute_geometry(m);
    return std::make_pair(std::move(m), std::move(g));
  });
  check_same_mesh(one.first, three.first);
  check_same_geometry(one.second, three.second);
}

// The face numbering the builder promises: interior faces by owner, then neighbour (periodic faces
// after them), boundary faces by patch, then owner; faces with the same two by their sorted node ids.
inline void check_face_order(const Mesh& m) {
  // A triangle's ids padded past every node id, as the builder keys them.
  const auto sorted_nodes = [&](index_t f) {
    std::array<index_t, 4> ids;
    ids.fill(std::numeric_limits<index_t>::max());
    for (index_t i = m.face_node_offsets[f]; i < m.face_node_offsets[f + 1]; ++i)
      ids[i - m.face_node_offsets[f]] = m.face_nodes[i];
    std::sort(ids.begin(), ids.end());
    return ids;
  };
  const index_t plain = m.interior_face_count - static_cast<index_t>(m.periodic_faces.size());
  std::size_t out_of_order = 0;
  for (index_t f = 0; f + 1 < plain; ++f)
    if (!(std::tuple(m.face_owner[f], m.face_neighbour[f], sorted_nodes(f)) <
          std::tuple(m.face_owner[f + 1], m.face_neighbour[f + 1], sorted_nodes(f + 1))))
      ++out_of_order;
  for (const Patch& p : m.patches)
    for (index_t f = p.first_face; f + 1 < p.first_face + p.face_count; ++f)
      if (!(std::tuple(m.face_owner[f], sorted_nodes(f)) < std::tuple(m.face_owner[f + 1], sorted_nodes(f + 1))))
        ++out_of_order;
  CHECK(out_of_order == 0);
}

}  // namespace miniapp::mesh::test
