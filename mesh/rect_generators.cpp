#include "mesh/generators.hpp"
#include "mesh/spacing.hpp"

namespace miniapp::mesh {

namespace {

// The nodes and the four edge patches xmin, xmax, ymin, ymax of a rectangle lattice, no cells yet.
Mesh2d rect_lattice(const RectSpec& spec, const std::string& source) {
  const char* axis[2] = {"x", "y"};
  for (int a = 0; a < 2; ++a)
    check_axis(spec.cells[a], spec.origin[a], spec.length[a], spec.stretch[a], source + ": axis " + axis[a]);
  const index_t nx = spec.cells[0], ny = spec.cells[1];
  checked_index(static_cast<std::size_t>(2) * nx * ny, source + ": cells");
  const std::vector<double> x = stretched_coordinates(nx, spec.origin[0], spec.length[0], spec.stretch[0]);
  const std::vector<double> y = stretched_coordinates(ny, spec.origin[1], spec.length[1], spec.stretch[1]);
  Mesh2d m;
  m.cells_in_lattice_order = true;
  for (index_t j = 0; j <= ny; ++j)
    for (index_t i = 0; i <= nx; ++i) m.nodes.push_back({x[i], y[j]});
  const auto node = [nx](index_t i, index_t j) { return i + (nx + 1) * j; };
  m.patch_names = {"xmin", "xmax", "ymin", "ymax"};
  const auto edge = [&](index_t patch, index_t a, index_t b) {
    m.boundary_edges.push_back({a, b});
    m.boundary_edge_patch.push_back(patch);
  };
  for (index_t j = 0; j < ny; ++j) edge(0, node(0, j), node(0, j + 1));
  for (index_t j = 0; j < ny; ++j) edge(1, node(nx, j), node(nx, j + 1));
  for (index_t i = 0; i < nx; ++i) edge(2, node(i, 0), node(i + 1, 0));
  for (index_t i = 0; i < nx; ++i) edge(3, node(i, ny), node(i + 1, ny));
  return m;
}

void add_cell_2d(Mesh2d& m, std::initializer_list<index_t> ids) {
  m.cell_nodes.insert(m.cell_nodes.end(), ids);
  m.cell_node_offsets.push_back(static_cast<index_t>(m.cell_nodes.size()));
}

// Calls fn(n00, n10, n11, n01, i, j) for each lattice square, corners counter-clockwise.
template <class Fn>
void for_each_square(const RectSpec& spec, Fn fn) {
  const index_t nx = spec.cells[0], ny = spec.cells[1];
  const auto node = [nx](index_t i, index_t j) { return i + (nx + 1) * j; };
  for (index_t j = 0; j < ny; ++j)
    for (index_t i = 0; i < nx; ++i) fn(node(i, j), node(i + 1, j), node(i + 1, j + 1), node(i, j + 1), i, j);
}

}  // namespace

Mesh2d make_quad_rect(const RectSpec& spec) {
  Mesh2d m = rect_lattice(spec, "make_quad_rect");
  for_each_square(spec, [&](index_t a, index_t b, index_t c, index_t d, index_t, index_t) {
    add_cell_2d(m, {a, b, c, d});
  });
  return m;
}

Mesh2d make_tri_rect(const RectSpec& spec) {
  Mesh2d m = rect_lattice(spec, "make_tri_rect");
  // The diagonal alternates like a chessboard, so the mesh has no preferred direction.
  for_each_square(spec, [&](index_t a, index_t b, index_t c, index_t d, index_t i, index_t j) {
    if ((i + j) % 2 == 0) {
      add_cell_2d(m, {a, b, c});
      add_cell_2d(m, {a, c, d});
    } else {
      add_cell_2d(m, {a, b, d});
      add_cell_2d(m, {b, c, d});
    }
  });
  return m;
}

}  // namespace miniapp::mesh
