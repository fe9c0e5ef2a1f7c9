#pragma once
#include <string>

#include "core/stage_profile.hpp"
#include "mesh/generators.hpp"
#include "mesh/gmsh_file.hpp"
#include "mesh/mesh.hpp"
#include "mesh/mesh_builder.hpp"

namespace miniapp::mesh {

// Reads a Gmsh .msh file, format 4.1, ASCII or binary. Volume elements (tetrahedra, pyramids, prisms,
// hexahedra; first order) become cells; surface elements in physical groups become boundary faces of
// the patch named by the group. Throws miniapp::Error naming the file and the problem for anything
// it cannot use (other format versions, unknown element types, boundary faces outside any physical
// group, truncated sections).
Mesh read_gmsh_3d(const std::string& path, const std::vector<PeriodicRequest>& periodic = {});

// read_gmsh_3d on a file already read; with `profile`, times its parts (cell soup and build_mesh's).
Mesh gmsh_mesh_3d(const gmsh::GmshFile& file, const std::vector<PeriodicRequest>& periodic = {},
                  StageProfile* profile = nullptr);

// Reads a 2D Gmsh .msh file (triangles and quadrangles in the xy-plane; line elements in physical
// groups become boundary edge patches), for extrusion.
Mesh2d read_gmsh_2d(const std::string& path);

// The highest element dimension in the file (2 or 3).
int gmsh_dimension(const std::string& path);
int gmsh_dimension(const gmsh::GmshFile& file);

}  // namespace miniapp::mesh
