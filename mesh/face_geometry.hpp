#pragma once
#include <cmath>

#include "core/types.hpp"
#include "core/vec3.hpp"

namespace miniapp::mesh {

// A polygon face x_0 .. x_{n-1} (possibly warped) is measured by the triangle fan about its average
// point p: triangles (p, x_i, x_{i+1}), area vectors S_i = ½ (x_i − p) × (x_{i+1} − p).
struct FaceShape {
  Vec3 area;      // Σ S_i, right-hand rule in node order
  Vec3 average;   // p
  Vec3 centroid;  // Σ |S_i| c_i / Σ |S_i|, c_i the triangle centroids (only from face_shape)
};

// Area vector and average point of the face whose node indices are ids[0 .. n) into `nodes`.
template <class Nodes>
FaceShape face_area(const Nodes& nodes, const index_t* ids, int n) {
  FaceShape s;
  for (int i = 0; i < n; ++i) s.average += nodes[ids[i]];
  s.average *= 1.0 / n;
  Vec3 a = nodes[ids[n - 1]] - s.average;
  for (int i = 0; i < n; ++i) {
    const Vec3 b = nodes[ids[i]] - s.average;
    s.area += 0.5 * cross(a, b);
    a = b;
  }
  return s;
}

// face_area plus the area-weighted centroid.
template <class Nodes>
FaceShape face_shape(const Nodes& nodes, const index_t* ids, int n) {
  FaceShape s = face_area(nodes, ids, n);
  double weight = 0;
  Vec3 a = nodes[ids[n - 1]] - s.average;
  for (int i = 0; i < n; ++i) {
    const Vec3 b = nodes[ids[i]] - s.average;
    const double w = norm(cross(a, b));
    s.centroid += w * (a + b);  // triangle centroid relative to p, times 3
    weight += w;
    a = b;
  }
  // A degenerate face (zero area) keeps its average point as centroid.
  s.centroid = weight > 0 ? s.average + s.centroid * (1.0 / (3.0 * weight)) : s.average;
  return s;
}

}  // namespace miniapp::mesh
