#include "mesh/gmsh_convert.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/error.hpp"

namespace miniapp::mesh::gmsh {

namespace {

// Dense renumbering of the file's nodes in order of first use.
class NodeNumbering {
 public:
  explicit NodeNumbering(std::size_t file_nodes) : new_index_(file_nodes, -1) {}
  index_t add(index_t file_node) {
    if (new_index_[file_node] < 0) {
      new_index_[file_node] = static_cast<index_t>(file_index_.size());
      file_index_.push_back(file_node);
    }
    return new_index_[file_node];
  }
  index_t find(index_t file_node) const { return new_index_[file_node]; }
  const std::vector<index_t>& file_index() const { return file_index_; }

 private:
  std::vector<index_t> new_index_;
  std::vector<index_t> file_index_;  // file node of each new node
};

const char* entity_kind(int dim) {
  constexpr const char* kinds[] = {"point", "curve", "surface", "volume"};
  return kinds[dim];
}

std::string element_label(const ElementBlock& block, std::size_t e) {
  return "element " + std::to_string(block.tags[e]) + " (" + block.type->name + " on " + entity_kind(block.dim) + " " +
         std::to_string(block.entity) + ")";
}

const index_t* element_nodes(const ElementBlock& block, std::size_t e) {
  return block.nodes.data() + e * static_cast<std::size_t>(block.type->nodes);
}

// Degenerate elements would give zero-area faces or zero-volume cells much later; stop here.
void check_distinct_nodes(const GmshFile& file, const ElementBlock& block, std::size_t e) {
  const index_t* nodes = element_nodes(block, e);
  for (int a = 0; a < block.type->nodes; ++a)
    for (int b = 0; b < a; ++b)
      if (nodes[a] == nodes[b])
        throw file_error(file.path, element_label(block, e) + " uses node " +
                                        std::to_string(file.node_tags[nodes[a]]) + " twice");
}

// The patch of a block of boundary elements: its entity's physical group, added to `patch_names` on
// first use; -1 when the entity is in no physical group.
index_t block_patch(const GmshFile& file, const ElementBlock& block, std::vector<std::string>& patch_names) {
  const auto found = file.entity_groups.find({block.dim, block.entity});
  if (found == file.entity_groups.end()) return -1;
  const std::vector<int>& groups = found->second;
  if (groups.size() > 1)
    throw file_error(file.path, std::string(entity_kind(block.dim)) + " " + std::to_string(block.entity) + " belongs to " +
                                    std::to_string(groups.size()) + " physical groups ('" +
                                    file.group_name(block.dim, groups[0]) + "', '" +
                                    file.group_name(block.dim, groups[1]) +
                                    "'); a boundary element must belong to exactly one patch");
  const std::string name = file.group_name(block.dim, groups[0]);
  const auto at = std::find(patch_names.begin(), patch_names.end(), name);
  if (at != patch_names.end()) return static_cast<index_t>(at - patch_names.begin());
  patch_names.push_back(name);
  return static_cast<index_t>(patch_names.size() - 1);
}

CellType cell_type(int gmsh_type) {
  switch (gmsh_type) {
    case 4: return CellType::tetrahedron;
    case 5: return CellType::hexahedron;
    case 6: return CellType::prism;
    default: return CellType::pyramid;  // 7: the blocks given here are volume elements
  }
}

void add_cells(const GmshFile& file, NodeNumbering& numbering, CellSoup& soup) {
  for (const ElementBlock& block : file.blocks) {
    if (block.dim != 3) continue;
    for (std::size_t e = 0; e < block.tags.size(); ++e) {
      check_distinct_nodes(file, block, e);
      soup.cell_types.push_back(cell_type(block.type->number));
      const index_t* nodes = element_nodes(block, e);
      for (int k = 0; k < block.type->nodes; ++k) soup.cell_nodes.push_back(numbering.add(nodes[k]));
      soup.cell_node_offsets.push_back(static_cast<index_t>(soup.cell_nodes.size()));
    }
  }
  if (soup.cell_types.empty())
    throw file_error(file.path, "no volume elements (tetrahedra, hexahedra, prisms or pyramids); is it a 2D mesh?");
}

// The nodes of boundary element `e` renumbered; every node must already belong to a cell.
std::vector<index_t> boundary_nodes(const GmshFile& file, const NodeNumbering& numbering, const ElementBlock& block,
                                    std::size_t e, const std::string& patch) {
  check_distinct_nodes(file, block, e);
  std::vector<index_t> out;
  const index_t* nodes = element_nodes(block, e);
  for (int k = 0; k < block.type->nodes; ++k) {
    const index_t n = numbering.find(nodes[k]);
    if (n < 0)
      throw file_error(file.path, element_label(block, e) + " of physical group '" + patch +
                                      "' is not on any cell: its node " + std::to_string(file.node_tags[nodes[k]]) +
                                      " belongs to no " + (block.dim == 2 ? "volume" : "surface") + " element");
    out.push_back(n);
  }
  return out;
}

void add_boundary_faces(const GmshFile& file, const NodeNumbering& numbering, CellSoup& soup) {
  for (const ElementBlock& block : file.blocks) {
    if (block.dim != 2) continue;
    const index_t patch = block_patch(file, block, soup.patch_names);
    if (patch < 0) continue;  // interior or unused surfaces; missing boundary groups surface as an open mesh
    for (std::size_t e = 0; e < block.tags.size(); ++e) {
      const std::vector<index_t> nodes = boundary_nodes(file, numbering, block, e, soup.patch_names[patch]);
      soup.boundary_face_nodes.insert(soup.boundary_face_nodes.end(), nodes.begin(), nodes.end());
      soup.boundary_face_node_offsets.push_back(static_cast<index_t>(soup.boundary_face_nodes.size()));
      soup.boundary_face_patch.push_back(patch);
    }
  }
}

// Twice the signed area of polygon `nodes` in the xy-plane (shoelace): positive when counter-clockwise.
double twice_signed_area(const GmshFile& file, const index_t* nodes, int n) {
  double sum = 0;
  for (int k = 0; k < n; ++k) {
    const Vec3& a = file.nodes[nodes[k]];
    const Vec3& b = file.nodes[nodes[(k + 1) % n]];
    sum += a.x * b.y - b.x * a.y;
  }
  return sum;
}

// A 2D mesh has surface elements and no volume elements.
void check_dimension_2d(const GmshFile& file) {
  for (const ElementBlock& block : file.blocks)
    if (block.dim == 3 && !block.tags.empty())
      throw file_error(file.path, "holds volume elements (" + element_label(block, 0) +
                                      "); a 2D mesh has triangles and quadrangles only");
  if (file.dimension() < 2) throw file_error(file.path, "no surface elements (triangles or quadrangles)");
}

// All nodes of surface elements must share one z, up to round-off relative to the mesh size.
void check_planar(const GmshFile& file) {
  double lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY;
  const Vec3* first = nullptr;
  index_t first_node = 0;
  for (const ElementBlock& block : file.blocks)
    for (std::size_t i = 0; block.dim == 2 && i < block.nodes.size(); ++i) {
      const Vec3& p = file.nodes[block.nodes[i]];
      lo_x = std::min(lo_x, p.x), hi_x = std::max(hi_x, p.x), lo_y = std::min(lo_y, p.y), hi_y = std::max(hi_y, p.y);
      if (!first) first = &p, first_node = block.nodes[i];
    }
  const double tolerance = 1e-10 * std::max(hi_x - lo_x, hi_y - lo_y);
  for (const ElementBlock& block : file.blocks)
    for (std::size_t i = 0; block.dim == 2 && i < block.nodes.size(); ++i) {
      const index_t node = block.nodes[i];
      if (std::abs(file.nodes[node].z - first->z) > tolerance)
        throw file_error(file.path, "not planar in z: node " + std::to_string(file.node_tags[node]) + " has z = " +
                                        std::to_string(file.nodes[node].z) + " but node " +
                                        std::to_string(file.node_tags[first_node]) + " has z = " +
                                        std::to_string(first->z) + "; a 2D mesh must lie in a plane z = const");
    }
}

// Adds the surface elements as cells, reversed where clockwise (keeping the first node).
void add_cells_2d(const GmshFile& file, NodeNumbering& numbering, Mesh2d& mesh) {
  for (const ElementBlock& block : file.blocks) {
    if (block.dim != 2) continue;
    const int n = block.type->nodes;
    for (std::size_t e = 0; e < block.tags.size(); ++e) {
      check_distinct_nodes(file, block, e);
      const index_t* nodes = element_nodes(block, e);
      const double area = twice_signed_area(file, nodes, n);
      if (area == 0) throw file_error(file.path, element_label(block, e) + " has zero area in the xy-plane");
      for (int k = 0; k < n; ++k) mesh.cell_nodes.push_back(numbering.add(nodes[area > 0 ? k : (n - k) % n]));
      mesh.cell_node_offsets.push_back(static_cast<index_t>(mesh.cell_nodes.size()));
    }
  }
}

void add_boundary_edges(const GmshFile& file, const NodeNumbering& numbering, Mesh2d& mesh) {
  for (const ElementBlock& block : file.blocks) {
    if (block.dim != 1) continue;
    const index_t patch = block_patch(file, block, mesh.patch_names);
    if (patch < 0) continue;
    for (std::size_t e = 0; e < block.tags.size(); ++e) {
      const std::vector<index_t> nodes = boundary_nodes(file, numbering, block, e, mesh.patch_names[patch]);
      mesh.boundary_edges.push_back({nodes[0], nodes[1]});
      mesh.boundary_edge_patch.push_back(patch);
    }
  }
}

using Edge = std::pair<index_t, index_t>;  // smaller node first

std::string edge_label(const GmshFile& file, const NodeNumbering& numbering, const Edge& edge) {
  const index_t a = numbering.file_index()[edge.first], b = numbering.file_index()[edge.second];
  return "the edge between nodes " + std::to_string(file.node_tags[a]) + " and " + std::to_string(file.node_tags[b]);
}

// Every edge of exactly one cell must be a grouped boundary edge, and every grouped edge such an edge.
void check_boundary_edges(const GmshFile& file, const NodeNumbering& numbering, const Mesh2d& mesh) {
  std::vector<Edge> cell_edges;
  for (index_t c = 0; c < mesh.cell_count(); ++c) {
    const index_t first = mesh.cell_node_offsets[c], n = mesh.cell_node_offsets[c + 1] - first;
    for (index_t k = 0; k < n; ++k)
      cell_edges.push_back(std::minmax(mesh.cell_nodes[first + k], mesh.cell_nodes[first + (k + 1) % n]));
  }
  std::sort(cell_edges.begin(), cell_edges.end());
  std::vector<Edge> open_edges;
  for (std::size_t i = 0, j = 0; i < cell_edges.size(); i = j) {
    while (j < cell_edges.size() && cell_edges[j] == cell_edges[i]) ++j;
    if (j - i > 2) throw file_error(file.path, edge_label(file, numbering, cell_edges[i]) + " is shared by more than two cells");
    if (j - i == 1) open_edges.push_back(cell_edges[i]);
  }
  std::vector<Edge> grouped;
  for (const auto& [a, b] : mesh.boundary_edges) grouped.push_back(std::minmax(a, b));
  std::sort(grouped.begin(), grouped.end());
  const auto repeated = std::adjacent_find(grouped.begin(), grouped.end());
  if (repeated != grouped.end())
    throw file_error(file.path, edge_label(file, numbering, *repeated) + " appears twice in physical curve groups");
  for (const Edge& edge : grouped)
    if (!std::binary_search(open_edges.begin(), open_edges.end(), edge))
      throw file_error(file.path, edge_label(file, numbering, edge) + " is in a physical curve group but not on the boundary");
  for (const Edge& edge : open_edges)
    if (!std::binary_search(grouped.begin(), grouped.end(), edge))
      throw file_error(file.path, edge_label(file, numbering, edge) +
                                      " lies on the boundary but in no physical curve group (missing Physical Curve?)");
}

}  // namespace

CellSoup to_cell_soup(const GmshFile& file) {
  CellSoup soup;
  NodeNumbering numbering(file.nodes.size());
  add_cells(file, numbering, soup);
  add_boundary_faces(file, numbering, soup);
  for (index_t i : numbering.file_index()) soup.nodes.push_back(file.nodes[i]);
  return soup;
}

Mesh2d to_mesh2d(const GmshFile& file) {
  Mesh2d mesh;
  NodeNumbering numbering(file.nodes.size());
  check_dimension_2d(file);
  check_planar(file);
  add_cells_2d(file, numbering, mesh);
  add_boundary_edges(file, numbering, mesh);
  check_boundary_edges(file, numbering, mesh);
  for (index_t i : numbering.file_index()) mesh.nodes.push_back({file.nodes[i].x, file.nodes[i].y});
  return mesh;
}

std::size_t ungrouped_element_count(const GmshFile& file, int dim) {
  std::size_t count = 0;
  for (const ElementBlock& block : file.blocks)
    if (block.dim == dim && !file.entity_groups.contains({dim, block.entity})) count += block.tags.size();
  return count;
}

}  // namespace miniapp::mesh::gmsh
