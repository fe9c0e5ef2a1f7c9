#pragma once
#include <optional>
#include <vector>

#include "operators/backend/device_matrix.hpp"
#include "operators/backend/executor.hpp"
#include "solvers/amg/aggregation.hpp"

namespace miniapp::amg {

// aggregate(filtered, d) on a CUDA executor's device, filtered already there: the same rounds, so the
// same aggregates, in a fraction of the host's time on large levels (docs/amg.md). Nothing when the
// executor is not CUDA or its device lacks the memory for the rounds' vectors: the caller then
// aggregates on the host.
std::optional<Aggregates> device_aggregate(const DeviceCsr& filtered, const std::vector<double>& d);

}  // namespace miniapp::amg
