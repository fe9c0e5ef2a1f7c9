#include "solvers/amg/device_aggregation.hpp"

#include <cstdint>

#include "core/error.hpp"
#include "operators/backend/cuda/device.hpp"
#include "solvers/amg/cuda/aggregation.hpp"

namespace miniapp::amg {

std::optional<Aggregates> device_aggregate(const DeviceCsr& filtered, const std::vector<double>& d) {
  const Executor& exec = filtered.executor();
  if (exec.backend() != Backend::cuda) return std::nullopt;
  const auto rows = static_cast<std::size_t>(filtered.rows());
  if (d.size() != rows)
    throw Error("AMG: " + std::to_string(d.size()) + " diagonal entries for a matrix of " + std::to_string(rows) + " rows");
  // The rounds' three states per row, five index vectors, the result's two and the diagonal.
  const std::size_t bytes = rows * (3 * sizeof(std::uint64_t) + 8 * sizeof(index_t) + sizeof(double));
  if (bytes > miniapp::cuda::memory_info(exec.device()).free_bytes) return std::nullopt;
  const Vector on_d = Vector::from_host(exec, d);
  Array<index_t> of_row(exec, filtered.rows()), root(exec, filtered.rows());
  Aggregates a;
  a.count = cuda::aggregate_rows(exec.stream(), filtered.view(), on_d.data(), of_row.data(), root.data());
  a.of_row = of_row.to_host();
  a.root = root.window(0, a.count).to_host();
  return a;
}

}  // namespace miniapp::amg
