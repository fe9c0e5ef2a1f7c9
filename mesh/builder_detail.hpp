#pragma once
// Internals shared by the mesh builder and its periodic matcher (not part of the mesh interface).
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "mesh/mesh_builder.hpp"

namespace miniapp::mesh::detail {

// A face found by matching, before ordering: local face `local` of `owner`; neighbour −1 and `patch`
// set on boundary faces; `link` set on periodic faces.
struct FaceRecord {
  index_t owner = 0;
  index_t neighbour = -1;
  index_t local = 0;
  index_t patch = -1;
  index_t link = -1;
};

using FaceNodes = std::array<index_t, 4>;

// Node ids of local face `local` of `cell`, in the cell's order; returns their number (3 or 4).
int cell_face_nodes(const CellSoup& soup, index_t cell, int local, FaceNodes& ids);

// "(n1 n2 n3)" for error messages.
std::string face_text(const FaceNodes& ids, int n);

// What each face of each cell meets, found by matching their nodes: face `local` of cell c is entry
// first[c] + local of `other`, which holds the cell on its other side, or listed(b) for listed
// boundary face b.
struct CellFaceLinks {
  static constexpr index_t open = -1;  // on no boundary patch (only while matching)
  static constexpr index_t listed(index_t face) { return -2 - face; }
  static constexpr index_t listed_face(index_t other) { return -2 - other; }

  std::vector<std::size_t> first;  // size cells + 1
  std::unique_ptr<index_t[]> other;
};

// Matches the faces of the soup's cells and its listed boundary faces, in parallel. Throws
// miniapp::Error (prefixed by `source`) for a face shared by more than two cells, a cell with a face
// twice, a listed face that is no cell's face, is listed twice or lies between two cells, and for
// cell faces on no boundary patch; the error of several is the one a serial loop over the faces by
// sorted node ids would meet first.
CellFaceLinks match_faces(const CellSoup& soup, const std::string& source);

// Whether local face a of `cell` comes before its local face b by sorted node ids (the tie-break of
// faces with the same owner and neighbour, or the same owner and patch).
bool slot_before(const CellSoup& soup, index_t cell, int a, int b);

// Glues the boundary faces of each request's patch_a to those of its patch_b: the matched a-face
// record becomes an interior record (neighbour = b-face owner, link = request index) and the b-face
// record gets patch −1. Throws miniapp::Error (prefixed by `source`) for unknown or repeated patches,
// different face counts, and faces without partner.
void match_periodic(const CellSoup& soup, std::vector<FaceRecord>& boundary,
                    const std::vector<PeriodicRequest>& requests, const std::string& source);

// Checks the soup's array sizes, node counts per cell type and index ranges; throws naming `source`.
void validate_soup(const CellSoup& soup, const std::string& source);

// Orders and orients the matched faces into a Mesh: interior faces (as given), then periodic faces
// (boundary records with a link, by link), then the remaining boundary faces grouped by patch in
// patch order (periodic patches left out). Each face takes its owner's local face nodes, reversed
// where its area vector points into the owner.
Mesh assemble_mesh(const CellSoup& soup, const std::vector<FaceRecord>& interior,
                   const std::vector<FaceRecord>& boundary, const std::vector<PeriodicRequest>& periodic);

}  // namespace miniapp::mesh::detail
