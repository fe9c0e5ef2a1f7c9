#include "mesh/mesh_builder.hpp"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>

#include "mesh/builder_detail.hpp"
#include "mesh/cell_faces.hpp"
#include "mesh/face_geometry.hpp"

namespace miniapp::mesh {

using detail::FaceNodes;
using detail::FaceRecord;

void CellSoup::add_cell(CellType type, std::initializer_list<index_t> ids) {
  if (static_cast<int>(ids.size()) != node_count(type))
    throw Error("CellSoup::add_cell: a " + std::string(name(type)) + " has " + std::to_string(node_count(type)) +
                " nodes, got " + std::to_string(ids.size()));
  cell_types.push_back(type);
  cell_nodes.insert(cell_nodes.end(), ids);
  cell_node_offsets.push_back(checked_index(cell_nodes.size(), "CellSoup: cell nodes"));
}

void CellSoup::add_boundary_face(index_t patch, std::initializer_list<index_t> ids) {
  if (ids.size() != 3 && ids.size() != 4)
    throw Error("CellSoup::add_boundary_face: a face has 3 or 4 nodes, got " + std::to_string(ids.size()));
  if (patch < 0 || patch >= static_cast<index_t>(patch_names.size()))
    throw Error("CellSoup::add_boundary_face: patch " + std::to_string(patch) + " does not exist (" +
                std::to_string(patch_names.size()) + " patches)");
  boundary_face_nodes.insert(boundary_face_nodes.end(), ids);
  boundary_face_node_offsets.push_back(checked_index(boundary_face_nodes.size(), "CellSoup: boundary face nodes"));
  boundary_face_patch.push_back(patch);
}

index_t CellSoup::add_patch(std::string patch_name) {
  patch_names.push_back(std::move(patch_name));
  return static_cast<index_t>(patch_names.size()) - 1;
}

namespace detail {

int cell_face_nodes(const CellSoup& soup, index_t cell, int local, FaceNodes& ids) {
  const LocalFace& f = local_faces(soup.cell_types[cell])[local];
  const index_t* c = soup.cell_nodes.data() + soup.cell_node_offsets[cell];
  for (int i = 0; i < f.size; ++i) ids[i] = c[f.nodes[i]];
  return f.size;
}

std::string face_text(const FaceNodes& ids, int n) {
  std::string s = "(";
  for (int i = 0; i < n; ++i) {
    if (i > 0) s += ' ';
    s += std::to_string(ids[i]);
  }
  return s + ")";
}

}  // namespace detail

namespace {

// One face of one cell (cell >= 0, `local` = its face number in the cell) or one listed boundary face
// (cell = −1, `local` = its index in the soup), keyed by its sorted node ids packed in two words.
struct FaceSlot {
  std::uint64_t hi = 0, lo = 0;
  index_t cell = 0, local = 0;

  bool same_face(const FaceSlot& o) const { return hi == o.hi && lo == o.lo; }
  bool operator<(const FaceSlot& o) const {
    return std::tie(hi, lo, cell, local) < std::tie(o.hi, o.lo, o.cell, o.local);
  }
  index_t first_node() const { return static_cast<index_t>(hi >> 32); }
};

FaceSlot make_slot(FaceNodes ids, int n, index_t cell, index_t local) {
  for (int i = 1; i < n; ++i)  // insertion sort: cheaper than std::sort for 3 or 4 ids
    for (int j = i; j > 0 && ids[j - 1] > ids[j]; --j) std::swap(ids[j - 1], ids[j]);
  std::array<std::uint64_t, 4> k{};
  for (int i = 0; i < 4; ++i)
    k[i] = i < n ? static_cast<std::uint32_t>(ids[i]) : UINT32_MAX;  // no node id reaches the pad
  return {k[0] << 32 | k[1], k[2] << 32 | k[3], cell, local};
}

int listed_face_nodes(const CellSoup& soup, index_t face, FaceNodes& ids) {
  const index_t begin = soup.boundary_face_node_offsets[face];
  const int n = soup.boundary_face_node_offsets[face + 1] - begin;
  std::copy_n(soup.boundary_face_nodes.begin() + begin, n, ids.begin());
  return n;
}

// Calls fn(slot) for every face of every cell, then for every listed boundary face.
template <class Fn>
void for_each_slot(const CellSoup& soup, Fn fn) {
  FaceNodes ids{};
  for (index_t c = 0; c < static_cast<index_t>(soup.cell_types.size()); ++c) {
    const auto faces = local_faces(soup.cell_types[c]);
    for (int f = 0; f < static_cast<int>(faces.size()); ++f)
      fn(make_slot(ids, detail::cell_face_nodes(soup, c, f, ids), c, f));
  }
  for (index_t b = 0; b < static_cast<index_t>(soup.boundary_face_patch.size()); ++b)
    fn(make_slot(ids, listed_face_nodes(soup, b, ids), -1, b));
}

// All face slots in key order. A counting sort by smallest node followed by a small sort per bucket:
// linear in the number of slots, and much cheaper than one global sort of ~6 slots per cell.
std::vector<FaceSlot> sorted_face_slots(const CellSoup& soup) {
  std::vector<std::size_t> end(soup.nodes.size() + 1, 0);
  for_each_slot(soup, [&](const FaceSlot& s) { ++end[s.first_node() + 1]; });
  for (std::size_t i = 1; i < end.size(); ++i) end[i] += end[i - 1];
  std::vector<FaceSlot> slots(end.back());
  // Filling with end[n]++ as cursor leaves end[n] at the end of bucket n.
  for_each_slot(soup, [&](const FaceSlot& s) { slots[end[s.first_node()]++] = s; });
  // Buckets are disjoint and their keys unique: sorted in parallel, to the same order.
  const auto buckets = static_cast<std::ptrdiff_t>(end.size()) - 1;
#pragma omp parallel for schedule(dynamic, 4096)
  for (std::ptrdiff_t n = 0; n < buckets; ++n)
    std::sort(slots.begin() + static_cast<std::ptrdiff_t>(n == 0 ? 0 : end[n - 1]), slots.begin() + end[n]);
  return slots;
}

struct Matched {
  std::vector<FaceRecord> interior, boundary;
  std::size_t open_faces = 0;
  FaceSlot first_open;  // the open face of the lowest cell
};

std::string listed_text(const CellSoup& soup, index_t face) {
  FaceNodes ids{};
  const int n = listed_face_nodes(soup, face, ids);
  return "boundary face " + detail::face_text(ids, n) + " of patch '" +
         soup.patch_names[soup.boundary_face_patch[face]] + "'";
}

std::string cell_face_text(const CellSoup& soup, const FaceSlot& s) {
  FaceNodes ids{};
  const int n = detail::cell_face_nodes(soup, s.cell, s.local, ids);
  return detail::face_text(ids, n);
}

// Classifies one group of slots with the same nodes (listed boundary faces first, as they sort first).
void classify_group(const CellSoup& soup, const FaceSlot* g, std::size_t size, Matched& out,
                    const std::string& source) {
  std::size_t listed = 0;
  while (listed < size && g[listed].cell < 0) ++listed;
  const std::size_t cells = size - listed;
  if (cells == 0) throw Error(source + ": " + listed_text(soup, g[0].local) + " is not a face of any cell");
  if (listed > 1)
    throw Error(source + ": " + listed_text(soup, g[0].local) + " is listed " + std::to_string(listed) + " times");
  const FaceSlot& c0 = g[listed];
  if (cells > 2) {
    std::string list;
    for (std::size_t i = listed; i < size; ++i) list += (i > listed ? ", " : "") + std::to_string(g[i].cell);
    throw Error(source + ": face " + cell_face_text(soup, c0) + " is shared by " + std::to_string(cells) + " cells (" +
                list + "); a conforming mesh shares a face between at most two cells");
  }
  if (cells == 2) {
    const FaceSlot& c1 = g[listed + 1];
    if (listed)
      throw Error(source + ": " + listed_text(soup, g[0].local) + " lies between cells " + std::to_string(c0.cell) +
                  " and " + std::to_string(c1.cell) + "; a patch may hold only faces on the boundary");
    if (c0.cell == c1.cell)
      throw Error(source + ": cell " + std::to_string(c0.cell) + " has face " + cell_face_text(soup, c0) + " twice");
    out.interior.push_back({c0.cell, c1.cell, c0.local});  // slots sort by cell: c0.cell < c1.cell
  } else if (listed) {
    out.boundary.push_back({c0.cell, -1, c0.local, soup.boundary_face_patch[g[0].local]});
  } else if (out.open_faces++ == 0 || c0.cell < out.first_open.cell) {
    out.first_open = c0;
  }
}

Matched match_faces(const CellSoup& soup, const std::string& source) {
  const std::vector<FaceSlot> slots = sorted_face_slots(soup);
  Matched m;
  m.interior.reserve(slots.size() / 2);
  for (std::size_t i = 0; i < slots.size();) {
    std::size_t j = i + 1;
    while (j < slots.size() && slots[j].same_face(slots[i])) ++j;
    classify_group(soup, &slots[i], j - i, m, source);
    i = j;
  }
  if (m.open_faces > 0)
    throw Error(source + ": mesh is not closed: face " + cell_face_text(soup, m.first_open) + " of cell " +
                std::to_string(m.first_open.cell) + " is on no boundary patch (" + std::to_string(m.open_faces) +
                " such face" + (m.open_faces > 1 ? "s" : "") + " in all; node and cell numbers count from 0)");
  return m;
}

// Stable counting sort of records by key(r) in [0, range).
template <class Key>
void counting_sort(std::vector<FaceRecord>& records, std::size_t range, Key key) {
  std::vector<std::size_t> next(range + 1, 0);
  for (const FaceRecord& r : records) ++next[key(r) + 1];
  for (std::size_t i = 1; i <= range; ++i) next[i] += next[i - 1];
  std::vector<FaceRecord> sorted(records.size());
  for (const FaceRecord& r : records) sorted[next[key(r)]++] = r;
  records.swap(sorted);
}

}  // namespace

Mesh build_mesh(const CellSoup& soup, const std::vector<PeriodicRequest>& periodic, const std::string& source) {
  detail::validate_soup(soup, source);
  Matched m = match_faces(soup, source);
  // Interior faces in upper-triangular order (by owner, then neighbour); boundary faces grouped by
  // patch, then by owner. Two stable counting-sort passes each, least significant key first.
  const std::size_t cells = soup.cell_types.size(), patches = soup.patch_names.size();
  counting_sort(m.interior, cells, [](const FaceRecord& r) { return r.neighbour; });
  counting_sort(m.interior, cells, [](const FaceRecord& r) { return r.owner; });
  counting_sort(m.boundary, cells, [](const FaceRecord& r) { return r.owner; });
  counting_sort(m.boundary, patches, [](const FaceRecord& r) { return r.patch; });
  detail::match_periodic(soup, m.boundary, periodic, source);
  return detail::assemble_mesh(soup, m.interior, m.boundary, periodic);
}

}  // namespace miniapp::mesh
