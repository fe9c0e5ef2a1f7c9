#include "parallel/local_mesh.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <string>
#include <vector>

namespace miniapp::parallel {
namespace {

// A face of the local mesh before it is written: its global face, its local cells, whether its node
// order is reversed, and the shift applied to its nodes (non-zero only for a cut periodic face seen
// from the neighbour's side).
struct LocalFace {
  index_t global = 0;
  index_t owner = 0, neighbour = -1;
  bool reversed = false;
  Vec3 shift{};
  index_t link = -1;  // periodic link of an interior periodic face
};

}  // namespace

LocalMeshCutter::LocalMeshCutter(const mesh::Mesh& global)
    : global_(global),
      face_offsets_(static_cast<std::size_t>(global.cell_count()) + 1, 0),
      link_of_(static_cast<std::size_t>(global.interior_face_count), -1),
      patch_of_(static_cast<std::size_t>(global.boundary_face_count()), -1),
      local_of_(static_cast<std::size_t>(global.cell_count()), -1),
      node_of_(static_cast<std::size_t>(global.node_count()), -1),
      held_faces_((static_cast<std::size_t>(global.face_count()) + 63) / 64, 0) {
  // Each cell's faces: interior faces under both cells, boundary faces under their owner.
  for (index_t f = 0; f < global.face_count(); ++f) {
    ++face_offsets_[global.face_owner[f] + 1];
    if (f < global.interior_face_count) ++face_offsets_[global.face_neighbour[f] + 1];
  }
  for (std::size_t c = 1; c < face_offsets_.size(); ++c) face_offsets_[c] += face_offsets_[c - 1];
  cell_faces_.resize(static_cast<std::size_t>(face_offsets_.back()));
  std::vector<index_t> fill(face_offsets_.begin(), face_offsets_.end() - 1);
  for (index_t f = 0; f < global.face_count(); ++f) {
    cell_faces_[fill[global.face_owner[f]]++] = f;
    if (f < global.interior_face_count) cell_faces_[fill[global.face_neighbour[f]]++] = f;
  }
  for (const mesh::PeriodicFace& p : global.periodic_faces) link_of_[p.face] = p.link;
  for (std::size_t p = 0; p < global.patches.size(); ++p)
    for (index_t f = 0; f < global.patches[p].face_count; ++f)
      patch_of_[global.patches[p].first_face + f - global.interior_face_count] = static_cast<int>(p);
}

mesh::Mesh LocalMeshCutter::operator()(std::span<const index_t> cells) {
  mesh::Mesh local;
  try {
    number_cells(cells);
    copy_cells(cells, local);
    write_faces(cells, local);
  } catch (...) {
    reset(cells);
    throw;
  }
  reset(cells);
  return local;
}

void LocalMeshCutter::number_cells(std::span<const index_t> cells) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const index_t g = cells[i];
    if (g < 0 || g >= global_.cell_count())
      throw Error("extract_local_mesh: cell " + std::to_string(g) + " does not exist (the mesh has " +
                  std::to_string(global_.cell_count()) + " cells)");
    if (local_of_[g] >= 0) throw Error("extract_local_mesh: cell " + std::to_string(g) + " is listed twice");
    local_of_[g] = static_cast<index_t>(i);
  }
}

// The local node of a global node (with a shift), added on first use.
index_t LocalMeshCutter::node(index_t global_node, const Vec3& shift, mesh::Mesh& local) {
  if (shift == Vec3{}) {
    index_t& l = node_of_[global_node];
    if (l < 0) {
      l = local.node_count();
      local.nodes.push_back(global_.nodes[global_node]);
      used_nodes_.push_back(global_node);
    }
    return l;
  }
  local.nodes.push_back(global_.nodes[global_node] + shift);  // rare (cut periodic faces): not shared
  return local.node_count() - 1;
}

void LocalMeshCutter::copy_cells(std::span<const index_t> cells, mesh::Mesh& local) {
  for (const index_t g : cells) {
    local.cell_types.push_back(global_.cell_types[g]);
    for (index_t i = global_.cell_node_offsets[g]; i < global_.cell_node_offsets[g + 1]; ++i)
      local.cell_nodes.push_back(node(global_.cell_nodes[i], {}, local));
    local.cell_node_offsets.push_back(static_cast<index_t>(local.cell_nodes.size()));
  }
}

// The faces of the held cells, by increasing global index, sorted into their final order: interior,
// then boundary by patch, then cut; written with their nodes, and the patches.
void LocalMeshCutter::write_faces(std::span<const index_t> cells, mesh::Mesh& local) {
  // Marked in a bit set over the faces, read back in order a word at a time (and cleared as read):
  // sorted and without repeats at the cost of one bit per face, not of a sort.
  for (const index_t g : cells)
    for (index_t i = face_offsets_[g]; i < face_offsets_[g + 1]; ++i)
      held_faces_[static_cast<std::size_t>(cell_faces_[i]) / 64] |= std::uint64_t{1} << (cell_faces_[i] % 64);
  std::vector<index_t> held_faces;
  for (std::size_t word = 0; word < held_faces_.size(); ++word)
    for (std::uint64_t bits = std::exchange(held_faces_[word], 0); bits != 0; bits &= bits - 1)
      held_faces.push_back(static_cast<index_t>(word * 64 + static_cast<std::size_t>(std::countr_zero(bits))));

  const mesh::Mesh& global = global_;
  std::vector<LocalFace> inner, cut;
  std::vector<std::vector<LocalFace>> boundary(global.patches.size());
  for (const index_t f : held_faces) {
    if (f >= global.interior_face_count) {
      boundary[patch_of_[f - global.interior_face_count]].push_back({f, local_of_[global.face_owner[f]], -1, false, {}, -1});
      continue;
    }
    const index_t o = local_of_[global.face_owner[f]], n = local_of_[global.face_neighbour[f]];
    if (o >= 0 && n >= 0) {
      const bool periodic = link_of_[f] >= 0;
      const bool swap = !periodic && o > n;
      inner.push_back({f, swap ? n : o, swap ? o : n, swap, {}, link_of_[f]});
    } else if (o >= 0) {
      cut.push_back({f, o, -1, false, {}, -1});
    } else {
      // Seen from the neighbour: reversed, and across a periodic link its nodes move to its side.
      const Vec3 shift = link_of_[f] >= 0 ? global.periodic_links[link_of_[f]].translation : Vec3{};
      cut.push_back({f, n, -1, true, shift, -1});
    }
  }
  // A mesh that is itself a rank's piece already ends with the cut patch: its new cut faces join it.
  if (!global.patches.empty() && global.patches.back().name == cut_patch_name)
    boundary.back().insert(boundary.back().end(), cut.begin(), cut.end());
  else
    boundary.push_back(std::move(cut));

  local.interior_face_count = static_cast<index_t>(inner.size());
  const auto write = [&](const LocalFace& face) {
    const index_t begin = global.face_node_offsets[face.global], end = global.face_node_offsets[face.global + 1];
    for (index_t k = 0; k < end - begin; ++k)
      local.face_nodes.push_back(node(global.face_nodes[face.reversed ? end - 1 - k : begin + k], face.shift, local));
    local.face_node_offsets.push_back(static_cast<index_t>(local.face_nodes.size()));
    local.face_owner.push_back(face.owner);
    local.face_neighbour.push_back(face.neighbour);
    if (face.link >= 0) local.periodic_faces.push_back({local.face_count() - 1, face.link});
  };
  for (const LocalFace& face : inner) write(face);
  index_t first = local.interior_face_count;
  for (std::size_t p = 0; p < boundary.size(); ++p) {
    for (const LocalFace& face : boundary[p]) write(face);
    const std::string name = p < global.patches.size() ? global.patches[p].name : std::string(cut_patch_name);
    const auto count = static_cast<index_t>(boundary[p].size());
    local.patches.push_back({name, first, count});
    first += count;
  }
  local.periodic_links = global.periodic_links;
}

// Clears the scratch maps of the cut's cells, faces and nodes (after a cut that failed half-way too), so
// the next cut starts from clean maps.
void LocalMeshCutter::reset(std::span<const index_t> cells) {
  for (const index_t g : cells) {
    if (g < 0 || g >= global_.cell_count()) continue;
    local_of_[g] = -1;
    for (index_t i = face_offsets_[g]; i < face_offsets_[g + 1]; ++i) held_faces_[cell_faces_[i] / 64] = 0;
  }
  for (const index_t n : used_nodes_) node_of_[n] = -1;
  used_nodes_.clear();
}

mesh::Mesh extract_local_mesh(const mesh::Mesh& global, std::span<const index_t> cells) {
  return LocalMeshCutter(global)(cells);
}

}  // namespace miniapp::parallel
