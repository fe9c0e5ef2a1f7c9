// The 2D (line) numbering of a rank of a P × 1 partition and the communication of the frequency solves.
#include "solvers/fft/plane_partition.hpp"

#include <algorithm>
#include <string>

namespace miniapp::fft {

namespace {

enum class Kind { inner = 0, interface = 1, halo = 2 };

Kind kind_of(const parallel::LocalNumbering& cells, index_t local) {
  return local < cells.inner_count ? Kind::inner : local < cells.owned_count() ? Kind::interface : Kind::halo;
}

int owner_of(const parallel::LocalNumbering& cells, index_t local) {
  return local < cells.owned_count() ? cells.rank : cells.halo_owner[local - cells.owned_count()];
}

Error split_line(index_t line, const std::string& why) {
  return Error("FFT Poisson on several ranks: 2D cell (periodic line) " + std::to_string(line) + " " + why +
               "; the FFT path needs the mesh partitioned by whole lines (parallel::partition_lines)");
}

}  // namespace

parallel::LocalNumbering plane_numbering(const Extrusion& local, const parallel::LocalNumbering& cells) {
  if (local.cell_3d.size() != static_cast<std::size_t>(cells.local_count()))
    throw Error("FFT Poisson on several ranks: the extrusion has " + std::to_string(local.cell_3d.size()) +
                " cells, the rank holds " + std::to_string(cells.local_count()));
  parallel::LocalNumbering n;
  n.rank = cells.rank;
  Kind previous = Kind::inner;
  for (index_t line = 0; line < local.plane_cells; ++line) {
    const index_t bottom = local.at(line, 0);
    const Kind kind = kind_of(cells, bottom);
    const int owner = owner_of(cells, bottom);
    index_t global = cells.local_to_global[bottom];
    for (index_t k = 1; k < local.planes; ++k) {
      const index_t cell = local.at(line, k);
      if (owner_of(cells, cell) != owner)
        throw split_line(line, "is split between ranks " + std::to_string(owner) + " and " +
                                   std::to_string(owner_of(cells, cell)));
      if (kind_of(cells, cell) != kind)
        throw split_line(line, "is split: some of its cells border another rank's cells, others do not");
      global = std::min(global, cells.local_to_global[cell]);
    }
    if (kind < previous) throw split_line(line, "breaks the owned-then-halo order of the rank's lines");
    previous = kind;
    if (kind == Kind::inner) ++n.inner_count;
    if (kind == Kind::interface) ++n.interface_count;
    if (kind == Kind::halo) {
      if (!n.halo_owner.empty() && owner < n.halo_owner.back())
        throw split_line(line, "breaks the order of the halo lines by owning rank");
      ++n.halo_count;
      n.halo_owner.push_back(owner);
    }
    n.local_to_global.push_back(global);
  }
  for (index_t i = 0; i < n.local_count(); ++i) n.global_to_local.emplace(n.local_to_global[i], i);
  return n;
}

PlanePartition::PlanePartition(const parallel::Communicator& comm, const Executor& exec,
                               const parallel::LocalNumbering& planes, index_t systems,
                               parallel::HaloTransport transport, const parallel::Subdomain* reports_to)
    : comm_(comm), halo_(comm, exec, planes, systems, transport), inner_(planes.inner_count),
      owned_(planes.owned_count()),
      local_(planes.local_count()),
      global_(static_cast<index_t>(comm.allreduce(static_cast<long long>(owned_), parallel::ReduceOp::sum))),
      reports_to_(reports_to) {}

// One message per neighbour carries every system of the range: one vector of range.size() values a cell.
void PlanePartition::update_halo(Vector& v, SystemRange range) {
  start_halo_update(v, range);
  finish_halo_update(v, range);
}

void PlanePartition::start_halo_update(Vector& v, SystemRange range) {
  if (parallel::CommObserver* seen_by = observer()) seen_by->halo_started(halo_.plan(), 1, range.size());
  halo_.start_exchange(v, range.begin, range.end);
}

void PlanePartition::finish_halo_update(Vector& v, SystemRange range) {
  halo_.finish_exchange(v, range.begin, range.end);
  if (parallel::CommObserver* seen_by = observer()) seen_by->halo_finished();
}

void PlanePartition::sum(std::span<double> values) const {
  if (parallel::CommObserver* seen_by = observer()) seen_by->reduced(static_cast<int>(values.size()));
  comm_.allreduce(values, parallel::ReduceOp::sum);
}

double PlanePartition::max(double value) const {
  if (parallel::CommObserver* seen_by = observer()) seen_by->reduced(1);
  return comm_.allreduce(value, parallel::ReduceOp::max);
}

bool PlanePartition::all(bool value) const {
  if (parallel::CommObserver* seen_by = observer()) seen_by->reduced(1);
  return comm_.allreduce(value ? 1.0 : 0.0, parallel::ReduceOp::min) > 0;
}

}  // namespace miniapp::fft
