#pragma once
#include <iosfwd>

#include "mesh/geometry.hpp"
#include "mesh/mesh.hpp"

namespace miniapp::mesh {

// A cell counts as open when |Σ A n| exceeds this fraction of its total face area: round-off on a
// closed cell stays near 1e-16.
inline constexpr double open_cell_threshold = 1e-10;

// Summary statistics printed by `miniapp mesh`.
struct MeshReport {
  std::array<index_t, 4> cells_by_type{};  // indexed by CellType
  index_t faces = 0, interior_faces = 0, boundary_faces = 0, periodic_faces = 0;
  double total_volume = 0, min_cell_volume = 0, max_cell_volume = 0;
  double max_non_orthogonality_deg = 0;  // angle between face normal and owner→neighbour vector
  double max_closure_error = 0;          // max over cells of |Σ A n| / (Σ A)
  index_t open_cells = 0;                // cells whose closure error exceeds open_cell_threshold
};

MeshReport make_report(const Mesh& mesh, const MeshGeometry& geometry);
void print_report(std::ostream& out, const Mesh& mesh, const MeshReport& report);

}  // namespace miniapp::mesh
