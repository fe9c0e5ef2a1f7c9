#pragma once
// Centreline velocity profiles of the 2D lid-driven cavity on [0, 1]² (lid at y = 1 moving at +1 in
// x), from the cell-centred solution, and Ghia, Ghia & Shin (1982)'s table to compare them with.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "miniapp/run/simulation.hpp"

namespace miniapp::run::test {

struct ReferencePoint {
  double coord, value;
};

// The points of Ghia et al.'s profile `line` ("u_at_x0.5" or "v_at_y0.5") at Reynolds number `re`,
// from the CSV (re,line,coord,value; '#' comments), without the wall end points.
inline std::vector<ReferencePoint> ghia_profile(const std::string& path, int re, const std::string& line) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open Ghia et al.'s reference table");
  std::vector<ReferencePoint> points;
  std::string row;
  while (std::getline(in, row)) {
    if (row.empty() || row[0] == '#' || row.rfind("re,", 0) == 0) continue;
    std::istringstream fields(row);
    std::string r, name, coord, value;
    std::getline(fields, r, ',');
    std::getline(fields, name, ',');
    std::getline(fields, coord, ',');
    std::getline(fields, value, ',');
    const double s = std::stod(coord);
    if (std::stoi(r) == re && name == line && s > 0 && s < 1) points.push_back({s, std::stod(value)});
  }
  if (points.empty()) throw Error(path + ": no points for Re " + std::to_string(re) + ", " + line);
  return points;
}

// A velocity component along the centreline {x_across = 0.5} of a structured slab of hexahedra:
// cells are grouped by their centroid coordinate along the line; in each group the two cells whose
// centroids bracket 0.5 across the line are interpolated linearly (with an even cell count, the mean of
// the two columns either side). Sorted along the line, with the wall values at 0 and 1 added.
class Centreline {
 public:
  Centreline(const Simulation& sim, int component, int across, int along, double wall_value_at_1) {
    const auto value = to_mesh_order(sim, sim.fields->u[component]);
    std::map<long long, std::vector<std::pair<double, double>>> rows;  // along (rounded) → (across, value)
    const auto& centroid = sim.geometry.cell_centroid;
    for (std::size_t c = 0; c < centroid.size(); ++c) {
      const double a[3] = {centroid[c].x, centroid[c].y, centroid[c].z};
      rows[std::llround(a[along] * 1e9)].push_back({a[across], value[c]});
    }
    points_.push_back({0.0, 0.0});
    for (auto& [key, cells] : rows) points_.push_back({key * 1e-9, at_half(cells)});
    points_.push_back({1.0, wall_value_at_1});
  }

  // Linear interpolation at s in [0, 1].
  double operator()(double s) const {
    const auto hi = std::lower_bound(points_.begin(), points_.end(), s,
                                     [](const ReferencePoint& p, double x) { return p.coord < x; });
    if (hi == points_.begin()) return hi->value;
    const auto lo = hi - 1;
    return lo->value + (hi->value - lo->value) * (s - lo->coord) / (hi->coord - lo->coord);
  }

  // max over `reference` of |profile − reference|.
  double max_deviation(const std::vector<ReferencePoint>& reference) const {
    double worst = 0;
    for (const auto& p : reference) worst = std::max(worst, std::abs((*this)(p.coord) - p.value));
    return worst;
  }

 private:
  static double at_half(std::vector<std::pair<double, double>>& cells) {
    std::sort(cells.begin(), cells.end());
    const auto hi = std::lower_bound(cells.begin(), cells.end(), std::pair{0.5, -HUGE_VAL});
    if (hi == cells.begin() || hi == cells.end()) throw Error("centreline: no cells either side of 0.5");
    const auto lo = hi - 1;
    return lo->second + (hi->second - lo->second) * (0.5 - lo->first) / (hi->first - lo->first);
  }

  std::vector<ReferencePoint> points_;
};

}  // namespace miniapp::run::test
