#include "solvers/amg/device_aggregation.hpp"

#include <cstdint>

#include "core/error.hpp"
#include "solvers/amg/cuda/aggregation.hpp"
#include "solvers/amg/device_galerkin.hpp"  // device_has_room

namespace miniapp::amg {

std::optional<Aggregates> device_aggregate(const DeviceCsr& filtered, const Vector& d, Array<index_t>* of_row_on_device) {
  const Executor& exec = filtered.executor();
  if (exec.backend() != Backend::cuda) return std::nullopt;
  const auto rows = static_cast<std::size_t>(filtered.rows());
  if (static_cast<std::size_t>(d.size()) != rows)
    throw Error("AMG: " + std::to_string(d.size()) + " diagonal entries for a matrix of " + std::to_string(rows) + " rows");
  // The rounds' three states per row, five index vectors and the result's two.
  if (!device_has_room(exec, rows * (3 * sizeof(std::uint64_t) + 7 * sizeof(index_t)))) return std::nullopt;
  Array<index_t> of_row(exec, filtered.rows()), root(exec, filtered.rows());
  Aggregates a;
  a.count = cuda::aggregate_rows(exec.stream(), filtered.view(), d.data(), of_row.data(), root.data());
  a.of_row = of_row.to_host();
  a.root = root.window(0, a.count).to_host();
  if (of_row_on_device) *of_row_on_device = std::move(of_row);
  return a;
}

}  // namespace miniapp::amg
