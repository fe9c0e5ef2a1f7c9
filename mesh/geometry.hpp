#pragma once
#include <vector>

#include "mesh/mesh.hpp"

namespace miniapp::mesh {

// Geometric quantities of a mesh, computed once at pre-processing.
struct MeshGeometry {
  std::vector<double> cell_volume;
  std::vector<Vec3> cell_centroid;
  std::vector<double> face_area;
  std::vector<Vec3> face_normal;    // unit, out of the owner
  std::vector<Vec3> face_centroid;
  // Interior faces: |n · (x_nb − x_own)| with x_nb shifted across periodic links (thesis eq. 1.7);
  // boundary faces: |n · (x_face − x_own)|.
  std::vector<double> face_delta_n;
  // Vector from owner centroid to neighbour centroid (periodic shift applied); to the face centroid on
  // boundary faces.
  std::vector<Vec3> face_delta;
};

MeshGeometry compute_geometry(const Mesh& mesh);

}  // namespace miniapp::mesh
