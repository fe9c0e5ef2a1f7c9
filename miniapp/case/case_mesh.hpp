#pragma once
#include "core/stage_profile.hpp"
#include "mesh/generators.hpp"
#include "mesh/mesh.hpp"
#include "miniapp/case/case_config.hpp"

namespace miniapp::cases {

// The mesh a case's [mesh] describes: a generated box (hex, tet, prism) or a Gmsh file (a 2D file
// extruded by mesh.layers over mesh.length_z, periodic in z). Check the boundary tables against it
// with validate_boundaries. Throws miniapp::Error naming the mesh file for reading errors, and for a
// 2D file without mesh.layers or a 3D file with them. With `profile`, times the parts of reading a
// 3D file or generating a hex or tet box.
mesh::Mesh make_case_mesh(const MeshConfig& mesh, StageProfile* profile = nullptr);

// The box of a generated hex or tet mesh (generator "hex" or "tet").
mesh::BoxSpec box_spec(const MeshConfig& mesh);

}  // namespace miniapp::cases
