#include <algorithm>
#include <cmath>

#include "mesh/generators.hpp"
#include "mesh/mesh_builder.hpp"

namespace miniapp::mesh {

namespace {

const std::string source = "extrude";

void check_base(const Mesh2d& b) {
  const std::size_t nodes = b.nodes.size();
  const auto check_node = [&](index_t id, const std::string& where) {
    if (id < 0 || static_cast<std::size_t>(id) >= nodes)
      throw Error(source + ": " + where + " names node " + std::to_string(id) + " of " + std::to_string(nodes));
  };
  if (b.cell_node_offsets.empty() || b.cell_node_offsets.front() != 0 ||
      static_cast<std::size_t>(b.cell_node_offsets.back()) != b.cell_nodes.size())
    throw Error(source + ": 2D cell node offsets do not match the " + std::to_string(b.cell_nodes.size()) +
                " cell nodes");
  if (b.cell_count() == 0) throw Error(source + ": the 2D mesh has no cells");
  for (index_t c = 0; c < b.cell_count(); ++c) {
    const index_t n = b.cell_node_offsets[c + 1] - b.cell_node_offsets[c];
    if (n != 3 && n != 4)
      throw Error(source + ": 2D cell " + std::to_string(c) + " has " + std::to_string(n) + " nodes; 3 or 4 expected");
    for (index_t i = b.cell_node_offsets[c]; i < b.cell_node_offsets[c + 1]; ++i)
      check_node(b.cell_nodes[i], "2D cell " + std::to_string(c));
  }
  if (b.boundary_edge_patch.size() != b.boundary_edges.size())
    throw Error(source + ": " + std::to_string(b.boundary_edges.size()) + " boundary edges but " +
                std::to_string(b.boundary_edge_patch.size()) + " edge patch numbers");
  for (std::size_t e = 0; e < b.boundary_edges.size(); ++e) {
    for (index_t id : b.boundary_edges[e]) check_node(id, "boundary edge " + std::to_string(e));
    if (b.boundary_edge_patch[e] < 0 || static_cast<std::size_t>(b.boundary_edge_patch[e]) >= b.patch_names.size())
      throw Error(source + ": boundary edge " + std::to_string(e) + " is in patch " +
                  std::to_string(b.boundary_edge_patch[e]) + " of " + std::to_string(b.patch_names.size()));
  }
  for (const std::string& n : b.patch_names)
    if (n == "zmin" || n == "zmax")
      throw Error(source + ": the 2D mesh has a patch named '" + n + "', the name of an end plane");
}

void check_spec(const ExtrusionSpec& s) {
  if (s.layers < 1) throw Error(source + ": " + std::to_string(s.layers) + " layers; at least 1 is needed");
  if (!(s.length > 0) || !std::isfinite(s.length))
    throw Error(source + ": length " + std::to_string(s.length) + " must be positive and finite");
  if (!std::isfinite(s.z0)) throw Error(source + ": z0 is not finite");
}

// The nodes of 2D cell c, counter-clockwise: a clockwise cell is reversed so that the extruded cell
// has positive volume in Gmsh ordering.
std::vector<index_t> ccw_nodes(const Mesh2d& b, index_t c) {
  std::vector<index_t> ids(b.cell_nodes.begin() + b.cell_node_offsets[c],
                           b.cell_nodes.begin() + b.cell_node_offsets[c + 1]);
  double twice_area = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const auto& p = b.nodes[ids[i]];
    const auto& q = b.nodes[ids[(i + 1) % ids.size()]];
    twice_area += p[0] * q[1] - q[0] * p[1];
  }
  if (twice_area == 0) throw Error(source + ": 2D cell " + std::to_string(c) + " has zero area");
  if (twice_area < 0) std::reverse(ids.begin(), ids.end());
  return ids;
}

}  // namespace

Mesh extrude(const Mesh2d& base, const ExtrusionSpec& spec) {
  check_base(base);
  check_spec(spec);
  const index_t n2 = static_cast<index_t>(base.nodes.size()), layers = spec.layers;
  checked_index(static_cast<std::size_t>(n2) * (layers + 1), source + ": nodes");
  checked_index(static_cast<std::size_t>(base.cell_count()) * layers, source + ": cells");
  const auto node = [n2](index_t id, index_t k) { return id + n2 * k; };
  CellSoup soup;
  for (index_t k = 0; k <= layers; ++k) {
    const double z = k == layers ? spec.z0 + spec.length : spec.z0 + spec.length * k / layers;
    for (const auto& p : base.nodes) soup.nodes.push_back({p[0], p[1], z});
  }
  for (const std::string& n : base.patch_names) soup.add_patch(n);
  const index_t zmin = soup.add_patch("zmin"), zmax = soup.add_patch("zmax");
  for (index_t c = 0; c < base.cell_count(); ++c) {
    const std::vector<index_t> v = ccw_nodes(base, c);
    for (index_t k = 0; k < layers; ++k) {
      if (v.size() == 3)
        soup.add_cell(CellType::prism, {node(v[0], k), node(v[1], k), node(v[2], k), node(v[0], k + 1),
                                        node(v[1], k + 1), node(v[2], k + 1)});
      else
        soup.add_cell(CellType::hexahedron,
                      {node(v[0], k), node(v[1], k), node(v[2], k), node(v[3], k), node(v[0], k + 1), node(v[1], k + 1),
                       node(v[2], k + 1), node(v[3], k + 1)});
    }
    for (const auto& [patch, k] : {std::pair{zmin, index_t{0}}, std::pair{zmax, layers}}) {
      if (v.size() == 3)
        soup.add_boundary_face(patch, {node(v[0], k), node(v[1], k), node(v[2], k)});
      else
        soup.add_boundary_face(patch, {node(v[0], k), node(v[1], k), node(v[2], k), node(v[3], k)});
    }
  }
  for (std::size_t e = 0; e < base.boundary_edges.size(); ++e) {
    const auto [a, b] = base.boundary_edges[e];
    for (index_t k = 0; k < layers; ++k)
      soup.add_boundary_face(base.boundary_edge_patch[e], {node(a, k), node(b, k), node(b, k + 1), node(a, k + 1)});
  }
  std::vector<PeriodicRequest> links;
  if (spec.periodic) links.push_back({"zmin", "zmax", Vec3{0, 0, spec.length}});
  Mesh mesh = build_mesh(soup, links, source);
  mesh.cells_in_lattice_order = base.cells_in_lattice_order;
  return mesh;
}

}  // namespace miniapp::mesh
