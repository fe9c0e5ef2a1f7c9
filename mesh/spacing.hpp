#pragma once
#include <string>
#include <vector>

#include "core/types.hpp"

namespace miniapp::mesh {

// Node coordinates x_0 .. x_n of [x0, x0 + length] cut into n cells, clustered towards both ends:
//   x_i = x0 + length · (1 + tanh(β ξ_i) / tanh(β)) / 2,   ξ_i = 2 i / n − 1,
// so the spacing at the ends is about cosh⁻²(β) times that in the middle (β = 2: 0.07).
// β = 0 gives uniform spacing (the limit of the formula). Ends are exact.
std::vector<double> stretched_coordinates(index_t n, double x0, double length, double beta);

// Throws miniapp::Error naming `where` unless n >= 1, x0 finite, length > 0 and finite, and β >= 0 and
// finite.
void check_axis(index_t n, double x0, double length, double beta, const std::string& where);

}  // namespace miniapp::mesh
