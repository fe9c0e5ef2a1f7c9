#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "operators/backend/device_matrix.hpp"
#include "solvers/amg/aggregation.hpp"

namespace miniapp::amg {

// A level's set-up steps on a CUDA device, its matrices already there (docs/amg.md): each gives the
// host code's result bit for bit, the same sums in the same order.

// filtered_matrix(a, d, threshold) where drops_no_link(a, d, threshold) is false; nothing where
// filtering drops no link (A_F is then A). d: the diagonal in device memory.
std::optional<DeviceCsr> device_filtered_matrix(const DeviceCsr& a, const Vector& d, double threshold);

// positive_diagonal(a, who): the diagonal taken on the device into `d` (a.rows() entries, kept there for
// the level's device steps), checked on the host.
std::vector<double> device_positive_diagonal(const DeviceCsr& a, std::string_view who, Vector& d);

// largest_eigenvalue_bound(a, d) without ranks; d: the diagonal in device memory.
double device_eigenvalue_bound(const DeviceCsr& a, const Vector& d);

// smoothed_prolongation(a_f, aggregates, known_bound) for the aggregates of_row (in device memory) of
// `count` aggregates, or nothing when a row of A_F T has more aggregates than the device's per-row
// table holds or the device lacks the memory: the caller then builds P on the host.
std::optional<DeviceCsr> device_smoothed_prolongation(const DeviceCsr& a_f, const Array<index_t>& of_row, index_t count,
                                                      std::optional<double> known_bound);

// transpose(m) (each row's columns increasing), or nothing when the device lacks the memory.
std::optional<DeviceCsr> device_transpose(const DeviceCsr& m);

}  // namespace miniapp::amg
