#include <vector>

#include "operators/fv/face_gradient.hpp"
#include "operators/fv/flow_assembly.hpp"

namespace miniapp::fv::detail {
namespace {

// ½, ½ on interior faces; 1 at the owner of the boundary faces where include(face).
template <class Include>
CsrMatrix face_average(const mesh::Mesh& mesh, Include include) {
  std::vector<Triplet> triplets;
  triplets.reserve(2 * static_cast<std::size_t>(mesh.face_count()));
  for (index_t f = 0; f < mesh.interior_face_count; ++f) {
    triplets.push_back({f, mesh.face_owner[f], 0.5});
    triplets.push_back({f, mesh.face_neighbour[f], 0.5});
  }
  for (index_t f = mesh.interior_face_count; f < mesh.face_count(); ++f)
    if (include(f)) triplets.push_back({f, mesh.face_owner[f], 1.0});
  return csr_from_triplets(mesh.face_count(), mesh.cell_count(), std::move(triplets));
}

}  // namespace

CsrMatrix face_interpolation_matrix(const mesh::Mesh& mesh) {
  return face_average(mesh, [](index_t) { return true; });
}

CsrMatrix convective_interpolation_matrix(const mesh::Mesh& mesh, const FlowBoundaries& boundaries) {
  boundaries.require_matches(mesh);
  return face_average(mesh, [&](index_t f) { return !fixes_velocity(boundaries.of_face(mesh, f).kind); });
}

CsrMatrix viscous_rate_matrix(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                              const FlowBoundaries& boundaries) {
  boundaries.require_matches(mesh);
  std::vector<Triplet> triplets;
  triplets.reserve(2 * static_cast<std::size_t>(mesh.face_count()));
  for (index_t f = 0; f < mesh.face_count(); ++f) {
    const bool interior = !mesh.is_boundary(f);
    if (!interior && !fixes_velocity(boundaries.of_face(mesh, f).kind)) continue;
    const double rate = geometry.face_area[f] * inverse_normal_distance(mesh, geometry, f);
    triplets.push_back({mesh.face_owner[f], f, rate});
    if (interior) triplets.push_back({mesh.face_neighbour[f], f, rate});
  }
  return csr_from_triplets(mesh.cell_count(), mesh.face_count(), std::move(triplets));
}

CsrMatrix neighbour_pattern(const mesh::Mesh& mesh) {
  std::vector<Triplet> triplets;
  triplets.reserve(static_cast<std::size_t>(mesh.cell_count()) + 2 * static_cast<std::size_t>(mesh.interior_face_count));
  for (index_t c = 0; c < mesh.cell_count(); ++c) triplets.push_back({c, c, 0.0});
  for (index_t f = 0; f < mesh.interior_face_count; ++f) {
    triplets.push_back({mesh.face_owner[f], mesh.face_neighbour[f], 0.0});
    triplets.push_back({mesh.face_neighbour[f], mesh.face_owner[f], 0.0});
  }
  return csr_from_triplets(mesh.cell_count(), mesh.cell_count(), std::move(triplets));
}

}  // namespace miniapp::fv::detail
