#include <algorithm>
#include <cstdio>

#include "mesh/builder_detail.hpp"
#include "mesh/face_geometry.hpp"

namespace miniapp::mesh::detail {

namespace {

// Faces are matched by their node averages, sorted by projection on a generic direction: distinct
// points of a plane rarely share a projection, so each search window holds about one face.
const Vec3 sweep_raw{1.0, 0.7548776662466927, 0.5698402909980532};
const Vec3 sweep = sweep_raw * (1.0 / norm(sweep_raw));

// Matching tolerance, relative to the face's thickness (area / longest edge): the nearest other face
// average is about that far away, while coordinates written with 6 or more digits agree far closer.
constexpr double relative_tolerance = 1e-3;

struct Probe {
  double key;
  Vec3 x;
  double tol;
  index_t record;
  int nodes;
};

Probe make_probe(const CellSoup& soup, const std::vector<FaceRecord>& boundary, index_t rec, const Vec3& shift) {
  FaceNodes ids{};
  const int n = cell_face_nodes(soup, boundary[rec].owner, boundary[rec].local, ids);
  const FaceShape s = face_area(soup.nodes, ids.data(), n);
  double longest = 0;
  for (int i = 0; i < n; ++i) longest = std::max(longest, norm(soup.nodes[ids[(i + 1) % n]] - soup.nodes[ids[i]]));
  const double thickness = longest > 0 ? norm(s.area) / longest : 0;
  const Vec3 x = s.average + shift;
  return {dot(x, sweep), x, relative_tolerance * thickness, rec, n};
}

std::string vec_text(const Vec3& v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.9g %.9g %.9g)", v.x, v.y, v.z);
  return buf;
}

std::string link_text(const PeriodicRequest& r) { return "periodic link '" + r.patch_a + "' -> '" + r.patch_b + "'"; }

index_t patch_index(const CellSoup& soup, const std::string& patch, const PeriodicRequest& r,
                    const std::string& source) {
  const auto it = std::find(soup.patch_names.begin(), soup.patch_names.end(), patch);
  if (it != soup.patch_names.end()) return static_cast<index_t>(it - soup.patch_names.begin());
  std::string known;
  for (const std::string& n : soup.patch_names) known += (known.empty() ? "" : ", ") + n;
  throw Error(source + ": " + link_text(r) + ": no patch named '" + patch + "' (patches: " + known + ")");
}

// The b-face probe nearest to `p` within p's tolerance and with as many nodes, or -1.
index_t find_partner(const std::vector<Probe>& b, const Probe& p) {
  auto it = std::lower_bound(b.begin(), b.end(), p.key - p.tol, [](const Probe& q, double k) { return q.key < k; });
  index_t best = -1;
  double best_distance = p.tol;
  for (; it != b.end() && it->key <= p.key + p.tol; ++it) {
    const double d = norm(it->x - p.x);
    if (d <= best_distance && it->nodes == p.nodes) {
      best_distance = d;
      best = static_cast<index_t>(it - b.begin());
    }
  }
  return best;
}

void match_link(const CellSoup& soup, std::vector<FaceRecord>& boundary, const PeriodicRequest& r, index_t link,
                const std::string& source) {
  const index_t pa = patch_index(soup, r.patch_a, r, source), pb = patch_index(soup, r.patch_b, r, source);
  std::vector<Probe> a, b;
  for (index_t i = 0; i < static_cast<index_t>(boundary.size()); ++i) {
    if (boundary[i].patch == pa) a.push_back(make_probe(soup, boundary, i, r.translation));
    if (boundary[i].patch == pb) b.push_back(make_probe(soup, boundary, i, {}));
  }
  if (a.size() != b.size())
    throw Error(source + ": " + link_text(r) + ": patch '" + r.patch_a + "' has " + std::to_string(a.size()) +
                " faces and patch '" + r.patch_b + "' has " + std::to_string(b.size()));
  std::sort(b.begin(), b.end(), [](const Probe& x, const Probe& y) { return x.key < y.key; });
  std::vector<char> taken(b.size(), 0);
  std::size_t unmatched = 0;
  Vec3 first;
  for (const Probe& p : a) {
    const index_t j = find_partner(b, p);
    if (j < 0 || taken[j]) {
      if (unmatched++ == 0) first = p.x - r.translation;
      continue;
    }
    taken[j] = 1;
    boundary[p.record].neighbour = boundary[b[j].record].owner;
    boundary[p.record].link = link;
    boundary[b[j].record].patch = -1;
  }
  if (unmatched > 0)
    throw Error(source + ": " + link_text(r) + ": " + std::to_string(unmatched) + " of " + std::to_string(a.size()) +
                " faces of patch '" + r.patch_a + "' have no partner in '" + r.patch_b + "' under translation " +
                vec_text(r.translation) + "; the first is centred at " + vec_text(first));
}

}  // namespace

void match_periodic(const CellSoup& soup, std::vector<FaceRecord>& boundary,
                    const std::vector<PeriodicRequest>& requests, const std::string& source) {
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const PeriodicRequest& r = requests[i];
    if (r.patch_a == r.patch_b) throw Error(source + ": " + link_text(r) + " glues a patch to itself");
    for (std::size_t j = 0; j < i; ++j)
      for (const std::string& p : {r.patch_a, r.patch_b})
        if (p == requests[j].patch_a || p == requests[j].patch_b)
          throw Error(source + ": patch '" + p + "' is in two periodic links (" + link_text(requests[j]) + " and " +
                      link_text(r) + ")");
    match_link(soup, boundary, r, static_cast<index_t>(i), source);
  }
}

}  // namespace miniapp::mesh::detail
