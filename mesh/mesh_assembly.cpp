#include <algorithm>
#include <set>

#include "mesh/builder_detail.hpp"
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
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] < 0 || static_cast<std::size_t>(ids[i]) >= nodes)
      throw Error(source + ": " + what + " entry " + std::to_string(i) + " names node " + std::to_string(ids[i]) +
                  ", outside 0.." + std::to_string(nodes - 1));
}

}  // namespace

void validate_soup(const CellSoup& s, const std::string& source) {
  checked_index(s.nodes.size(), source + ": nodes");
  check_offsets(s.cell_node_offsets, s.cell_types.size(), s.cell_nodes.size(), "cell node", source);
  for (std::size_t c = 0; c < s.cell_types.size(); ++c)
    if (s.cell_node_offsets[c + 1] - s.cell_node_offsets[c] != node_count(s.cell_types[c]))
      throw Error(source + ": cell " + std::to_string(c) + " is a " + std::string(name(s.cell_types[c])) + " with " +
                  std::to_string(s.cell_node_offsets[c + 1] - s.cell_node_offsets[c]) + " nodes");
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

// Appends faces to a mesh, each with its owner's local face nodes turned so the area vector points
// away from the owner's node average (robust against cells given in mirrored node order).
class FaceWriter {
 public:
  FaceWriter(const CellSoup& soup, Mesh& mesh) : soup_(soup), mesh_(mesh), cell_average_(soup.cell_types.size()) {
    for (std::size_t c = 0; c < cell_average_.size(); ++c) {
      const index_t begin = soup.cell_node_offsets[c], end = soup.cell_node_offsets[c + 1];
      for (index_t i = begin; i < end; ++i) cell_average_[c] += soup.nodes[soup.cell_nodes[i]];
      cell_average_[c] *= 1.0 / (end - begin);
    }
  }

  index_t add(const FaceRecord& r) {
    FaceNodes ids{};
    const int n = cell_face_nodes(soup_, r.owner, r.local, ids);
    const FaceShape s = face_area(soup_.nodes, ids.data(), n);
    if (dot(s.area, s.average - cell_average_[r.owner]) < 0) std::reverse(ids.begin() + 1, ids.begin() + n);
    mesh_.face_nodes.insert(mesh_.face_nodes.end(), ids.begin(), ids.begin() + n);
    mesh_.face_node_offsets.push_back(checked_index(mesh_.face_nodes.size(), "mesh face nodes"));
    mesh_.face_owner.push_back(r.owner);
    mesh_.face_neighbour.push_back(r.neighbour);
    return static_cast<index_t>(mesh_.face_owner.size()) - 1;
  }

 private:
  const CellSoup& soup_;
  Mesh& mesh_;
  std::vector<Vec3> cell_average_;
};

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

  const std::size_t faces = interior.size() + glued.size() + rest.size();
  m.interior_face_count = checked_index(interior.size() + glued.size(), "interior faces");
  m.face_node_offsets.reserve(faces + 1);
  m.face_nodes.reserve(4 * faces);
  m.face_owner.reserve(faces);
  m.face_neighbour.reserve(faces);
  FaceWriter writer(soup, m);
  for (const FaceRecord& r : interior) writer.add(r);
  for (const FaceRecord& r : glued) m.periodic_faces.push_back({writer.add(r), r.link});

  std::size_t next = 0;  // `rest` is sorted by patch
  for (index_t p = 0; p < static_cast<index_t>(soup.patch_names.size()); ++p) {
    if (is_periodic_patch(soup.patch_names[p], periodic)) continue;
    Patch patch{soup.patch_names[p], m.face_count(), 0};
    for (; next < rest.size() && rest[next].patch == p; ++next) writer.add(rest[next]);
    patch.face_count = m.face_count() - patch.first_face;
    m.patches.push_back(patch);
  }
  for (const PeriodicRequest& r : periodic) m.periodic_links.push_back({r.patch_a, r.patch_b, r.translation});
  return m;
}

}  // namespace miniapp::mesh::detail
