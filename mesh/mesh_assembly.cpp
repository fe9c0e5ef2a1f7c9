#include <algorithm>
#include <set>

#include "mesh/builder_detail.hpp"
#include "mesh/cell_faces.hpp"
#include "mesh/face_geometry.hpp"

namespace miniapp::mesh::detail {

namespace {

void check_offsets(const std::vector<index_t>& offsets, std::size_t items, std::size_t entries, const std::string& what,
                   const std::string& source) {
  if (offsets.size() != items + 1 || offsets.front() != 0 || static_cast<std::size_t>(offsets.back()) != entries)
    throw Error(source + ": " + what + " offsets do not match: " + std::to_string(offsets.size()) + " offsets for " +
                std::to_string(items) + " items and " + std::to_string(entries) + " node entries");
}

void check_node_ids(const std::vector<index_t>& ids, std::size_t nodes, const std::string& what,
                    const std::string& source) {
  const auto count = static_cast<std::ptrdiff_t>(ids.size());
  std::ptrdiff_t first_bad = count;
#pragma omp parallel for schedule(static) reduction(min : first_bad)
  for (std::ptrdiff_t i = 0; i < count; ++i)
    if (ids[i] < 0 || static_cast<std::size_t>(ids[i]) >= nodes) first_bad = std::min(first_bad, i);
  if (first_bad < count)
    throw Error(source + ": " + what + " entry " + std::to_string(first_bad) + " names node " +
                std::to_string(ids[first_bad]) + ", outside 0.." + std::to_string(nodes - 1));
}

}  // namespace

void validate_soup(const CellSoup& s, const std::string& source) {
  checked_index(s.nodes.size(), source + ": nodes");
  check_offsets(s.cell_node_offsets, s.cell_types.size(), s.cell_nodes.size(), "cell node", source);
  const auto cells = static_cast<index_t>(s.cell_types.size());
  index_t first_bad = cells;
#pragma omp parallel for schedule(static) reduction(min : first_bad)
  for (index_t c = 0; c < cells; ++c)
    if (s.cell_node_offsets[c + 1] - s.cell_node_offsets[c] != node_count(s.cell_types[c]))
      first_bad = std::min(first_bad, c);
  if (first_bad < cells)
    throw Error(source + ": cell " + std::to_string(first_bad) + " is a " + std::string(name(s.cell_types[first_bad])) +
                " with " + std::to_string(s.cell_node_offsets[first_bad + 1] - s.cell_node_offsets[first_bad]) +
                " nodes");
  check_node_ids(s.cell_nodes, s.nodes.size(), "cell node", source);
  const std::size_t faces = s.boundary_face_patch.size();
  check_offsets(s.boundary_face_node_offsets, faces, s.boundary_face_nodes.size(), "boundary face node", source);
  check_node_ids(s.boundary_face_nodes, s.nodes.size(), "boundary face node", source);
  for (std::size_t f = 0; f < faces; ++f) {
    const index_t n = s.boundary_face_node_offsets[f + 1] - s.boundary_face_node_offsets[f];
    if (n != 3 && n != 4)
      throw Error(source + ": boundary face " + std::to_string(f) + " has " + std::to_string(n) +
                  " nodes; faces have 3 or 4");
    if (s.boundary_face_patch[f] < 0 || static_cast<std::size_t>(s.boundary_face_patch[f]) >= s.patch_names.size())
      throw Error(source + ": boundary face " + std::to_string(f) + " is in patch " +
                  std::to_string(s.boundary_face_patch[f]) + " of " + std::to_string(s.patch_names.size()));
  }
  std::set<std::string> names;
  for (const std::string& n : s.patch_names)
    if (!names.insert(n).second) throw Error(source + ": two patches are named '" + n + "'");
}

namespace {

// Node average of every cell of the soup.
std::vector<Vec3> cell_averages(const CellSoup& soup) {
  const auto cells = static_cast<index_t>(soup.cell_types.size());
  std::vector<Vec3> average(cells);
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < cells; ++c) {
    const index_t begin = soup.cell_node_offsets[c], end = soup.cell_node_offsets[c + 1];
    for (index_t i = begin; i < end; ++i) average[c] += soup.nodes[soup.cell_nodes[i]];
    average[c] *= 1.0 / (end - begin);
  }
  return average;
}

// Writes the owner's local face nodes of face r, turned so the area vector points away from the
// owner's node average (robust against cells given in mirrored node order).
void write_face_nodes(const CellSoup& soup, const std::vector<Vec3>& cell_average, const FaceRecord& r,
                      index_t* nodes) {
  FaceNodes ids{};
  const int n = cell_face_nodes(soup, r.owner, r.local, ids);
  const FaceShape s = face_area(soup.nodes, ids.data(), n);
  if (dot(s.area, s.average - cell_average[r.owner]) < 0) std::reverse(ids.begin() + 1, ids.begin() + n);
  std::copy_n(ids.begin(), n, nodes);
}

bool is_periodic_patch(const std::string& patch, const std::vector<PeriodicRequest>& periodic) {
  return std::any_of(periodic.begin(), periodic.end(),
                     [&](const PeriodicRequest& r) { return r.patch_a == patch || r.patch_b == patch; });
}

}  // namespace

Mesh assemble_mesh(const CellSoup& soup, const std::vector<FaceRecord>& interior,
                   const std::vector<FaceRecord>& boundary, const std::vector<PeriodicRequest>& periodic) {
  Mesh m;
  m.nodes = soup.nodes;
  m.cell_types = soup.cell_types;
  m.cell_node_offsets = soup.cell_node_offsets;
  m.cell_nodes = soup.cell_nodes;
  std::vector<FaceRecord> glued, rest;
  for (const FaceRecord& r : boundary) {  // b-side twins of periodic faces (patch -1, link -1) are dropped
    if (r.link >= 0)
      glued.push_back(r);
    else if (r.patch >= 0)
      rest.push_back(r);
  }
  std::stable_sort(glued.begin(), glued.end(),
                   [](const FaceRecord& a, const FaceRecord& b) { return a.link < b.link; });

  const std::size_t first_glued = interior.size(), first_rest = first_glued + glued.size();
  const auto faces = static_cast<index_t>(checked_index(first_rest + rest.size(), "mesh faces"));
  const auto record = [&](index_t f) -> const FaceRecord& {
    const auto i = static_cast<std::size_t>(f);
    return i < first_glued ? interior[i] : i < first_rest ? glued[i - first_glued] : rest[i - first_rest];
  };
  m.interior_face_count = checked_index(first_rest, "interior faces");
  m.face_node_offsets.resize(static_cast<std::size_t>(faces) + 1);
  m.face_owner.resize(faces);
  m.face_neighbour.resize(faces);
#pragma omp parallel for schedule(static)
  for (index_t f = 0; f < faces; ++f) {
    const FaceRecord& r = record(f);
    m.face_owner[f] = r.owner;
    m.face_neighbour[f] = r.neighbour;
    m.face_node_offsets[f + 1] = local_faces(soup.cell_types[r.owner])[r.local].size;
  }
  std::size_t total = 0;
  for (index_t f = 0; f < faces; ++f) {
    total += static_cast<std::size_t>(m.face_node_offsets[f + 1]);
    m.face_node_offsets[f + 1] = static_cast<index_t>(total);
  }
  m.face_nodes.resize(checked_index(total, "mesh face nodes"));
  const std::vector<Vec3> cell_average = cell_averages(soup);
#pragma omp parallel for schedule(static)
  for (index_t f = 0; f < faces; ++f)
    write_face_nodes(soup, cell_average, record(f), m.face_nodes.data() + m.face_node_offsets[f]);
  for (std::size_t k = 0; k < glued.size(); ++k)
    m.periodic_faces.push_back({static_cast<index_t>(first_glued + k), glued[k].link});

  std::size_t next = 0;  // `rest` is sorted by patch
  for (index_t p = 0; p < static_cast<index_t>(soup.patch_names.size()); ++p) {
    if (is_periodic_patch(soup.patch_names[p], periodic)) continue;
    Patch patch{soup.patch_names[p], static_cast<index_t>(first_rest + next), 0};
    for (; next < rest.size() && rest[next].patch == p; ++next) ++patch.face_count;
    m.patches.push_back(patch);
  }
  for (const PeriodicRequest& r : periodic) m.periodic_links.push_back({r.patch_a, r.patch_b, r.translation});
  return m;
}

}  // namespace miniapp::mesh::detail
