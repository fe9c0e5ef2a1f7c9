#include "mesh/geometry.hpp"

#include "mesh/face_geometry.hpp"

namespace miniapp::mesh {

namespace {

// Node average of every cell: the apex of the tetrahedra that decompose the cell.
std::vector<Vec3> cell_averages(const Mesh& m) {
  std::vector<Vec3> avg(m.cell_count());
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const index_t begin = m.cell_node_offsets[c], end = m.cell_node_offsets[c + 1];
    for (index_t i = begin; i < end; ++i) avg[c] += m.nodes[m.cell_nodes[i]];
    avg[c] *= 1.0 / (end - begin);
  }
  return avg;
}

// Where the neighbour of each interior face sees the face: +translation on periodic faces (the face
// nodes are those of the owner's side), zero elsewhere.
std::vector<Vec3> neighbour_shifts(const Mesh& m) {
  std::vector<Vec3> shift(m.interior_face_count);
  for (const PeriodicFace& p : m.periodic_faces) shift[p.face] = m.periodic_links[p.link].translation;
  return shift;
}

// Adds to a cell with apex c the tetrahedra (c, p, x_i, x_{i+1}) of face f's triangle fan about its
// average point p: volume sign · (S_i · (p − c)) / 3 and first moment about c. sign = +1 when the face
// points out of the cell (owner), −1 otherwise (neighbour).
void add_face_tets(const Mesh& m, index_t f, const Vec3& p, const Vec3& c, double sign, double& volume, Vec3& moment) {
  const index_t begin = m.face_node_offsets[f], n = m.face_node_offsets[f + 1] - begin;
  const index_t* ids = m.face_nodes.data() + begin;
  const Vec3 pc = p - c;
  Vec3 a = m.nodes[ids[n - 1]] - c;
  for (index_t i = 0; i < n; ++i) {
    const Vec3 b = m.nodes[ids[i]] - c;
    const double v = sign * dot(cross(a - pc, b - pc), pc) / 6.0;
    volume += v;
    moment += v * 0.25 * (pc + a + b);
    a = b;
  }
}

void compute_cells(const Mesh& m, const std::vector<Vec3>& face_average, const std::vector<Vec3>& shift,
                   MeshGeometry& g) {
  const std::vector<Vec3> avg = cell_averages(m);
  std::vector<Vec3> moment(m.cell_count());
  for (index_t f = 0; f < m.face_count(); ++f) {
    const Vec3& p = face_average[f];
    const index_t own = m.face_owner[f], nb = m.face_neighbour[f];
    add_face_tets(m, f, p, avg[own], 1.0, g.cell_volume[own], moment[own]);
    // The neighbour of a periodic face lies one translation away: move its apex back to this side.
    if (nb >= 0) add_face_tets(m, f, p, avg[nb] - shift[f], -1.0, g.cell_volume[nb], moment[nb]);
  }
  for (index_t c = 0; c < m.cell_count(); ++c)
    g.cell_centroid[c] = g.cell_volume[c] != 0 ? avg[c] + moment[c] * (1.0 / g.cell_volume[c]) : avg[c];
}

}  // namespace

MeshGeometry compute_geometry(const Mesh& m) {
  MeshGeometry g;
  const std::size_t nc = m.cell_count(), nf = m.face_count();
  g.cell_volume.assign(nc, 0.0);
  g.cell_centroid.assign(nc, Vec3{});
  g.face_area.resize(nf);
  g.face_normal.resize(nf);
  g.face_centroid.resize(nf);
  g.face_delta.resize(nf);
  g.face_delta_n.resize(nf);
  std::vector<Vec3> face_average(nf);
  // Faces are independent here and in the last loop (the cells loop in between scatters to cells).
#pragma omp parallel for
  for (index_t f = 0; f < m.face_count(); ++f) {
    const index_t begin = m.face_node_offsets[f];
    const FaceShape s = face_shape(m.nodes, m.face_nodes.data() + begin, m.face_node_offsets[f + 1] - begin);
    g.face_area[f] = norm(s.area);
    g.face_normal[f] = g.face_area[f] > 0 ? s.area * (1.0 / g.face_area[f]) : Vec3{};
    g.face_centroid[f] = s.centroid;
    face_average[f] = s.average;
  }
  const std::vector<Vec3> shift = neighbour_shifts(m);
  compute_cells(m, face_average, shift, g);
#pragma omp parallel for
  for (index_t f = 0; f < m.face_count(); ++f) {
    const Vec3& own = g.cell_centroid[m.face_owner[f]];
    g.face_delta[f] =
        m.is_boundary(f) ? g.face_centroid[f] - own : g.cell_centroid[m.face_neighbour[f]] - shift[f] - own;
    g.face_delta_n[f] = std::abs(dot(g.face_normal[f], g.face_delta[f]));
  }
  return g;
}

}  // namespace miniapp::mesh
