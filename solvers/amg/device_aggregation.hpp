#pragma once
#include <optional>
#include <vector>

#include "operators/backend/device_matrix.hpp"
#include "operators/backend/executor.hpp"
#include "solvers/amg/aggregation.hpp"

namespace miniapp::amg {

// aggregate(filtered, d) on a CUDA executor's device, filtered and d already there: the same rounds,
// so the same aggregates, in a fraction of the host's time on large levels (docs/amg.md). Nothing when
// the executor is not CUDA or its device lacks the memory for the rounds' vectors: the caller then
// aggregates on the host. of_row_on_device, when given, takes the aggregate of each row in device
// memory too.
std::optional<Aggregates> device_aggregate(const DeviceCsr& filtered, const Vector& d,
                                           Array<index_t>* of_row_on_device = nullptr);

}  // namespace miniapp::amg
