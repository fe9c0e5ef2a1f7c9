#include "miniapp/bench/slab_operator.hpp"

#include <cmath>

namespace miniapp::bench {
namespace {

struct Grid {
  index_t n = 0, nz = 0;  // per rank: n × n × nz
  int rank = 0, ranks = 1;
  index_t global(index_t x, index_t y, index_t z_global) const { return x + n * (y + n * z_global); }
};

// The planes of the rank in local order: inner, interface, then the halo planes (lower rank first).
struct PlaneOrder {
  std::vector<index_t> planes;  // global z of each local plane
  index_t inner = 0, interface = 0, halo = 0;
  std::vector<int> halo_owner;  // per halo plane
};

PlaneOrder plane_order(const Grid& g) {
  PlaneOrder o;
  const index_t first = g.rank * g.nz, last = first + g.nz - 1;
  const bool below = g.rank > 0, above = g.rank + 1 < g.ranks;
  for (index_t z = first; z <= last; ++z)
    if (!((z == first && below) || (z == last && above))) o.planes.push_back(z);
  o.inner = static_cast<index_t>(o.planes.size());
  if (below) o.planes.push_back(first);
  if (above && last != first) o.planes.push_back(last);
  o.interface = static_cast<index_t>(o.planes.size()) - o.inner;
  if (below) o.planes.push_back(first - 1), o.halo_owner.push_back(g.rank - 1);
  if (above) o.planes.push_back(last + 1), o.halo_owner.push_back(g.rank + 1);
  o.halo = static_cast<index_t>(o.halo_owner.size());
  return o;
}

}  // namespace

SlabOperator slab_laplacian(long long cells_per_rank, int rank, int ranks) {
  Grid g;
  g.n = std::max<index_t>(2, static_cast<index_t>(std::cbrt(static_cast<double>(cells_per_rank))));
  g.nz = std::max<index_t>(2, static_cast<index_t>(cells_per_rank / (static_cast<long long>(g.n) * g.n)));
  g.rank = rank;
  g.ranks = ranks;
  const PlaneOrder o = plane_order(g);
  const index_t plane = g.n * g.n;
  SlabOperator s;
  auto& num = s.numbering;
  num.rank = rank;
  num.inner_count = o.inner * plane;
  num.interface_count = o.interface * plane;
  num.halo_count = o.halo * plane;
  for (index_t z : o.planes)
    for (index_t y = 0; y < g.n; ++y)
      for (index_t x = 0; x < g.n; ++x) num.local_to_global.push_back(g.global(x, y, z));
  for (int owner : o.halo_owner) num.halo_owner.insert(num.halo_owner.end(), static_cast<std::size_t>(plane), owner);
  num.global_to_local.reserve(num.local_to_global.size());
  for (index_t l = 0; l < num.local_count(); ++l) num.global_to_local.emplace(num.local_to_global[l], l);

  const index_t z_max = g.nz * ranks;
  std::vector<Triplet> t;
  t.reserve(static_cast<std::size_t>(num.owned_count()) * 7);
  for (index_t l = 0; l < num.owned_count(); ++l) {
    const index_t gl = num.local_to_global[l];
    const index_t x = gl % g.n, y = (gl / g.n) % g.n, z = gl / plane;
    t.push_back({l, l, 6.0});  // Dirichlet walls: neighbours outside the grid count as zero
    const auto couple = [&](index_t xx, index_t yy, index_t zz) {
      if (xx < 0 || yy < 0 || zz < 0 || xx >= g.n || yy >= g.n || zz >= z_max) return;
      t.push_back({l, num.to_local(g.global(xx, yy, zz)), -1.0});
    };
    couple(x - 1, y, z), couple(x + 1, y, z), couple(x, y - 1, z), couple(x, y + 1, z);
    couple(x, y, z - 1), couple(x, y, z + 1);
  }
  s.matrix = csr_from_triplets(num.local_count(), num.local_count(), std::move(t));
  return s;
}

}  // namespace miniapp::bench
