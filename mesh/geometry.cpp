#include "mesh/geometry.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <span>

#include "mesh/face_geometry.hpp"

namespace miniapp::mesh {

namespace {

// Node average of every cell: the apex of the tetrahedra that decompose the cell.
UninitializedVector<Vec3> cell_averages(const Mesh& m) {
  UninitializedVector<Vec3> avg(m.cell_count());
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < m.cell_count(); ++c) {
    const index_t begin = m.cell_node_offsets[c], end = m.cell_node_offsets[c + 1];
    Vec3 sum{};
    for (index_t i = begin; i < end; ++i) sum += m.nodes[m.cell_nodes[i]];
    avg[c] = sum * (1.0 / (end - begin));
  }
  return avg;
}

// Where the neighbour of each interior face sees the face: +translation on periodic faces (the face
// nodes are those of the owner's side), zero elsewhere; empty for a mesh without periodic faces.
UninitializedVector<Vec3> neighbour_shifts(const Mesh& m) {
  UninitializedVector<Vec3> shift;
  if (m.periodic_faces.empty()) return shift;
  shift.resize(m.interior_face_count);
#pragma omp parallel for schedule(static)
  for (index_t f = 0; f < m.interior_face_count; ++f) shift[f] = Vec3{};
  for (const PeriodicFace& p : m.periodic_faces) shift[p.face] = m.periodic_links[p.link].translation;
  return shift;
}

Vec3 shift_of(std::span<const Vec3> shift, index_t interior_face) {
  return shift.empty() ? Vec3{} : shift[interior_face];
}

// Face f's owner-to-neighbour (or owner-to-face, on the boundary) vector, `shift` from neighbour_shifts.
Vec3 face_delta(const Mesh& m, const MeshGeometry& g, std::span<const Vec3> shift, index_t f) {
  const Vec3& own = g.cell_centroid[m.face_owner[f]];
  return m.is_boundary(f) ? g.face_centroid[f] - own : g.cell_centroid[m.face_neighbour[f]] - shift_of(shift, f) - own;
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

// The faces of each cell in ascending face order, the owner's side of a face before the neighbour's
// (a face can have the same cell on both sides across a one-cell periodic direction): a face number f
// for the owner's side, ~f for the neighbour's.
struct CellFaces {
  std::vector<index_t> offsets, sides;
};

// A counting sort of the sides by cell in two passes, without atomics and in the order a serial loop
// over the faces would give: the faces, cut into chunks, scatter their sides into buckets of blocks of
// cells (each chunk at its own offsets in each bucket, so a bucket holds its sides in face order), then
// each block sorts its bucket by cell.
CellFaces cell_faces(const Mesh& m) {
  struct CellSide {
    index_t cell, side;
  };
  constexpr index_t cells_per_block = 4096;
  const index_t cells = m.cell_count(), faces = m.face_count();
  const index_t blocks = (cells + cells_per_block - 1) / cells_per_block;
  const index_t faces_per_chunk = std::max<index_t>(1 << 14, faces / 256 + 1);
  const index_t chunks = std::max<index_t>(1, (faces + faces_per_chunk - 1) / faces_per_chunk);
  const auto for_each_side = [&](index_t chunk, auto fn) {
    for (index_t f = chunk * faces_per_chunk; f < std::min(faces, (chunk + 1) * faces_per_chunk); ++f) {
      fn(m.face_owner[f], f);
      if (m.face_neighbour[f] >= 0) fn(m.face_neighbour[f], ~f);
    }
  };
  // at[block * chunks + chunk]: where the chunk's sides of cells of the block go.
  std::vector<std::size_t> at(static_cast<std::size_t>(blocks) * chunks + 1, 0);
#pragma omp parallel for schedule(static)
  for (index_t chunk = 0; chunk < chunks; ++chunk)
    for_each_side(chunk, [&](index_t cell, index_t) { ++at[static_cast<std::size_t>(cell / cells_per_block) * chunks + chunk + 1]; });
  for (std::size_t i = 1; i < at.size(); ++i) at[i] += at[i - 1];
  const std::unique_ptr<CellSide[]> bucketed(new CellSide[at.back()]);
#pragma omp parallel for schedule(static)
  for (index_t chunk = 0; chunk < chunks; ++chunk)
    for_each_side(chunk, [&](index_t cell, index_t side) {
      bucketed[at[static_cast<std::size_t>(cell / cells_per_block) * chunks + chunk]++] = {cell, side};
    });
  // The cursors have moved each chunk's offset to the next chunk's: bucket b ends at
  // at[b * chunks + chunks - 1] and begins where bucket b - 1 ends.
  CellFaces cf;
  cf.offsets.resize(static_cast<std::size_t>(cells) + 1);
  cf.sides.resize(at.back());
#pragma omp parallel for schedule(static)
  for (index_t b = 0; b < blocks; ++b) {
    const std::size_t begin = b == 0 ? 0 : at[static_cast<std::size_t>(b) * chunks - 1];
    const std::size_t end = at[static_cast<std::size_t>(b + 1) * chunks - 1];
    const index_t first = b * cells_per_block, count = std::min(cells, first + cells_per_block) - first;
    std::array<index_t, cells_per_block + 1> next{};
    for (std::size_t i = begin; i < end; ++i) ++next[bucketed[i].cell - first + 1];
    for (index_t c = 0; c < count; ++c) next[c + 1] += next[c];
    for (index_t c = 0; c < count; ++c) cf.offsets[first + c] = static_cast<index_t>(begin) + next[c];
    for (std::size_t i = begin; i < end; ++i) cf.sides[begin + next[bucketed[i].cell - first]++] = bucketed[i].side;
  }
  cf.offsets[cells] = static_cast<index_t>(at.back());
  return cf;
}

// Each cell sums its faces' tetrahedra in face order, as a loop over faces scattering to owner and
// neighbour would, so the cells are independent (computed in parallel) and the sums the same.
void compute_cells(const Mesh& m, std::span<const Vec3> face_average, std::span<const Vec3> shift, MeshGeometry& g) {
  const UninitializedVector<Vec3> avg = cell_averages(m);
  const CellFaces cf = cell_faces(m);
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < m.cell_count(); ++c) {
    double volume = 0;
    Vec3 moment{};
    for (index_t k = cf.offsets[c]; k < cf.offsets[c + 1]; ++k) {
      const index_t side = cf.sides[k];
      // The neighbour of a periodic face lies one translation away: move its apex back to this side.
      if (side >= 0) add_face_tets(m, side, face_average[side], avg[c], 1.0, volume, moment);
      else add_face_tets(m, ~side, face_average[~side], avg[c] - shift_of(shift, ~side), -1.0, volume, moment);
    }
    g.cell_volume[c] = volume;
    g.cell_centroid[c] = volume != 0 ? avg[c] + moment * (1.0 / volume) : avg[c];
  }
}

}  // namespace

MeshGeometry compute_geometry(const Mesh& m) {
  MeshGeometry g;
  const std::size_t nc = m.cell_count(), nf = m.face_count();
  g.cell_volume.resize(nc);
  g.cell_centroid.resize(nc);
  g.face_area.resize(nf);
  g.face_normal.resize(nf);
  g.face_centroid.resize(nf);
  g.face_delta_n.resize(nf);
  UninitializedVector<Vec3> face_average(nf);
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
  const UninitializedVector<Vec3> shift = neighbour_shifts(m);
  compute_cells(m, face_average, shift, g);
#pragma omp parallel for
  for (index_t f = 0; f < m.face_count(); ++f) g.face_delta_n[f] = std::abs(dot(g.face_normal[f], face_delta(m, g, shift, f)));
  return g;
}

UninitializedVector<Vec3> face_deltas(const Mesh& m, const MeshGeometry& g) {
  const UninitializedVector<Vec3> shift = neighbour_shifts(m);
  UninitializedVector<Vec3> delta(static_cast<std::size_t>(m.face_count()));
#pragma omp parallel for
  for (index_t f = 0; f < m.face_count(); ++f) delta[f] = face_delta(m, g, shift, f);
  return delta;
}

}  // namespace miniapp::mesh
