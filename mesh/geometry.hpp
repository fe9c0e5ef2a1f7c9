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
  // |n · face_deltas| (thesis eq. 1.7): interior faces |n · (x_nb − x_own)| with x_nb shifted across
  // periodic links; boundary faces |n · (x_face − x_own)|.
  UninitializedVector<double> face_delta_n;
};

MeshGeometry compute_geometry(const Mesh& mesh);

// Per face, the vector from the owner's centroid to the neighbour's (shifted across periodic links),
// or to the face centroid on boundary faces. Made where it is read (the FFT path's extrusion check,
// the mesh report) rather than held: the operators need only its normal part, face_delta_n.
UninitializedVector<Vec3> face_deltas(const Mesh& mesh, const MeshGeometry& geometry);

}  // namespace miniapp::mesh
