#pragma once
#include <span>
#include <string_view>

#include "mesh/mesh.hpp"

namespace miniapp::parallel {

// The name of the patch that closes a rank's mesh where its halo cells touch cells it does not hold.
inline constexpr std::string_view cut_patch_name = "(partition cut)";

// The mesh of the cells one rank holds: `cells` are global cell indices (owned, then halo, in the
// order of parallel::LocalNumbering), which become local cells 0, 1, ... in that order. Faces:
//   - global faces between two held cells stay interior (periodic ones stay periodic, owner on the
//     same side; other faces get owner < neighbour, their nodes reversed when the sides swap);
//   - global boundary faces of held cells stay on their patches, which keep their names and order
//     (a patch may be left with no face);
//   - a face between a held cell and a cell not held becomes a boundary face of an extra last patch,
//     cut_patch_name (joining the mesh's own last patch of that name when it is already a rank's
//     piece), owned by the held cell (nodes moved across a periodic link when the cell sees the face
//     from the far side), so that every held cell keeps all its faces and its exact volume.
// Nodes are renumbered to those the held cells use. Every face of an owned cell has both its cells
// held (the halo is the set of face neighbours of owned cells), so every operator row of an owned
// cell assembled on this mesh equals the global row; rows of halo cells see the cut patch instead of
// their missing neighbours and are not used. Throws when `cells` repeats a cell or names one that
// does not exist.
mesh::Mesh extract_local_mesh(const mesh::Mesh& global, std::span<const index_t> cells);

}  // namespace miniapp::parallel
