#include <algorithm>
#include <cstdint>
#include <memory>
#include <tuple>
#include <utility>

#include "core/parallel_exceptions.hpp"
#include "mesh/builder_detail.hpp"
#include "mesh/cell_faces.hpp"

namespace miniapp::mesh::detail {

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

namespace {

// One face of one cell (cell >= 0, `local` = its face number in the cell) or one listed boundary face
// (cell = −1, `local` = its index in the soup), keyed by its sorted node ids packed in two words. No
// member initializers: the slot array is left unwritten until the threads fill it (and fault in its
// pages in parallel).
struct FaceSlot {
  std::uint64_t hi, lo;
  index_t cell, local;

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

FaceSlot cell_slot(const CellSoup& soup, index_t cell, int local) {
  FaceNodes ids{};
  return make_slot(ids, cell_face_nodes(soup, cell, local, ids), cell, local);
}

int listed_face_nodes(const CellSoup& soup, index_t face, FaceNodes& ids) {
  const index_t begin = soup.boundary_face_node_offsets[face];
  const int n = soup.boundary_face_node_offsets[face + 1] - begin;
  std::copy_n(soup.boundary_face_nodes.begin() + begin, n, ids.begin());
  return n;
}

// Calls fn(slot) for every face of every cell, then for every listed boundary face, in parallel: fn
// must be safe to call from several threads at once.
template <class Fn>
void for_each_slot(const CellSoup& soup, Fn fn) {
  const auto cells = static_cast<index_t>(soup.cell_types.size());
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < cells; ++c) {
    const int faces = static_cast<int>(local_faces(soup.cell_types[c]).size());
    for (int f = 0; f < faces; ++f) fn(cell_slot(soup, c, f));
  }
  const auto listed = static_cast<index_t>(soup.boundary_face_patch.size());
#pragma omp parallel for schedule(static)
  for (index_t b = 0; b < listed; ++b) {
    FaceNodes ids{};
    fn(make_slot(ids, listed_face_nodes(soup, b, ids), -1, b));
  }
}

// All face slots, bucketed by their smallest node: bucket n is [end[n - 1], end[n]) (from 0 for n = 0).
// A counting sort, linear in the number of slots, filled by all threads at once: the order within a
// bucket depends on the threads, which the sort of each bucket by the slots' total order then removes.
struct SlotBuckets {
  std::vector<std::size_t> end;
  std::unique_ptr<FaceSlot[]> slots;
};

SlotBuckets bucket_face_slots(const CellSoup& soup) {
  SlotBuckets b;
  b.end.assign(soup.nodes.size() + 1, 0);
  std::size_t* end = b.end.data();
  for_each_slot(soup, [end](const FaceSlot& s) {
#pragma omp atomic
    ++end[s.first_node() + 1];
  });
  for (std::size_t i = 1; i < b.end.size(); ++i) b.end[i] += b.end[i - 1];
  b.slots = std::make_unique_for_overwrite<FaceSlot[]>(b.end.back());
  // Filling with end[n]++ as cursor leaves end[n] at the end of bucket n.
  FaceSlot* slots = b.slots.get();
  for_each_slot(soup, [end, slots](const FaceSlot& s) {
    std::size_t at;
#pragma omp atomic capture
    at = end[s.first_node()]++;
    slots[at] = s;
  });
  return b;
}

std::string listed_text(const CellSoup& soup, index_t face) {
  FaceNodes ids{};
  const int n = listed_face_nodes(soup, face, ids);
  return "boundary face " + face_text(ids, n) + " of patch '" + soup.patch_names[soup.boundary_face_patch[face]] + "'";
}

std::string cell_face_text(const CellSoup& soup, index_t cell, int local) {
  FaceNodes ids{};
  const int n = cell_face_nodes(soup, cell, local, ids);
  return face_text(ids, n);
}

// Links the cell faces of one group of slots with the same nodes (listed boundary faces first, as they
// sort first), or throws for a group that no conforming, closed mesh has.
void link_group(const CellSoup& soup, const FaceSlot* g, std::size_t size, CellFaceLinks& links,
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
    throw Error(source + ": face " + cell_face_text(soup, c0.cell, c0.local) + " is shared by " +
                std::to_string(cells) + " cells (" + list + "); a conforming mesh shares a face between at most two cells");
  }
  index_t& other = links.other[links.first[c0.cell] + c0.local];
  if (cells == 2) {
    const FaceSlot& c1 = g[listed + 1];
    if (listed)
      throw Error(source + ": " + listed_text(soup, g[0].local) + " lies between cells " + std::to_string(c0.cell) +
                  " and " + std::to_string(c1.cell) + "; a patch may hold only faces on the boundary");
    if (c0.cell == c1.cell)
      throw Error(source + ": cell " + std::to_string(c0.cell) + " has face " + cell_face_text(soup, c0.cell, c0.local) +
                  " twice");
    other = c1.cell;
    links.other[links.first[c1.cell] + c1.local] = c0.cell;
  } else {
    other = listed ? CellFaceLinks::listed(g[0].local) : CellFaceLinks::open;
  }
}

std::vector<std::size_t> first_cell_faces(const CellSoup& soup) {
  std::vector<std::size_t> first(soup.cell_types.size() + 1, 0);
  for (std::size_t c = 0; c < soup.cell_types.size(); ++c)
    first[c + 1] = first[c] + local_faces(soup.cell_types[c]).size();
  return first;
}

// The error of a mesh with cell faces on no boundary patch: their number and the one of the lowest cell
// (of its open faces, the first by sorted nodes).
void check_closed(const CellSoup& soup, const CellFaceLinks& links, const std::string& source) {
  const auto cells = static_cast<index_t>(soup.cell_types.size());
  std::size_t open = 0;
  index_t first_cell = cells;
#pragma omp parallel for schedule(static) reduction(+ : open) reduction(min : first_cell)
  for (index_t c = 0; c < cells; ++c)
    for (std::size_t k = links.first[c]; k < links.first[c + 1]; ++k)
      if (links.other[k] == CellFaceLinks::open) {
        ++open;
        first_cell = std::min(first_cell, c);
      }
  if (open == 0) return;
  int first_face = -1;
  for (int f = 0; f < static_cast<int>(links.first[first_cell + 1] - links.first[first_cell]); ++f)
    if (links.other[links.first[first_cell] + f] == CellFaceLinks::open &&
        (first_face < 0 || cell_slot(soup, first_cell, f) < cell_slot(soup, first_cell, first_face)))
      first_face = f;
  throw Error(source + ": mesh is not closed: face " + cell_face_text(soup, first_cell, first_face) + " of cell " +
              std::to_string(first_cell) + " is on no boundary patch (" + std::to_string(open) + " such face" +
              (open > 1 ? "s" : "") + " in all; node and cell numbers count from 0)");
}

}  // namespace

CellFaceLinks match_faces(const CellSoup& soup, const std::string& source) {
  CellFaceLinks links;
  links.first = first_cell_faces(soup);
  links.other = std::make_unique_for_overwrite<index_t[]>(links.first.back());
  SlotBuckets b = bucket_face_slots(soup);
  // A face's slots share their smallest node, so each bucket is matched on its own. An error thrown is
  // that of the first group in slot order, as a loop in order would throw it.
  ParallelExceptions errors;
  const auto buckets = static_cast<std::ptrdiff_t>(b.end.size()) - 1;
#pragma omp parallel for schedule(dynamic, 4096)
  for (std::ptrdiff_t n = 0; n < buckets; ++n)
    errors.guard_at(n, [&] {
      FaceSlot* const begin = b.slots.get() + (n == 0 ? 0 : b.end[n - 1]);
      FaceSlot* const end = b.slots.get() + b.end[n];
      std::sort(begin, end);
      for (const FaceSlot* g = begin; g < end;) {
        const FaceSlot* next = g + 1;
        while (next < end && next->same_face(*g)) ++next;
        link_group(soup, g, static_cast<std::size_t>(next - g), links, source);
        g = next;
      }
    });
  errors.rethrow();
  check_closed(soup, links, source);
  return links;
}

bool slot_before(const CellSoup& soup, index_t cell, int a, int b) {
  const FaceSlot x = cell_slot(soup, cell, a), y = cell_slot(soup, cell, b);
  return std::tie(x.hi, x.lo) < std::tie(y.hi, y.lo);
}

}  // namespace miniapp::mesh::detail
