// Detection of a uniform periodic extrusion along z from the mesh faces and geometry.
#include "solvers/fft/extrusion.hpp"

#include <algorithm>
#include <cmath>
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

// The twin above each cell: across an interior face whose centroid-to-centroid vector is (0, 0, ±dz).
Twins find_twins(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry, double tol) {
  Twins twins{std::vector<index_t>(static_cast<std::size_t>(mesh.cell_count()), -1), 0};
  for (index_t f = 0; f < mesh.interior_face_count; ++f) {
    const Vec3& d = geometry.face_delta[f];
    if (std::abs(d[0]) > tol || std::abs(d[1]) > tol || std::abs(d[2]) <= tol) continue;
    const index_t lower = d[2] > 0 ? mesh.face_owner[f] : mesh.face_neighbour[f];
    const index_t upper = d[2] > 0 ? mesh.face_neighbour[f] : mesh.face_owner[f];
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

// Plane of each cell from its centroid height, 0 at the lowest.
std::vector<index_t> planes_by_centroid(const mesh::MeshGeometry& geometry, double dz, double tol) {
  double z_min = geometry.cell_centroid.front()[2];
  for (const Vec3& x : geometry.cell_centroid) z_min = std::min(z_min, x[2]);
  std::vector<index_t> plane;
  plane.reserve(geometry.cell_centroid.size());
  for (std::size_t c = 0; c < geometry.cell_centroid.size(); ++c) {
    const double h = (geometry.cell_centroid[c][2] - z_min) / dz;
    const double k = std::round(h);
    if (std::abs(h - k) * dz > tol)
      throw not_extrusion("cell " + std::to_string(c) + " lies between planes (z = " +
                          number(geometry.cell_centroid[c][2]) + ", dz = " + number(dz) + ")");
    plane.push_back(static_cast<index_t>(k));
  }
  return plane;
}

// Walks the column of every bottom-plane cell upwards, numbering the 2D cells in 3D order.
void number_columns(Extrusion& e, const std::vector<index_t>& above, const std::vector<index_t>& plane) {
  const std::size_t cells = above.size();
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
  e.cell_3d.reserve(static_cast<std::size_t>(mesh.cell_count()));
  number_columns(e, twins.above, planes_by_centroid(geometry, twins.dz, tol));
  return e;
}

}  // namespace miniapp::fft
