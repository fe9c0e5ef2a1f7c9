#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/stage_profile.hpp"
#include "mesh/mesh.hpp"

namespace miniapp::mesh {

// An axis-aligned box split into nx × ny × nz hexahedra (or tetrahedra). Patches are named
// xmin, xmax, ymin, ymax, zmin, zmax; a periodic axis glues its two patches (link named after them).
struct BoxSpec {
  std::array<index_t, 3> cells{8, 8, 8};
  Vec3 origin{0, 0, 0};
  Vec3 length{1, 1, 1};
  // tanh clustering towards both walls of each axis; 0 = uniform spacing. Node i of n on an axis of
  // length L: x_i = x0 + L (1 + tanh(β ξ_i) / tanh β) / 2, ξ_i = 2 i / n − 1 (see mesh/spacing.hpp).
  std::array<double, 3> stretch{0, 0, 0};
  std::array<bool, 3> periodic{false, false, false};
};

// With `profile`, both time their parts (cell soup and build_mesh's).
Mesh make_hex_box(const BoxSpec& spec, StageProfile* profile = nullptr);
// Each hexahedron split into 6 tetrahedra around one of its diagonals, mirrored from one lattice cell
// to the next along each axis (so the split alternates like the diagonals of make_tri_rect, which the
// compact Laplacian needs to be consistent); neighbouring (and periodic) faces match for any cell
// counts.
Mesh make_tet_box(const BoxSpec& spec, StageProfile* profile = nullptr);

enum class BoxCells { hexahedra, tetrahedra };

// Some consecutive z-layers of a box, as a mesh of their own: what a rank generates for itself when a
// box is split into slabs along z, without building the whole box.
struct BoxLayers {
  Mesh mesh;
  // Per cell of `mesh`: its index in make_hex_box / make_tet_box of the same spec.
  std::vector<index_t> global_cell;
};

// The cells of the box's z-layers first, first + 1, ..., first + count − 1 (taken modulo nz when z is
// periodic, so the window may wrap around the box: its nodes then continue across the periodic end,
// shifted by the box length), with exactly the nodes, faces and cell order of the whole box's
// generator in those layers. Patches: xmin, xmax, ymin, ymax as in the box (x and y periodic as in the
// box); zmin and zmax (when z is not periodic) hold the window's end planes that are the box's ends;
// the other end planes form a last patch named `cut_patch`. Throws miniapp::Error for count outside
// [1, nz], or a window beyond the ends of a box that is not periodic in z.
BoxLayers make_box_layers(const BoxSpec& spec, BoxCells cells, index_t first, index_t count,
                          const std::string& cut_patch);

// A 2D mesh of triangles and quadrilaterals in the xy-plane with named boundary edges, the input of
// extrusion.
struct Mesh2d {
  std::vector<std::array<double, 2>> nodes;
  std::vector<index_t> cell_node_offsets{0};  // 3 or 4 nodes each, counter-clockwise
  std::vector<index_t> cell_nodes;
  std::vector<std::string> patch_names;
  std::vector<std::array<index_t, 2>> boundary_edges;
  std::vector<index_t> boundary_edge_patch;
  // As Mesh::cells_in_lattice_order (make_quad_rect, make_tri_rect); extrusion passes it on.
  bool cells_in_lattice_order = false;

  index_t cell_count() const { return static_cast<index_t>(cell_node_offsets.size()) - 1; }
};

// A rectangle [x0, x0+lx] × [y0, y0+ly] as nx × ny quads, or each quad split into two triangles
// (alternating diagonals). Edge patches xmin, xmax, ymin, ymax.
struct RectSpec {
  std::array<index_t, 2> cells{8, 8};
  std::array<double, 2> origin{0, 0};
  std::array<double, 2> length{1, 1};
  std::array<double, 2> stretch{0, 0};
};
Mesh2d make_quad_rect(const RectSpec& spec);
Mesh2d make_tri_rect(const RectSpec& spec);

// Extrudes a 2D mesh uniformly along z into prisms (from triangles) and hexahedra (from quads):
// `layers` cells over [z0, z0 + length]. The two end planes (patches zmin, zmax) are glued
// periodically unless periodic = false. 2D edge patches become side patches of the same name.
struct ExtrusionSpec {
  index_t layers = 8;
  double z0 = 0;
  double length = 1;
  bool periodic = true;
};
Mesh extrude(const Mesh2d& base, const ExtrusionSpec& spec);

}  // namespace miniapp::mesh
