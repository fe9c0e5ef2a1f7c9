#pragma once
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "miniapp/run/simulation.hpp"
#include "operators/backend/device_matrix.hpp"

namespace miniapp::run {

// One sample: a weighted sum of cell values, Σ w_j x_j over cells j of this rank (operator order).
using SampleWeights = std::vector<std::pair<index_t, double>>;

// Values of cell fields at a few places (probe points, the cells beside wall faces) on any backend:
// one generalized SpMV with the sparse matrix of weights (samples × this rank's cells), so that only
// the samples travel to the host, never a whole field.
class CellSampler {
 public:
  CellSampler(const Simulation& sim, const std::vector<SampleWeights>& rows);

  std::size_t size() const { return rows_; }
  // out[k][i]: sample i of fields[k] (this rank's part; empty rows give 0).
  std::vector<std::vector<double>> sample(std::span<const Vector* const> fields);
  // The same into vectors on the executor (each of size()), for reductions that run there.
  void sample(std::span<const Vector* const> fields, std::span<Vector* const> out);

 private:
  const Executor exec_;
  std::size_t rows_;
  std::optional<DeviceSell> weights_;
  Vector out_;  // max_spmv_vectors results side by side: one copy to the host per batch
  std::vector<Vector> out_parts_;  // windows of out_
};

// The index in the operators' (executor) order of cell `cell` of sim.mesh.
index_t operator_index(const Simulation& sim, index_t cell);

}  // namespace miniapp::run
