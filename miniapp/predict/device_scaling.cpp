#include "miniapp/predict/device_scaling.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "parallel/partition.hpp"

namespace miniapp::predict {
namespace {

constexpr int copy_kind = static_cast<int>(KernelKind::copy);
constexpr int spmv_kind = static_cast<int>(KernelKind::spmv);

struct Totals {
  RankShape shape;     // Σ over ranks
  CommLoad iteration;  // Σ over ranks
  PhaseComm fixed{};
};

Totals totals(const std::vector<RankProfile>& counted) {
  Totals t;
  for (const RankProfile& r : counted) {
    t.shape.local += r.shape.local, t.shape.inner += r.shape.inner, t.shape.halo += r.shape.halo;
    t.shape.working_set += r.shape.working_set;
    t.iteration += r.counts.comm_per_iteration;
    for (int p = 0; p < time::phase_count; ++p) t.fixed[p] += r.counts.comm_fixed[p];
  }
  return t;
}

// Σ over ranks of one phase load (by kind, or its SpMVs by form); `pick` selects it from a profile's
// counts.
template <class Pick>
auto sum_loads(const std::vector<RankProfile>& counted, Pick pick) {
  std::remove_cvref_t<decltype(pick(counted.front().counts))> sum{};
  for (const RankProfile& r : counted)
    for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += pick(r.counts)[k];
  return sum;
}

// The rank's kernel load: mean calls, bytes and flops per cell computed on × its cells. With one
// part, the calls and bytes the halo updates and the overlapped SpMV add are taken out first.
PhaseLoad scaled_load(PhaseLoad sum, const CommLoad& comm_sum, double ranks, double cells_sum, double cells,
                      bool single) {
  if (single) {
    sum[copy_kind].calls -= 2 * comm_sum.vectors;  // a gather and a scatter per vector and update
    sum[copy_kind].bytes -= 20.0 / 8.0 * (comm_sum.sent_bytes + comm_sum.received_bytes);  // gather.cpp: 20 B/entry
    sum[spmv_kind].calls -= comm_sum.overlapped_updates;  // inner + interface rows: one SpMV on one rank
  }
  for (KindLoad& k : sum) {
    k.calls = std::max(k.calls, 0.0) / ranks;
    k.bytes = std::max(k.bytes, 0.0) / cells_sum * cells;
    k.flops = k.flops / cells_sum * cells;
  }
  return sum;
}

// The rank's communication: structure per rank as counted, sizes of the partition part.
CommLoad scaled_comm(const CommLoad& sum, const Totals& t, double ranks, const PartitionShape& q) {
  if (q.parts == 1) return {};
  CommLoad c = sum.scaled(1.0 / ranks);
  c.messages = c.vectors * q.neighbours;
  c.sent_bytes = t.shape.halo > 0 ? sum.sent_bytes / t.shape.halo * q.halo : 0;
  c.received_bytes = t.shape.halo > 0 ? sum.received_bytes / t.shape.halo * q.halo : 0;
  c.overlapped_bytes = t.shape.inner > 0 ? sum.overlapped_bytes / t.shape.inner * q.inner : 0;
  c.seconds = 0;
  return c;
}

// The largest part's sizes of `part`.
PartitionShape shape_of(const parallel::CellGraph& graph, const std::vector<int>& part, int parts) {
  std::vector<double> owned(parts), inner(parts), halo(parts);
  std::vector<std::pair<int, index_t>> halo_cells;  // (part, foreign cell next to it), with repeats
  std::vector<std::vector<char>> adjacent(parts, std::vector<char>(parts, 0));
  for (index_t c = 0; c < graph.cell_count(); ++c) {
    const int p = part[c];
    owned[p] += 1;
    bool interface = false;
    for (const index_t d : graph.neighbours_of(c)) {
      const int q = part[d];
      if (q == p) continue;
      interface = true;
      adjacent[p][q] = 1;
      halo_cells.emplace_back(p, d);
    }
    if (!interface) inner[p] += 1;
  }
  std::sort(halo_cells.begin(), halo_cells.end());
  halo_cells.erase(std::unique(halo_cells.begin(), halo_cells.end()), halo_cells.end());
  for (const auto& [p, cell] : halo_cells) halo[p] += 1;
  PartitionShape s;
  s.parts = parts;
  for (int p = 0; p < parts; ++p) {
    double n = 0;
    for (int q = 0; q < parts; ++q) n += adjacent[p][q];
    s.local = std::max(s.local, owned[p] + halo[p]);
    s.inner = std::max(s.inner, inner[p]);
    s.halo = std::max(s.halo, halo[p]);
    s.neighbours = std::max(s.neighbours, n);
  }
  return s;
}

}  // namespace

std::vector<PartitionShape> partition_shapes(const mesh::Mesh& whole, int max_parts) {
  const parallel::CellGraph graph = parallel::cell_graph(whole);
  std::vector<PartitionShape> shapes;
  for (int parts = 1; parts <= max_parts && parts <= graph.cell_count(); ++parts)
    shapes.push_back(shape_of(graph, parallel::partition_graph(graph, parts), parts));
  return shapes;
}

RankProfile strong_rank(const std::vector<RankProfile>& counted, const PartitionShape& q, double single_rank_host_reads) {
  const Totals t = totals(counted);
  const double ranks = static_cast<double>(counted.size());
  const bool single = q.parts == 1;
  RankProfile r;
  StepCounts& c = r.counts;
  const StepCounts& first = counted.front().counts;
  c.iterations = first.iterations;
  c.launched_per_iteration = first.launched_per_iteration;
  c.iteration_spread = first.iteration_spread;
  for (IterationShare& size : c.iteration_spread) size.rows *= q.local * ranks / t.shape.local;  // as the bytes
  // Graph curves only where every counted rank replayed its Poisson iterations as graphs.
  c.iteration_graphs = std::all_of(counted.begin(), counted.end(),
                                   [](const RankProfile& p) { return p.counts.iteration_graphs; });
  c.iteration_unit = first.iteration_unit;
  c.fixed_host_reads = first.fixed_host_reads;
  for (int p = 0; p < time::phase_count; ++p)
    c.fixed_graphs[p] = std::all_of(counted.begin(), counted.end(),
                                    [p](const RankProfile& r) { return r.counts.fixed_graphs[p]; });
  c.iteration_host_reads = single ? single_rank_host_reads : first.iteration_host_reads;
  c.per_iteration = scaled_load(sum_loads(counted, [](const StepCounts& s) -> const PhaseLoad& { return s.per_iteration; }), t.iteration,
                                ranks, t.shape.local, q.local, single);
  c.comm_per_iteration = scaled_comm(t.iteration, t, ranks, q);
  // The SpMVs by form price a phase's SpMV load by their shares: not scaled to a part.
  c.per_iteration_spmv = sum_loads(counted, [](const StepCounts& s) -> const SpmvForms& { return s.per_iteration_spmv; });
  for (int p = 0; p < time::phase_count; ++p) {
    c.fixed[p] = scaled_load(sum_loads(counted, [p](const StepCounts& s) -> const PhaseLoad& { return s.fixed[p]; }), t.fixed[p], ranks,
                             t.shape.local, q.local, single);
    c.comm_fixed[p] = scaled_comm(t.fixed[p], t, ranks, q);
    c.fixed_spmv[p] = sum_loads(counted, [p](const StepCounts& s) -> const SpmvForms& { return s.fixed_spmv[p]; });
  }
  r.shape = {q.local, q.local - q.halo, q.inner, q.halo, t.shape.working_set / t.shape.local * q.local};
  return r;
}

RankProfile weak_rank(const RankProfile& one_device, const RankProfile& strong, int parts, int dimensions) {
  RankProfile r = one_device;
  // The calls of a rank among several (halo gathers and scatters, split SpMV), the bytes of one device.
  for (int k = 0; k < kernel_kind_count; ++k) {
    r.counts.per_iteration[k].calls = strong.counts.per_iteration[k].calls;
    for (int p = 0; p < time::phase_count; ++p) r.counts.fixed[p][k].calls = strong.counts.fixed[p][k].calls;
  }
  const double surface = std::pow(static_cast<double>(parts), (dimensions - 1.0) / dimensions);
  const double inner_ratio = strong.shape.inner > 0 ? one_device.shape.local / strong.shape.inner : 0;
  const auto grow = [&](const CommLoad& c) {
    CommLoad w = c;
    w.sent_bytes *= surface, w.received_bytes *= surface;
    w.overlapped_bytes *= inner_ratio;  // the inner rows of a part as large as the whole case
    return w;
  };
  r.counts.comm_per_iteration = grow(strong.counts.comm_per_iteration);
  for (int p = 0; p < time::phase_count; ++p) r.counts.comm_fixed[p] = grow(strong.counts.comm_fixed[p]);
  r.counts.iteration_host_reads = strong.counts.iteration_host_reads;
  r.shape.halo = strong.shape.halo * surface;
  return r;
}

}  // namespace miniapp::predict
