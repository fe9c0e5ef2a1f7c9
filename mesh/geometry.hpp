#pragma once
#include "core/default_init_allocator.hpp"
#include "mesh/mesh.hpp"

namespace miniapp::mesh {

// Geometric quantities of a mesh, computed once at pre-processing (every entry written, in parallel:
// the arrays do not zero-fill what they are sized to).
struct MeshGeometry {
  UninitializedVector<double> cell_volume;
  UninitializedVector<Vec3> cell_centroid;
  UninitializedVector<double> face_area;
  UninitializedVector<Vec3> face_normal;    // unit, out of the owner
  UninitializedVector<Vec3> face_centroid;
  // Interior faces: |n · (x_nb − x_own)| with x_nb shifted across periodic links (thesis eq. 1.7);
  // boundary faces: |n · (x_face − x_own)|.
  UninitializedVector<double> face_delta_n;
  // Vector from owner centroid to neighbour centroid (periodic shift applied); to the face centroid on
  // boundary faces.
  UninitializedVector<Vec3> face_delta;
};

MeshGeometry compute_geometry(const Mesh& mesh);

}  // namespace miniapp::mesh
