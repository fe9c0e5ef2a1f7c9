#pragma once
#include <vector>

#include "mesh/mesh.hpp"
#include "miniapp/predict/rank_profile.hpp"

// Time per step against the device count (thesis §2.5: strong and weak scaling), from the loads
// counted on P ranks and the shape of the case's METIS partition on each device count.
namespace miniapp::predict {

// The largest part of a METIS partition into `parts` (over all parts: cells computed on, owned + halo;
// inner cells; halo cells; neighbour parts), as the time loop's ranks would hold it.
struct PartitionShape {
  int parts = 1;
  double local = 0, inner = 0, halo = 0, neighbours = 0;
};

// Partitions the whole mesh into 1..max_parts (parallel::partition_graph: the run's METIS call) and
// measures each partition's largest part.
std::vector<PartitionShape> partition_shapes(const mesh::Mesh& whole, int max_parts);

// The loads of the largest rank of `q` (strong scaling: the case's mesh split over q.parts devices),
// from the per-rank loads counted on `counted` (≥ 2 ranks): calls and communication structure (halo
// updates, vectors per update, reductions: the code's) as counted; kernel bytes scaled by the cells a
// rank computes on, halo bytes by its halo cells, the overlapped kernels' by its inner cells, messages
// by its neighbours. With one part: no communication, and the calls the halos add on several ranks
// (gather and scatter per vector of an update, the split of the overlapped SpMV) taken out;
// `single_rank_host_reads` replaces the Poisson iterations' host reads (the fused PCG's).
RankProfile strong_rank(const std::vector<RankProfile>& counted, const PartitionShape& q, double single_rank_host_reads);

// The same rank when each of q.parts devices holds as many cells as the whole case (weak scaling):
// kernels as on one device, halo bytes of the strong partition × parts^((d − 1) / d) (a part of a
// d-dimensional mesh q times larger has q^((d − 1) / d) times its surface). Poisson iterations kept:
// in reality they grow with the mesh.
RankProfile weak_rank(const RankProfile& one_device, const RankProfile& strong, int parts, int dimensions);

}  // namespace miniapp::predict
