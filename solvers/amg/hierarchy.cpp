#include "solvers/amg/hierarchy.hpp"

#include <cmath>
#include <future>
#include <optional>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "solvers/amg/coarse_inverse.hpp"
#include "solvers/amg/device_aggregation.hpp"
#include "solvers/amg/device_level.hpp"
#include "solvers/amg/device_galerkin.hpp"
#include "solvers/amg/galerkin.hpp"
#include "solvers/amg/level_matrix.hpp"  // csr_device_bytes
#include "solvers/amg/prolongation.hpp"
#include "solvers/amg/spectral_bound.hpp"
#include "solvers/matrix_checks.hpp"

namespace miniapp::amg {

void check_options(const AmgOptions& o) {
  if (!(o.strength_threshold >= 0 && o.strength_threshold < 1))
    throw Error("AMG: strength threshold " + std::to_string(o.strength_threshold) + " must lie in [0, 1)");
  if (o.smoother_degree < 1 || o.smoother_degree > 8)
    throw Error("AMG: smoother degree " + std::to_string(o.smoother_degree) + " must lie in 1..8");
  if (!(o.smoother_ratio > 1)) throw Error("AMG: smoother ratio must exceed 1");
  if (o.coarse_rows < 1 || o.coarse_rows > 5000)
    throw Error("AMG: coarse rows " + std::to_string(o.coarse_rows) + " must lie in 1..5000 (a dense inverse)");
  if (o.redundant_rows < 0)
    throw Error("AMG: redundant rows " + std::to_string(o.redundant_rows) + " must not be negative");
  if (o.max_levels < 1) throw Error("AMG: at least one level");
}

namespace {

// Coarsening that removes less than this fraction of the rows has stalled (a matrix without strong
// links): the level is kept as the coarsest when it is small enough for a dense inverse.
constexpr double stalled_ratio = 0.9;

// A level in device memory, for the set-up steps that run there: A (the level's device copy), A_F where
// filtering dropped links, A's diagonal and the aggregates of its rows.
struct DeviceLevel {
  const DeviceCsr* a = nullptr;
  std::optional<DeviceCsr> filtered;
  Vector d;
  Array<index_t> of_row;
  const DeviceCsr& a_f() const { return filtered ? *filtered : *a; }
};

}  // namespace

HostHierarchy build_hierarchy(CsrMatrix a, const AmgOptions& options, const Executor* exec) {
  return build_hierarchy(SetupMatrix{std::move(a), std::nullopt}, options, exec);
}

HostHierarchy build_hierarchy(SetupMatrix a, const AmgOptions& options, const Executor* exec) {
  check_options(options);
  if (a.host.rows == 0 && a.device)
    throw Error("AMG: the matrix has no host copy (" + std::to_string(a.device->rows()) + " rows on the device only)");
  if (a.device && (a.device->rows() != a.host.rows || a.device->nnz() != a.host.nnz()))
    throw Error("AMG: the device copy of the matrix (" + std::to_string(a.device->rows()) + " rows, " +
                std::to_string(a.device->nnz()) + " entries) is not its host copy (" + std::to_string(a.host.rows) +
                " rows, " + std::to_string(a.host.nnz()) + " entries)");
  HostHierarchy h;
  std::vector<double> diagonal;
  // Where a device sets up the finest level, the finest graph's connectivity check (which that does not
  // need) runs beside it on another host thread once A is uploaded (the upload's staging takes the
  // host's threads), joined before `current` moves, and by the future's destructor, which runs before
  // current's, when the set-up throws. Elsewhere the host's cores have the set-up's own work, and it
  // runs first.
  const bool beside_device = exec && exec->backend() == Backend::cuda && a.host.rows >= device_setup_rows;
  {
    StageClock clock(h.profile, SetupStage::checks);
    diagonal = positive_diagonal(a.host, "AMG");
    if (!beside_device) check_single_null_vector(a.host, "AMG");
  }
  SetupMatrix current = std::move(a);
  std::future<void> connectivity;
  bool connectivity_pending = beside_device;
  const auto check_connectivity_beside = [&] {
    if (!connectivity_pending) return;
    connectivity = std::async(std::launch::async, [&current] { check_single_null_vector(current.host, "AMG"); });
    connectivity_pending = false;
  };
  const auto connectivity_checked = [&] {
    if (!connectivity.valid() && !connectivity_pending) return;
    StageClock clock(h.profile, SetupStage::checks);
    if (connectivity.valid()) connectivity.get();
    if (connectivity_pending) check_single_null_vector(current.host, "AMG");  // no level was set up
    connectivity_pending = false;
  };
  // The current level's diagonal in device memory where the device took it from its product.
  std::optional<Vector> device_diagonal;
  // For every level's matrices, their memory faulted in once; with room for the largest, the finest
  // level's A P, which has somewhat more entries than A.
  RowBlocks buffers = row_blocks_with_room(2 * static_cast<std::size_t>(current.host.nnz()));
  while (current.rows() > options.coarse_rows && static_cast<int>(h.levels.size()) + 1 < options.max_levels) {
    // Halved per level (Vaněk et al.): Galerkin products spread a row's weight over more, smaller entries.
    const double threshold = options.strength_threshold * std::pow(0.5, static_cast<double>(h.levels.size()));
    HostLevel level;
    level.diagonal = std::move(diagonal);
    const std::vector<double>& d = level.diagonal;
    // A_F on the host, made the first time the host needs it: empty where filtering would drop no link
    // (A is then A_F, and A's bound A_F's).
    bool host_filter_applied = false;
    std::optional<CsrMatrix> host_filtered;
    const auto a_f = [&]() -> const CsrMatrix& {
      const CsrMatrix& a_host = current.fetch();
      if (!host_filter_applied && !drops_no_link(a_host, d, threshold))
        host_filtered = filtered_matrix(a_host, d, threshold, &buffers);
      host_filter_applied = true;
      return host_filtered ? *host_filtered : a_host;
    };
    // Large levels on the device, with A, A_F, d and the aggregates there; each step on the host where
    // the device cannot take it.
    DeviceLevel device;
    std::optional<Aggregates> aggregates;
    {
      StageClock clock(h.profile, SetupStage::aggregation);
      // Room for A (unless there already), A_F and d.
      const std::size_t copies = current.device ? 1 : 2;
      const index_t rows = current.rows();
      if (exec && rows >= device_setup_rows &&
          device_has_room(*exec, copies * csr_device_bytes(rows, current.nnz()) +
                                     (static_cast<std::size_t>(rows) + 1) * sizeof(double))) {
        if (!current.device) current.device.emplace(*exec, current.host);
        device.a = &*current.device;
        device.d = device_diagonal ? std::move(*device_diagonal) : Vector::from_host(*exec, d);
        device.filtered = device_filtered_matrix(*device.a, device.d, threshold);
        aggregates = device_aggregate(device.a_f(), device.d, &device.of_row);
      }
      if (!aggregates) aggregates = aggregate(a_f(), d);
    }
    check_connectivity_beside();
    if (aggregates->count > stalled_ratio * current.rows()) break;
    const bool drops_links = device.a ? device.filtered.has_value() : host_filtered.has_value();
    {
      StageClock clock(h.profile, SetupStage::spectral_bound);
      level.lambda_max = device.a ? device_eigenvalue_bound(*device.a, device.d)
                                  : largest_eigenvalue_bound(current.fetch(), d);
    }
    std::optional<DeviceCsr> device_p, device_r;
    {
      StageClock clock(h.profile, SetupStage::prolongation);
      const std::optional<double> known_bound = drops_links ? std::nullopt : std::optional(level.lambda_max);
      if (device.of_row.size() > 0 && options.smoothed)
        device_p = device_smoothed_prolongation(device.a_f(), device.of_row, aggregates->count, known_bound);
      if (device_p) device_r = device_transpose(*device_p);
      if (!device_r) {
        level.prolongation.host = options.smoothed ? smoothed_prolongation(a_f(), *aggregates, known_bound, &buffers)
                                                   : tentative_prolongation(*aggregates);
        level.restriction.host = transpose(level.prolongation.host);
      }
    }
    // A's Galerkin product where the device made it: the next level's A there, copied to the host only
    // where a host step reads it.
    std::optional<DeviceCsr> device_coarse;
    CsrMatrix coarse;
    {
      StageClock clock(h.profile, SetupStage::galerkin);
      if (device_r) {
        device_coarse = device_galerkin_product(*device_r, *device.a, *device_p);
        if (device_coarse) {  // P and R stay there for the preconditioner
          level.prolongation.device = std::move(device_p);
          level.restriction.device = std::move(device_r);
        } else {  // the host multiplies, with its own P and R
          level.prolongation.host = device_p->to_host();
          level.restriction.host = device_r->to_host();
        }
      } else if (device.a) {
        // P and R made on the host, A already on the device: only they travel.
        device = {};  // room for P, R and the products
        if (device_has_room(*exec, device_bytes(level.prolongation.host) + device_bytes(level.restriction.host)))
          device_coarse = device_galerkin_product(DeviceCsr(*exec, level.restriction.host), *current.device,
                                                  DeviceCsr(*exec, level.prolongation.host));
      }
      device_p.reset();
      device_r.reset();
      device = {};
      if (!device_coarse)
        coarse = galerkin_product(level.restriction.host, current.fetch(), level.prolongation.host, &buffers);
    }
    device_diagonal.reset();
    {
      StageClock clock(h.profile, SetupStage::checks);
      if (device_coarse) {
        device_diagonal.emplace(*exec, device_coarse->rows());
        diagonal = device_positive_diagonal(*device_coarse, "AMG (a coarse level)", *device_diagonal);
      } else {
        diagonal = positive_diagonal(coarse, "AMG (a coarse level)");
      }
    }
    connectivity_checked();
    // A coarser level's A stays on the device, for the preconditioner (the finest is the solver's own
    // matrix); on the host only where a host step made or read it.
    level.a = std::move(current);
    if (h.levels.empty()) level.a.device.reset();
    current = {std::move(coarse), std::move(device_coarse)};
    h.levels.push_back(std::move(level));
  }
  connectivity_checked();
  if (current.rows() > 5000)
    throw Error("AMG: coarsening stalled at " + std::to_string(current.rows()) +
                " rows, too many for the dense coarse solve (the matrix has too few strong connections)");
  current.fetch();
  h.coarsest = std::move(current.host);
  {
    StageClock clock(h.profile, SetupStage::coarse_inverse);
    h.coarse_inverse = dense_pseudo_inverse(h.coarsest);
  }
  return h;
}

double operator_complexity(const HostHierarchy& h) {
  const double fine = h.levels.empty() ? h.coarsest.nnz() : h.levels.front().nnz();
  double sum = h.coarsest.nnz();
  for (const HostLevel& l : h.levels) sum += l.nnz();
  return sum / fine;
}

}  // namespace miniapp::amg
