// The partition of a box mesh's cell graph by METIS on every cell against the partition through the
// graph of aggregates (parallel/coarse_partition.hpp): seconds (median of three), faces cut and the
// heaviest part over the mean, for each. docs/multi-rank.md cites its output.
// Usage: partition_speed hex|tet EDGE PARTS   (tet: 6 cells per box cell)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "mesh/generators.hpp"
#include "parallel/partition.hpp"

using namespace miniapp;
using namespace miniapp::parallel;

namespace {

struct Measured {
  double seconds;
  long long cut;
  double imbalance;
};

Measured measure(const CellGraph& g, int parts, GraphCoarsening coarsening) {
  std::vector<double> seconds;
  std::vector<int> part;
  for (int run = 0; run < 3; ++run) {
    const auto start = std::chrono::steady_clock::now();
    part = partition_graph(g, parts, nullptr, coarsening);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  const std::vector<long long> size = part_weights(part, parts);
  const double mean = double(g.cell_count()) / parts;
  return {seconds[1], cut_edges(g, part), double(*std::max_element(size.begin(), size.end())) / mean};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || (std::string(argv[1]) != "hex" && std::string(argv[1]) != "tet")) {
    std::fprintf(stderr, "usage: partition_speed hex|tet EDGE PARTS\n");
    return 2;
  }
  const std::string kind = argv[1];
  const auto edge = static_cast<index_t>(std::stoi(argv[2]));
  const int parts = std::stoi(argv[3]);
  mesh::BoxSpec spec;
  spec.cells = {edge, edge, edge};
  const CellGraph g = cell_graph(kind == "hex" ? mesh::make_hex_box(spec) : mesh::make_tet_box(spec));
  const Measured direct = measure(g, parts, GraphCoarsening::never);
  const Measured coarse = measure(g, parts, GraphCoarsening::always);
  std::printf("%s %d³, %d cells, %d parts: METIS on the cells %.2f s, cut %lld, imbalance %.4f; "
              "through aggregates %.2f s (%.1f× faster), cut %lld (%+.1f %%), imbalance %.4f\n",
              kind.c_str(), edge, g.cell_count(), parts, direct.seconds, direct.cut, direct.imbalance, coarse.seconds,
              direct.seconds / coarse.seconds, coarse.cut, 100.0 * (double(coarse.cut) / direct.cut - 1), coarse.imbalance);
}
