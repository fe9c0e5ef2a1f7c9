#include "parallel/local_mesh.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace miniapp::parallel {
namespace {

std::vector<index_t> local_cell_of(const mesh::Mesh& global, std::span<const index_t> cells) {
  std::vector<index_t> local(static_cast<std::size_t>(global.cell_count()), -1);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const index_t g = cells[i];
    if (g < 0 || g >= global.cell_count())
      throw Error("extract_local_mesh: cell " + std::to_string(g) + " does not exist (the mesh has " +
                  std::to_string(global.cell_count()) + " cells)");
    if (local[g] >= 0) throw Error("extract_local_mesh: cell " + std::to_string(g) + " is listed twice");
    local[g] = static_cast<index_t>(i);
  }
  return local;
}

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

// Builds the local mesh's node list on demand: global node (with a shift) → local node.
class NodeMap {
 public:
  NodeMap(const mesh::Mesh& global, mesh::Mesh& local)
      : global_(global), local_(local), plain_(static_cast<std::size_t>(global.node_count()), -1) {}
  index_t operator()(index_t node, const Vec3& shift) {
    if (shift == Vec3{}) {
      index_t& l = plain_[node];
      if (l < 0) l = add(global_.nodes[node]);
      return l;
    }
    return add(global_.nodes[node] + shift);  // rare (cut periodic faces): not shared
  }

 private:
  index_t add(const Vec3& x) {
    local_.nodes.push_back(x);
    return local_.node_count() - 1;
  }
  const mesh::Mesh& global_;
  mesh::Mesh& local_;
  std::vector<index_t> plain_;
};

// The periodic link of each interior face, -1 on the others.
std::vector<index_t> periodic_link_of(const mesh::Mesh& global) {
  std::vector<index_t> link_of(static_cast<std::size_t>(global.interior_face_count), -1);
  for (const mesh::PeriodicFace& p : global.periodic_faces) link_of[p.face] = p.link;
  return link_of;
}

// The faces of the local mesh in their final order: interior, then boundary by patch, then cut.
std::vector<LocalFace> select_faces(const mesh::Mesh& global, const std::vector<index_t>& local, index_t& interior,
                                    std::vector<index_t>& patch_sizes) {
  const std::vector<index_t> link_of = periodic_link_of(global);
  std::vector<LocalFace> inner, cut;
  std::vector<std::vector<LocalFace>> boundary(global.patches.size());
  for (index_t f = 0; f < global.interior_face_count; ++f) {
    const index_t o = local[global.face_owner[f]], n = local[global.face_neighbour[f]];
    if (o >= 0 && n >= 0) {
      const bool periodic = link_of[f] >= 0;
      const bool swap = !periodic && o > n;
      inner.push_back({f, swap ? n : o, swap ? o : n, swap, {}, link_of[f]});
    } else if (o >= 0) {
      cut.push_back({f, o, -1, false, {}, -1});
    } else if (n >= 0) {
      // Seen from the neighbour: reversed, and across a periodic link its nodes move to its side.
      const Vec3 shift = link_of[f] >= 0 ? global.periodic_links[link_of[f]].translation : Vec3{};
      cut.push_back({f, n, -1, true, shift, -1});
    }
  }
  for (std::size_t p = 0; p < global.patches.size(); ++p) {
    const mesh::Patch& patch = global.patches[p];
    for (index_t f = patch.first_face; f < patch.first_face + patch.face_count; ++f)
      if (const index_t o = local[global.face_owner[f]]; o >= 0) boundary[p].push_back({f, o, -1, false, {}, -1});
  }
  // A mesh that is itself a rank's piece already ends with the cut patch: its new cut faces join it.
  if (!global.patches.empty() && global.patches.back().name == cut_patch_name)
    boundary.back().insert(boundary.back().end(), cut.begin(), cut.end());
  else
    boundary.push_back(std::move(cut));
  interior = static_cast<index_t>(inner.size());
  std::vector<LocalFace> faces = std::move(inner);
  for (auto& b : boundary) {
    patch_sizes.push_back(static_cast<index_t>(b.size()));
    faces.insert(faces.end(), b.begin(), b.end());
  }
  return faces;
}

void copy_cells(const mesh::Mesh& global, std::span<const index_t> cells, NodeMap& nodes, mesh::Mesh& local) {
  for (const index_t g : cells) {
    local.cell_types.push_back(global.cell_types[g]);
    for (index_t i = global.cell_node_offsets[g]; i < global.cell_node_offsets[g + 1]; ++i)
      local.cell_nodes.push_back(nodes(global.cell_nodes[i], {}));
    local.cell_node_offsets.push_back(static_cast<index_t>(local.cell_nodes.size()));
  }
}

void write_faces(const mesh::Mesh& global, const std::vector<LocalFace>& faces, NodeMap& nodes, mesh::Mesh& local) {
  for (const LocalFace& face : faces) {
    const index_t begin = global.face_node_offsets[face.global], end = global.face_node_offsets[face.global + 1];
    for (index_t k = 0; k < end - begin; ++k)
      local.face_nodes.push_back(nodes(global.face_nodes[face.reversed ? end - 1 - k : begin + k], face.shift));
    local.face_node_offsets.push_back(static_cast<index_t>(local.face_nodes.size()));
    local.face_owner.push_back(face.owner);
    local.face_neighbour.push_back(face.neighbour);
    if (face.link >= 0) local.periodic_faces.push_back({local.face_count() - 1, face.link});
  }
}

}  // namespace

mesh::Mesh extract_local_mesh(const mesh::Mesh& global, std::span<const index_t> cells) {
  const std::vector<index_t> local_of = local_cell_of(global, cells);
  mesh::Mesh local;
  NodeMap nodes(global, local);
  copy_cells(global, cells, nodes, local);
  std::vector<index_t> patch_sizes;
  const std::vector<LocalFace> faces = select_faces(global, local_of, local.interior_face_count, patch_sizes);
  write_faces(global, faces, nodes, local);
  index_t first = local.interior_face_count;
  for (std::size_t p = 0; p < patch_sizes.size(); ++p) {
    const std::string name = p < global.patches.size() ? global.patches[p].name : std::string(cut_patch_name);
    local.patches.push_back({name, first, patch_sizes[p]});
    first += patch_sizes[p];
  }
  local.periodic_links = global.periodic_links;
  return local;
}

}  // namespace miniapp::parallel
