#include <catch2/catch.hpp>

#include "mesh/generators.hpp"
#include "mesh_checks.hpp"
#include "same_mesh.hpp"

using namespace miniapp;
using namespace miniapp::mesh;
using namespace miniapp::mesh::test;

// Sizes with several thousand cells per thread and nodes enough for many buckets of the face matching
// and many blocks of the face order on each of the 3 threads.

TEST_CASE("a stretched hex box, periodic in x and z, builds the same on 1 and 3 threads", "[mesh][threads]") {
  BoxSpec spec;
  spec.cells = {40, 30, 20};
  spec.stretch = {0, 1.5, 0};
  spec.periodic = {true, false, true};
  check_thread_count_independent([&] { return make_hex_box(spec); });
  const Mesh m = make_hex_box(spec);
  check_face_order(m);
  check_mesh(m, compute_geometry(m), 1.0);
}

TEST_CASE("a tet box, periodic in y, builds the same on 1 and 3 threads", "[mesh][threads]") {
  BoxSpec spec;
  spec.cells = {24, 20, 16};
  spec.periodic = {false, true, false};
  check_thread_count_independent([&] { return make_tet_box(spec); });
  const Mesh m = make_tet_box(spec);
  check_face_order(m);
  check_mesh(m, compute_geometry(m), 1.0);
}

TEST_CASE("prisms extruded from triangles, periodic in z, build the same on 1 and 3 threads", "[mesh][threads]") {
  RectSpec rect;
  rect.cells = {60, 40};
  rect.stretch = {1.0, 0};
  const Mesh2d base = make_tri_rect(rect);
  check_thread_count_independent([&] { return extrude(base, {30, 0, 1, true}); });
  const Mesh m = extrude(base, {30, 0, 1, true});
  check_face_order(m);
  check_mesh(m, compute_geometry(m), 1.0);
}
