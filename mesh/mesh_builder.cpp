#include "mesh/mesh_builder.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "mesh/builder_detail.hpp"
#include "mesh/cell_faces.hpp"

namespace miniapp::mesh {

using detail::FaceRecord;

void CellSoup::add_cell(CellType type, std::initializer_list<index_t> ids) {
  if (static_cast<int>(ids.size()) != node_count(type))
    throw Error("CellSoup::add_cell: a " + std::string(name(type)) + " has " + std::to_string(node_count(type)) +
                " nodes, got " + std::to_string(ids.size()));
  cell_types.push_back(type);
  cell_nodes.insert(cell_nodes.end(), ids);
  cell_node_offsets.push_back(checked_index(cell_nodes.size(), "CellSoup: cell nodes"));
}

void CellSoup::add_boundary_face(index_t patch, std::initializer_list<index_t> ids) {
  if (ids.size() != 3 && ids.size() != 4)
    throw Error("CellSoup::add_boundary_face: a face has 3 or 4 nodes, got " + std::to_string(ids.size()));
  if (patch < 0 || patch >= static_cast<index_t>(patch_names.size()))
    throw Error("CellSoup::add_boundary_face: patch " + std::to_string(patch) + " does not exist (" +
                std::to_string(patch_names.size()) + " patches)");
  boundary_face_nodes.insert(boundary_face_nodes.end(), ids);
  boundary_face_node_offsets.push_back(checked_index(boundary_face_nodes.size(), "CellSoup: boundary face nodes"));
  boundary_face_patch.push_back(patch);
}

index_t CellSoup::add_patch(std::string patch_name) {
  patch_names.push_back(std::move(patch_name));
  return static_cast<index_t>(patch_names.size()) - 1;
}

namespace {

using detail::CellFaceLinks;

// One face of a cell in the order of the faces: `key` is its neighbour or its patch.
struct Side {
  index_t key;
  int local;
};

// Sorts a cell's few faces by key, then by sorted node ids.
void sort_sides(const CellSoup& soup, index_t cell, Side* sides, int n) {
  const auto before = [&](const Side& a, const Side& b) {
    return a.key < b.key || (a.key == b.key && detail::slot_before(soup, cell, a.local, b.local));
  };
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && before(sides[j], sides[j - 1]); --j) std::swap(sides[j - 1], sides[j]);
}

struct OrderedFaces {
  std::vector<FaceRecord> interior, boundary;
};

// Cells are counted and written by blocks of this many: each block's faces go to offsets summed over the
// blocks in order, so the order does not depend on the threads.
constexpr index_t cells_per_block = 4096;

// Interior faces in upper-triangular order (by owner, then neighbour); boundary faces grouped by patch,
// then by owner. Faces with the same owner and the same neighbour or patch by sorted node ids.
OrderedFaces order_faces(const CellSoup& soup, const CellFaceLinks& links) {
  const auto cells = static_cast<index_t>(soup.cell_types.size());
  const auto patches = static_cast<std::size_t>(soup.patch_names.size());
  const index_t blocks = (cells + cells_per_block - 1) / cells_per_block;
  const auto patch = [&](index_t other) { return soup.boundary_face_patch[CellFaceLinks::listed_face(other)]; };
  // interior_at[b]: block b's first interior face; boundary_at[p * blocks + b]: its first face of patch p.
  std::vector<std::size_t> interior_at(static_cast<std::size_t>(blocks) + 1, 0);
  std::vector<std::size_t> boundary_at(patches * blocks + 1, 0);
#pragma omp parallel for schedule(static)
  for (index_t b = 0; b < blocks; ++b)
    for (index_t c = b * cells_per_block; c < std::min(cells, (b + 1) * cells_per_block); ++c)
      for (std::size_t k = links.first[c]; k < links.first[c + 1]; ++k) {
        const index_t other = links.other[k];
        if (other > c) ++interior_at[b + 1];
        else if (other < 0) ++boundary_at[patch(other) * blocks + b + 1];
      }
  for (std::size_t i = 1; i < interior_at.size(); ++i) interior_at[i] += interior_at[i - 1];
  for (std::size_t i = 1; i < boundary_at.size(); ++i) boundary_at[i] += boundary_at[i - 1];
  OrderedFaces out;
  out.interior.resize(interior_at.back());
  out.boundary.resize(boundary_at.back());
  // Each block advances its own offsets as cursors.
#pragma omp parallel for schedule(static)
  for (index_t b = 0; b < blocks; ++b)
    for (index_t c = b * cells_per_block; c < std::min(cells, (b + 1) * cells_per_block); ++c) {
      std::array<Side, max_cell_faces> owned, outer;
      int n_owned = 0, n_outer = 0;
      const std::size_t first = links.first[c];
      for (int f = 0; f < static_cast<int>(links.first[c + 1] - first); ++f) {
        const index_t other = links.other[first + f];
        if (other > c) owned[n_owned++] = {other, f};
        else if (other < 0) outer[n_outer++] = {patch(other), f};
      }
      sort_sides(soup, c, owned.data(), n_owned);
      sort_sides(soup, c, outer.data(), n_outer);
      for (int i = 0; i < n_owned; ++i) out.interior[interior_at[b]++] = {c, owned[i].key, owned[i].local};
      for (int i = 0; i < n_outer; ++i)
        out.boundary[boundary_at[outer[i].key * blocks + b]++] = {c, -1, outer[i].local, outer[i].key};
    }
  return out;
}

}  // namespace

Mesh build_mesh(const CellSoup& soup, const std::vector<PeriodicRequest>& periodic, const std::string& source,
                StageProfile* profile) {
  OrderedFaces faces;
  {
    CellFaceLinks links;
    {
      StageProfile::Part t(profile, "face matching");
      detail::validate_soup(soup, source);
      links = detail::match_faces(soup, source);
    }
    StageProfile::Part t(profile, "face order");
    faces = order_faces(soup, links);
  }
  {
    StageProfile::Part t(profile, "periodic matching");
    detail::match_periodic(soup, faces.boundary, periodic, source);
  }
  StageProfile::Part t(profile, "face assembly");
  return detail::assemble_mesh(soup, faces.interior, faces.boundary, periodic);
}

}  // namespace miniapp::mesh
