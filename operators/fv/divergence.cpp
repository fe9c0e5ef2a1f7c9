#include "operators/fv/divergence.hpp"

#include <vector>

namespace miniapp::fv {

CsrMatrix divergence_matrix(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry) {
  std::vector<Triplet> triplets;
  triplets.reserve(2 * static_cast<std::size_t>(mesh.face_count()));
  for (index_t f = 0; f < mesh.face_count(); ++f) {
    const double area = geometry.face_area[f];
    triplets.push_back({mesh.face_owner[f], f, area});
    if (!mesh.is_boundary(f)) triplets.push_back({mesh.face_neighbour[f], f, -area});
  }
  return csr_from_triplets(mesh.cell_count(), mesh.face_count(), std::move(triplets));
}

}  // namespace miniapp::fv
