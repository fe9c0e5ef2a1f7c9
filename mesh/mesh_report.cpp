#include "mesh/mesh_report.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <ostream>

namespace miniapp::mesh {

namespace {

void add_closure(const Mesh& m, const MeshGeometry& g, MeshReport& r) {
  std::vector<Vec3> sum(m.cell_count());
  std::vector<double> area(m.cell_count(), 0.0);
  for (index_t f = 0; f < m.face_count(); ++f) {
    const Vec3 s = g.face_normal[f] * g.face_area[f];
    sum[m.face_owner[f]] += s;
    area[m.face_owner[f]] += g.face_area[f];
    if (const index_t nb = m.face_neighbour[f]; nb >= 0) {
      sum[nb] -= s;
      area[nb] += g.face_area[f];
    }
  }
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const double e = area[c] > 0 ? norm(sum[c]) / area[c] : 1.0;  // a cell without area is not closed
    r.max_closure_error = std::max(r.max_closure_error, e);
    if (e > open_cell_threshold) ++r.open_cells;
  }
}

}  // namespace

MeshReport make_report(const Mesh& m, const MeshGeometry& g) {
  MeshReport r;
  for (CellType t : m.cell_types) ++r.cells_by_type[static_cast<int>(t)];
  r.faces = m.face_count();
  r.interior_faces = m.interior_face_count;
  r.boundary_faces = m.boundary_face_count();
  r.periodic_faces = static_cast<index_t>(m.periodic_faces.size());
  if (!g.cell_volume.empty()) {
    const auto [lo, hi] = std::minmax_element(g.cell_volume.begin(), g.cell_volume.end());
    r.min_cell_volume = *lo;
    r.max_cell_volume = *hi;
  }
  for (double v : g.cell_volume) r.total_volume += v;
  const UninitializedVector<Vec3> delta = face_deltas(m, g);
  for (index_t f = 0; f < m.interior_face_count; ++f) {
    const double d = norm(delta[f]);
    if (d == 0) continue;
    const double c = std::clamp(dot(g.face_normal[f], delta[f]) / d, -1.0, 1.0);
    r.max_non_orthogonality_deg = std::max(r.max_non_orthogonality_deg, std::acos(c) * 180.0 / std::numbers::pi);
  }
  add_closure(m, g, r);
  return r;
}

void print_report(std::ostream& out, const Mesh& m, const MeshReport& r) {
  out << "cells              " << m.cell_count() << " (";
  bool first = true;
  for (int t = 0; t < 4; ++t) {
    if (r.cells_by_type[t] == 0) continue;
    out << (first ? "" : ", ") << name(static_cast<CellType>(t)) << " " << r.cells_by_type[t];
    first = false;
  }
  out << ")\n";
  out << "nodes              " << m.node_count() << "\n";
  out << "faces              " << r.faces << ": " << r.interior_faces << " interior (" << r.periodic_faces
      << " periodic), " << r.boundary_faces << " boundary\n";
  for (const Patch& p : m.patches) out << "  patch            " << p.name << ": " << p.face_count << " faces\n";
  for (const PeriodicLink& l : m.periodic_links)
    out << "  periodic link    " << l.patch_a << " -> " << l.patch_b << " by (" << l.translation.x << " "
        << l.translation.y << " " << l.translation.z << ")\n";
  out << "volume             total " << r.total_volume << ", cell min " << r.min_cell_volume << ", max "
      << r.max_cell_volume << "\n";
  out << "non-orthogonality  max " << r.max_non_orthogonality_deg << " deg\n";
  out << "closure            max |sum A n| / sum A = " << r.max_closure_error << ", open cells " << r.open_cells
      << "\n";
}

}  // namespace miniapp::mesh
