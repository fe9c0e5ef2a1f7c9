#include "operators/fv/laplacian.hpp"

#include "operators/fv/divergence.hpp"
#include "operators/fv/face_gradient.hpp"

namespace miniapp::fv {

CsrMatrix laplacian_matrix(const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                           const FlowBoundaries* boundaries) {
  return multiply(divergence_matrix(mesh, geometry), face_gradient_matrix(mesh, geometry, boundaries));
}

}  // namespace miniapp::fv
