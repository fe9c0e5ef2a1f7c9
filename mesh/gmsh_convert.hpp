#pragma once
#include <cstddef>

#include "mesh/generators.hpp"
#include "mesh/gmsh_file.hpp"
#include "mesh/mesh_builder.hpp"

namespace miniapp::mesh::gmsh {

// The cells of a 3D Gmsh file: volume elements become cells (Gmsh node order), triangles and
// quadrangles of a physical surface group become boundary faces of the patch named after the group.
// Nodes are renumbered densely in order of first use by a cell; unused nodes are dropped.
// Throws miniapp::Error (naming the file and element) when there are no volume elements, an element
// repeats a node, a surface lies in several physical groups, or a boundary face is not on any cell.
CellSoup to_cell_soup(const GmshFile& file);

// The 2D mesh of a Gmsh file: triangles and quadrangles become cells, made counter-clockwise in the
// xy-plane; line elements of a physical curve group become boundary edges of the patch named after
// the group. Throws miniapp::Error (naming the file and node or element) when the file holds volume
// elements or no surface elements, is not planar in z = const, has a cell of zero area, a boundary
// edge in no physical group, or a grouped edge that is not on the boundary.
Mesh2d to_mesh2d(const GmshFile& file);

// How many elements of dimension `dim` lie on entities outside every physical group.
std::size_t ungrouped_element_count(const GmshFile& file, int dim);

}  // namespace miniapp::mesh::gmsh
