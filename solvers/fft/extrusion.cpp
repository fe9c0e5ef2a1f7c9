// Detection of a uniform periodic extrusion along z from the mesh faces and geometry.
#include "solvers/fft/extrusion.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <span>
#include <sstream>

namespace miniapp::fft {

namespace {

Error not_extrusion(const std::string& why) { return Error("FFT Poisson solver: not an extrusion: " + why); }

std::string number(double v) {
  std::ostringstream s;
  s.precision(12);
  s << v;
  return s.str();
}

// The periodic length along z: the translation of the one link that moves along z only.
double periodic_length(const mesh::Mesh& mesh) {
  for (const auto& link : mesh.periodic_links) {
    const Vec3& t = link.translation;
    const double tz = std::abs(t[2]);
    if (tz > 0 && std::abs(t[0]) <= 1e-9 * tz && std::abs(t[1]) <= 1e-9 * tz) return tz;
  }
  throw not_extrusion("the extrusion direction z is not periodic (no periodic link translates along z)");
}

struct Twins {
  std::vector<index_t> above;
  double dz = 0;
};

// The passes below run over the faces or cells in parallel; where the mesh fails one, its error still
// names the first failure in mesh order, whatever the thread count (the first failing cell found by a
// reduction, or the serial pass run again for its message).

// Whether interior face f joins two cells stacked along z: centroid-to-centroid vector (0, 0, ±dz).
bool stacks_along_z(const Vec3& d, double tol) {
  return std::abs(d[0]) <= tol && std::abs(d[1]) <= tol && std::abs(d[2]) > tol;
}

// The lower and the upper cell of a face that stacks its two along z.
struct Stacked {
  index_t lower, upper;
};
Stacked stacked_cells(const mesh::Mesh& mesh, const Vec3& d, index_t f) {
  if (d[2] > 0) return {mesh.face_owner[f], mesh.face_neighbour[f]};
  return {mesh.face_neighbour[f], mesh.face_owner[f]};
}

// The twin above each cell: across an interior face whose centroid-to-centroid vector is (0, 0, ±dz).
Twins find_twins_serially(const mesh::Mesh& mesh, std::span<const Vec3> delta, double tol) {
  Twins twins{std::vector<index_t>(static_cast<std::size_t>(mesh.cell_count()), -1), 0};
  for (index_t f = 0; f < mesh.interior_face_count; ++f) {
    const Vec3& d = delta[f];
    if (!stacks_along_z(d, tol)) continue;
    const auto [lower, upper] = stacked_cells(mesh, d, f);
    const double dz = std::abs(d[2]);
    if (twins.dz == 0) twins.dz = dz;
    if (std::abs(dz - twins.dz) > tol)
      throw not_extrusion("non-uniform spacing dz = " + number(dz) + " (above cell " + std::to_string(lower) +
                          ") vs " + number(twins.dz));
    index_t& slot = twins.above[lower];
    if (slot >= 0 && slot != upper)
      throw not_extrusion("cell " + std::to_string(lower) + " has two twins above (cells " + std::to_string(slot) +
                          " and " + std::to_string(upper) + ")");
    slot = upper;
  }
  for (index_t c = 0; c < mesh.cell_count(); ++c)
    if (twins.above[c] < 0) throw not_extrusion("cell " + std::to_string(c) + " has no twin above");
  return twins;
}

// The same twins, or none where find_twins_serially would throw: dz is the first stacked face's.
std::optional<Twins> find_twins_in_parallel(const mesh::Mesh& mesh, std::span<const Vec3> delta, double tol) {
  Twins twins{std::vector<index_t>(static_cast<std::size_t>(mesh.cell_count()), -1), 0};
  for (index_t f = 0; f < mesh.interior_face_count && twins.dz == 0; ++f)
    if (stacks_along_z(delta[f], tol)) twins.dz = std::abs(delta[f][2]);
  bool found = true;
#pragma omp parallel for schedule(static) reduction(&& : found)
  for (index_t f = 0; f < mesh.interior_face_count; ++f) {
    const Vec3& d = delta[f];
    if (!stacks_along_z(d, tol)) continue;
    const auto [lower, upper] = stacked_cells(mesh, d, f);
    index_t before = -1;
    const bool first = std::atomic_ref<index_t>(twins.above[lower]).compare_exchange_strong(before, upper,
                                                                                           std::memory_order_relaxed);
    found = found && std::abs(std::abs(d[2]) - twins.dz) <= tol && (first || before == upper);
  }
#pragma omp parallel for schedule(static) reduction(&& : found)
  for (index_t c = 0; c < mesh.cell_count(); ++c) found = found && twins.above[c] >= 0;
  if (!found) return std::nullopt;
  return twins;
}

Twins find_twins(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry, double tol) {
  const UninitializedVector<Vec3> delta = mesh::face_deltas(mesh, geometry);
  if (std::optional<Twins> twins = find_twins_in_parallel(mesh, delta, tol)) return std::move(*twins);
  return find_twins_serially(mesh, delta, tol);
}

// Plane of each cell from its centroid height, 0 at the lowest.
std::vector<index_t> planes_by_centroid(const mesh::MeshGeometry& geometry, double dz, double tol) {
  const auto& x = geometry.cell_centroid;
  const auto cells = static_cast<std::ptrdiff_t>(x.size());
  double z_min = x.front()[2];
#pragma omp parallel for schedule(static) reduction(min : z_min)
  for (std::ptrdiff_t c = 0; c < cells; ++c) z_min = std::min(z_min, x[c][2]);
  std::vector<index_t> plane(x.size());
  std::ptrdiff_t between = cells;  // the first cell off every plane
#pragma omp parallel for schedule(static) reduction(min : between)
  for (std::ptrdiff_t c = 0; c < cells; ++c) {
    const double h = (x[c][2] - z_min) / dz;
    const double k = std::round(h);
    if (std::abs(h - k) * dz > tol) between = std::min(between, c);
    plane[c] = static_cast<index_t>(k);
  }
  if (between < cells)
    throw not_extrusion("cell " + std::to_string(between) + " lies between planes (z = " + number(x[between][2]) +
                        ", dz = " + number(dz) + ")");
  return plane;
}

// Walks the column of every bottom-plane cell upwards, numbering the 2D cells in 3D order.
void number_columns_serially(Extrusion& e, const std::vector<index_t>& above, const std::vector<index_t>& plane) {
  const std::size_t cells = above.size();
  e.plane_cells = 0;
  e.cell_3d.clear();
  e.cell_3d.reserve(cells);
  e.cell_2d.assign(cells, -1);
  e.plane.assign(cells, -1);
  for (std::size_t c = 0; c < cells; ++c) {
    if (plane[c] != 0) continue;
    const index_t c2 = e.plane_cells++;
    index_t cell = static_cast<index_t>(c);
    for (index_t k = 0; k < e.planes; ++k, cell = above[cell]) {
      if (plane[cell] != k || e.cell_2d[cell] >= 0)
        throw not_extrusion("the column above cell " + std::to_string(c) + " reaches cell " + std::to_string(cell) +
                            " at step " + std::to_string(k) + " but that cell is in plane " +
                            std::to_string(plane[cell]));
      e.cell_2d[cell] = c2;
      e.plane[cell] = k;
      e.cell_3d.push_back(cell);
    }
    if (cell != static_cast<index_t>(c))
      throw not_extrusion("the column above cell " + std::to_string(c) + " does not close after Nper = " +
                          std::to_string(e.planes) + " planes");
  }
  for (std::size_t c = 0; c < cells; ++c)
    if (e.cell_2d[c] < 0) throw not_extrusion("cell " + std::to_string(c) + " is in no column of the bottom plane");
}

// The same numbering, the columns walked in parallel; false where number_columns_serially would
// throw. The 2D cells are the bottom plane's in mesh order; a cell that two walks reach, or one off
// its plane, fails it, and with every walk closed after Nper distinct cells, Nper · N2d of them, no
// cell is left out.
bool number_columns_in_parallel(Extrusion& e, const std::vector<index_t>& above, const std::vector<index_t>& plane) {
  const std::size_t cells = above.size();
  std::vector<index_t> bottom;
  for (std::size_t c = 0; c < cells; ++c)
    if (plane[c] == 0) bottom.push_back(static_cast<index_t>(c));
  if (bottom.size() * static_cast<std::size_t>(e.planes) != cells) return false;
  e.plane_cells = static_cast<index_t>(bottom.size());
  e.cell_2d.assign(cells, -1);
  e.plane.assign(cells, -1);
  e.cell_3d.assign(cells, -1);
  bool numbered = true;
#pragma omp parallel for schedule(static) reduction(&& : numbered)
  for (index_t c2 = 0; c2 < e.plane_cells; ++c2) {
    index_t cell = bottom[c2];
    for (index_t k = 0; k < e.planes; ++k, cell = above[cell]) {
      index_t unclaimed = -1;
      if (plane[cell] != k ||
          !std::atomic_ref<index_t>(e.cell_2d[cell]).compare_exchange_strong(unclaimed, c2, std::memory_order_relaxed)) {
        numbered = false;
        break;
      }
      e.plane[cell] = k;
      e.cell_3d[static_cast<std::size_t>(c2) * e.planes + k] = cell;
    }
    numbered = numbered && cell == bottom[c2];
  }
  return numbered;
}

void number_columns(Extrusion& e, const std::vector<index_t>& above, const std::vector<index_t>& plane) {
  if (!number_columns_in_parallel(e, above, plane)) number_columns_serially(e, above, plane);
}

}  // namespace

Extrusion detect_extrusion(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry) {
  if (mesh.cell_count() == 0) throw not_extrusion("the mesh has no cells");
  const double length = periodic_length(mesh);
  const double tol = 1e-9 * length;
  const Twins twins = find_twins(mesh, geometry, tol);
  Extrusion e;
  e.dz = twins.dz;
  const double planes = std::round(length / twins.dz);
  if (std::abs(planes * twins.dz - length) > tol)
    throw not_extrusion("the periodic length " + number(length) + " is not a multiple of dz = " + number(twins.dz));
  e.planes = static_cast<index_t>(planes);
  if (e.planes % 2 != 0)
    throw Error("FFT Poisson solver: odd Nper = " + std::to_string(e.planes) +
                ": the FFT path needs an even number of planes");
  if (mesh.cell_count() % e.planes != 0)
    throw not_extrusion(std::to_string(mesh.cell_count()) + " cells are not a multiple of Nper = " +
                        std::to_string(e.planes));
  number_columns(e, twins.above, planes_by_centroid(geometry, twins.dz, tol));
  return e;
}

}  // namespace miniapp::fft
