#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"
#include "core/vec3.hpp"

namespace miniapp::mesh {

enum class CellType : std::uint8_t { tetrahedron, pyramid, prism, hexahedron };

// Nodes per cell of each type (4, 5, 6, 8).
int node_count(CellType type);
std::string_view name(CellType type);

// A named set of boundary faces, stored contiguously: faces [first_face, first_face + face_count).
struct Patch {
  std::string name;
  index_t first_face = 0;
  index_t face_count = 0;
};

// Two boundary patches glued by a translation: every face f of patch `a` matches the face of patch
// `b` at f's position + translation. The pair became one interior face (owner on side a); the
// patches themselves are gone from Mesh::patches.
struct PeriodicLink {
  std::string patch_a, patch_b;
  Vec3 translation;
};

// An interior face that closes a periodic link: seen from the owner, the neighbour cell sits at its
// centroid minus the link's translation.
struct PeriodicFace {
  index_t face = 0;
  index_t link = 0;
};

// An unstructured finite-volume mesh of mixed cells (host side, pre-processing only).
//
// Conventions, relied on by geometry and operator assembly:
// - cell node order is Gmsh's (= VTK's) for each type;
// - faces [0, interior_face_count) are interior, owner < neighbour except for periodic faces;
//   boundary faces follow, grouped by patch, with face_neighbour = -1;
// - face nodes are ordered so that the right-hand normal points out of the owner.
struct Mesh {
  std::vector<Vec3> nodes;

  std::vector<CellType> cell_types;
  std::vector<index_t> cell_node_offsets{0};  // size cells + 1
  std::vector<index_t> cell_nodes;

  std::vector<index_t> face_node_offsets{0};  // size faces + 1
  std::vector<index_t> face_nodes;
  std::vector<index_t> face_owner;
  std::vector<index_t> face_neighbour;  // -1 on boundary faces
  index_t interior_face_count = 0;

  std::vector<Patch> patches;
  std::vector<PeriodicLink> periodic_links;
  std::vector<PeriodicFace> periodic_faces;

  // Cells numbered along a generator's lattice (make_hex_box, make_tet_box, extrusions of a generated
  // rectangle): each face neighbour lies at one of a few fixed offsets, so a sparse product in this
  // order reads its vector in a few sequential streams, which RCM would only scatter. Operator
  // assembly keeps such an order (rows only grouped by length); read meshes leave it false.
  bool cells_in_lattice_order = false;

  index_t cell_count() const { return static_cast<index_t>(cell_types.size()); }
  index_t face_count() const { return static_cast<index_t>(face_owner.size()); }
  index_t node_count() const { return static_cast<index_t>(nodes.size()); }
  index_t boundary_face_count() const { return face_count() - interior_face_count; }
  bool is_boundary(index_t face) const { return face >= interior_face_count; }
  // The patch with this name, or nullptr.
  const Patch* find_patch(std::string_view name) const;
};

}  // namespace miniapp::mesh
