#pragma once
// What the lab's analyses of AMG's matrices read (restriction_layout, sell_padding, block_balance): the
// float hierarchy of −L on a generated N³ box (hex, or tet: N³ · 6 cells, unstretched) in the solver's
// row order (rows grouped by length, then the lattice order; or RCM's order).
#include <string>
#include <utility>

#include "operators/sparse/reorder.hpp"
#include "solvers/amg/amg_options.hpp"
#include "solvers/amg/hierarchy.hpp"
#include "tests/solvers/box_poisson.hpp"

namespace miniapp::lab {

inline bool is_box_mesh(const std::string& mesh) { return mesh == "hex" || mesh == "tet"; }

inline amg::HostHierarchy box_float_hierarchy(const std::string& mesh, int n, bool rcm = false) {
  CsrMatrix a = test::box_poisson(mesh, n, 1.0);
  a = permute_symmetric(a, rcm ? row_grouping_rcm(a) : row_grouping(a));
  amg::AmgOptions options;
  options.float_storage = true;
  return amg::build_hierarchy(std::move(a), options);
}

}  // namespace miniapp::lab
