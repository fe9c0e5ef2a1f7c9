#include <algorithm>
#include <cstdint>
#include <iterator>

#include "mesh/generators.hpp"
#include "mesh/mesh_builder.hpp"
#include "mesh/spacing.hpp"

namespace miniapp::mesh {

namespace {

constexpr const char* axis_names[3] = {"x", "y", "z"};

// The nodes of a box lattice, i fastest; node(i, j, k) is the index of lattice point (i, j, k). The
// lattice may be a window of a box of `box` cells per axis, whose cell 0 along each axis is the box's
// cell `first` (modulo box: a window of z-layers may wrap around a periodic box).
struct BoxLattice {
  std::array<index_t, 3> n;  // cells per axis
  std::array<index_t, 3> first{};
  std::array<index_t, 3> box = n;

  index_t node(index_t i, index_t j, index_t k) const { return i + (n[0] + 1) * (j + (n[1] + 1) * k); }
  index_t node(const std::array<index_t, 3>& ijk) const { return node(ijk[0], ijk[1], ijk[2]); }

  // Whether lattice cells of index `i` along `axis` are mirrored: those whose index in the box is odd.
  bool mirrored(int axis, index_t i) const {
    const index_t b = box[axis];
    return ((first[axis] + i) % b + b) % b % 2 != 0;
  }
};

void check_box(const BoxSpec& spec, const std::string& source) {
  std::int64_t cells = 1, nodes = 1;
  for (int a = 0; a < 3; ++a) {
    check_axis(spec.cells[a], spec.origin[a], spec.length[a], spec.stretch[a], source + ": axis " + axis_names[a]);
    cells *= spec.cells[a];
    nodes *= spec.cells[a] + 1;
  }
  checked_index(static_cast<std::size_t>(6 * cells), source + ": cells (6 tetrahedra each for make_tet_box)");
  checked_index(static_cast<std::size_t>(nodes), source + ": nodes");
}

// Node coordinates of the lattice along each axis.
using AxisCoordinates = std::array<std::vector<double>, 3>;

AxisCoordinates box_coordinates(const BoxSpec& spec) {
  AxisCoordinates x;
  for (int a = 0; a < 3; ++a)
    x[a] = stretched_coordinates(spec.cells[a], spec.origin[a], spec.length[a], spec.stretch[a]);
  return x;
}

void add_lattice_nodes(CellSoup& soup, const BoxLattice& lat, const AxisCoordinates& x) {
  const index_t nx = lat.n[0] + 1, ny = lat.n[1] + 1, nodes = lat.node(lat.n) + 1;
  soup.nodes.resize(static_cast<std::size_t>(nodes));
#pragma omp parallel for schedule(static)
  for (index_t n = 0; n < nodes; ++n) soup.nodes[n] = {x[0][n % nx], x[1][n / nx % ny], x[2][n / nx / ny]};
}

// The lattice squares of one side of axis a (side 0: lowest plane, 1: highest) as boundary faces of
// `patch`: one quad each or, when `triangles`, the two triangles of the tetrahedra's face there (see
// add_tetrahedra): split along the diagonal from the square's (0,0) to its (1,1) corner, or from
// (1,0) to (0,1) where its cell is mirrored along one of the square's two axes but not the other.
void add_side_faces(CellSoup& soup, const BoxLattice& lat, int a, int side, index_t patch, bool triangles) {
  const int b = (a + 1) % 3, c = (a + 2) % 3;
  std::array<index_t, 3> p{};
  p[a] = side ? lat.n[a] : 0;
  for (index_t u = 0; u < lat.n[b]; ++u)
    for (index_t v = 0; v < lat.n[c]; ++v) {
      const auto corner = [&](index_t du, index_t dv) {
        p[b] = u + du;
        p[c] = v + dv;
        return lat.node(p);
      };
      const index_t q00 = corner(0, 0), q10 = corner(1, 0), q01 = corner(0, 1), q11 = corner(1, 1);
      if (!triangles) {
        soup.add_boundary_face(patch, {q00, q10, q11, q01});
      } else if (lat.mirrored(b, u) == lat.mirrored(c, v)) {
        soup.add_boundary_face(patch, {q00, q10, q11});
        soup.add_boundary_face(patch, {q00, q01, q11});
      } else {
        soup.add_boundary_face(patch, {q00, q10, q01});
        soup.add_boundary_face(patch, {q10, q11, q01});
      }
    }
}

std::string side_name(int axis, int side) { return std::string(axis_names[axis]) + (side ? "max" : "min"); }

// Nodes of the box and its six patches xmin, xmax, ymin, ymax, zmin, zmax.
CellSoup box_soup(const BoxSpec& spec, const BoxLattice& lat, bool triangles) {
  CellSoup soup;
  add_lattice_nodes(soup, lat, box_coordinates(spec));
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) add_side_faces(soup, lat, a, side, soup.add_patch(side_name(a, side)), triangles);
  return soup;
}

// The periodic links of the box's periodic axes among `axes` (0 x, 1 y, 2 z).
std::vector<PeriodicRequest> box_links(const BoxSpec& spec, int axes = 3) {
  std::vector<PeriodicRequest> links;
  for (int a = 0; a < axes; ++a) {
    if (!spec.periodic[a]) continue;
    Vec3 t;
    t[a] = spec.length[a];
    links.push_back({side_name(a, 0), side_name(a, 1), t});
  }
  return links;
}

// Lattice cell `cell` of the box's cells numbered with i fastest, as (i, j, k).
std::array<index_t, 3> lattice_cell(const BoxLattice& lat, index_t cell) {
  return {cell % lat.n[0], cell / lat.n[0] % lat.n[1], cell / lat.n[0] / lat.n[1]};
}

index_t lattice_cells(const BoxLattice& lat) { return lat.n[0] * lat.n[1] * lat.n[2]; }

void add_hexahedra(CellSoup& soup, const BoxLattice& lat) {
  soup.add_cells(CellType::hexahedron, lattice_cells(lat), [&lat](index_t cell, index_t* ids) {
    const auto [i, j, k] = lattice_cell(lat, cell);
    const index_t nodes[] = {lat.node(i, j, k),         lat.node(i + 1, j, k),     lat.node(i + 1, j + 1, k),
                             lat.node(i, j + 1, k),     lat.node(i, j, k + 1),     lat.node(i + 1, j, k + 1),
                             lat.node(i + 1, j + 1, k + 1), lat.node(i, j + 1, k + 1)};
    std::copy(std::begin(nodes), std::end(nodes), ids);
  });
}

// Kuhn's split of a lattice cell: one tetrahedron per axis order (p0, p1, p2), walking from the
// cell's local corner (0,0,0) to (1,1,1) along e_p0, e_p1, e_p2. Repeated unchanged in every cell it
// makes the compact Laplacian inconsistent (its faces on the cells' sides are not orthogonal to the
// line between the centroids they join, and the errors add up), so each cell's split is mirrored
// along every axis in which the cell's index is odd, as the prisms' triangles alternate their
// diagonals; local corner d is then lattice point cell + (d xor mirrored). Neighbouring cells still
// match: a side's diagonal depends only on the mirroring along the two axes in its plane, which both
// cells share. Vertices are listed for a positive volume; the six of a lattice cell follow each other.
void add_tetrahedra(CellSoup& soup, const BoxLattice& lat) {
  constexpr int orders[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {1, 0, 2}, {0, 2, 1}, {2, 1, 0}};
  soup.add_cells(CellType::tetrahedron, 6 * lattice_cells(lat), [&lat, &orders](index_t tet, index_t* ids) {
    const int t = tet % 6;
    const std::array<index_t, 3> cell = lattice_cell(lat, tet / 6);
    std::array<index_t, 3> mirrored{};
    for (int a = 0; a < 3; ++a) mirrored[a] = lat.mirrored(a, cell[a]);
    const auto point = [&](const std::array<index_t, 3>& d) {
      return lat.node(cell[0] + (d[0] ^ mirrored[0]), cell[1] + (d[1] ^ mirrored[1]), cell[2] + (d[2] ^ mirrored[2]));
    };
    std::array<index_t, 3> d{};
    const index_t v0 = point(d);
    d[orders[t][0]] = 1;
    const index_t v1 = point(d);
    d[orders[t][1]] = 1;
    const index_t v2 = point(d);
    const index_t v3 = point({1, 1, 1});
    // Odd axis orders, and each reflection, reverse the walk's orientation.
    const bool reversed = (t >= 3) != ((mirrored[0] + mirrored[1] + mirrored[2]) % 2 != 0);
    const std::array<index_t, 4> nodes = reversed ? std::array<index_t, 4>{v0, v2, v1, v3}
                                                  : std::array<index_t, 4>{v0, v1, v2, v3};
    std::copy(nodes.begin(), nodes.end(), ids);
  });
}

void add_cells(CellSoup& soup, const BoxLattice& lat, BoxCells cells) {
  if (cells == BoxCells::hexahedra)
    add_hexahedra(soup, lat);
  else
    add_tetrahedra(soup, lat);
}

// Node z of lattice plane g of the box, for any integer g when z is periodic (plane g + nz is plane g
// shifted by the box length), so that a window of layers may wrap around.
double plane_z(const std::vector<double>& z, index_t g, double length) {
  const index_t n = static_cast<index_t>(z.size()) - 1;
  const index_t turns = g < 0 ? -((n - 1 - g) / n) : (g > n ? (g - 1) / n : 0);
  return z[static_cast<std::size_t>(g - turns * n)] + static_cast<double>(turns) * length;
}

void check_layers(const BoxSpec& spec, index_t first, index_t count, const std::string& source) {
  const index_t nz = spec.cells[2];
  const std::string window = "layers [" + std::to_string(first) + ", " + std::to_string(first + count) + ")";
  if (count < 1 || count > nz)
    throw Error(source + ": " + window + " of a box of " + std::to_string(nz) + " layers: give 1 to " +
                std::to_string(nz) + " layers");
  if (!spec.periodic[2] && (first < 0 || first + count > nz))
    throw Error(source + ": " + window + " lie outside the " + std::to_string(nz) +
                " layers of a box that is not periodic in z");
}

// The whole box, of hexahedra or of tetrahedra (6 per hexahedron).
Mesh make_box(const BoxSpec& spec, const std::string& source, bool tets, StageProfile* profile) {
  check_box(spec, source);
  const BoxLattice lat{spec.cells};
  CellSoup soup;
  {
    StageProfile::Part t(profile, "cell soup");
    soup = box_soup(spec, lat, tets);
    add_cells(soup, lat, tets ? BoxCells::tetrahedra : BoxCells::hexahedra);
  }
  Mesh mesh = build_mesh(soup, box_links(spec), source, profile);
  mesh.cells_in_lattice_order = true;
  return mesh;
}

}  // namespace

Mesh make_hex_box(const BoxSpec& spec, StageProfile* profile) { return make_box(spec, "make_hex_box", false, profile); }

Mesh make_tet_box(const BoxSpec& spec, StageProfile* profile) { return make_box(spec, "make_tet_box", true, profile); }

BoxLayers make_box_layers(const BoxSpec& spec, BoxCells cells, index_t first, index_t count,
                          const std::string& cut_patch) {
  const std::string source = "make_box_layers";
  check_box(spec, source);
  check_layers(spec, first, count, source);
  const index_t nz = spec.cells[2];
  const BoxLattice lat{{spec.cells[0], spec.cells[1], count}, {0, 0, first}, spec.cells};
  AxisCoordinates x = box_coordinates(spec);
  std::vector<double> z;
  for (index_t l = 0; l <= count; ++l) z.push_back(plane_z(x[2], first + l, spec.length[2]));
  x[2] = std::move(z);

  CellSoup soup;
  add_lattice_nodes(soup, lat, x);
  const bool triangles = cells == BoxCells::tetrahedra;
  for (int a = 0; a < 2; ++a)
    for (int side = 0; side < 2; ++side) add_side_faces(soup, lat, a, side, soup.add_patch(side_name(a, side)), triangles);
  // The window's end planes: the box's own ends where it has them, else where the held cells stop.
  const bool ends[2] = {!spec.periodic[2] && first == 0, !spec.periodic[2] && first + count == nz};
  std::array<index_t, 2> end_patch{};
  if (!spec.periodic[2])
    for (int side = 0; side < 2; ++side) end_patch[side] = soup.add_patch(side_name(2, side));
  if (!ends[0] || !ends[1]) {
    const index_t cut = soup.add_patch(cut_patch);
    for (int side = 0; side < 2; ++side)
      if (!ends[side]) end_patch[side] = cut;
  }
  for (int side = 0; side < 2; ++side) add_side_faces(soup, lat, 2, side, end_patch[side], triangles);
  add_cells(soup, lat, cells);

  BoxLayers out;
  out.mesh = build_mesh(soup, box_links(spec, 2), source);
  out.mesh.cells_in_lattice_order = true;
  const index_t per_layer = out.mesh.cell_count() / count;
  out.global_cell.reserve(static_cast<std::size_t>(out.mesh.cell_count()));
  for (index_t l = 0; l < count; ++l) {
    const index_t layer = ((first + l) % nz + nz) % nz;
    for (index_t c = 0; c < per_layer; ++c) out.global_cell.push_back(c + per_layer * layer);
  }
  return out;
}

}  // namespace miniapp::mesh
