#include "miniapp/run/cell_sampler.hpp"

#include <algorithm>

#include "operators/kernels/spmv.hpp"

namespace miniapp::run {

index_t operator_index(const Simulation& sim, index_t cell) {
  // A rank's mesh of several is in operator order already.
  return sim.owned_piece ? cell : sim.host_operators.cell_order.old_to_new[cell];
}

CellSampler::CellSampler(const Simulation& sim, const std::vector<SampleWeights>& rows)
    : exec_(sim.exec), rows_(rows.size()) {
  if (rows.empty()) return;
  CsrMatrix w;
  w.rows = static_cast<index_t>(rows.size());
  w.cols = sim.cells();
  for (SampleWeights row : rows) {
    std::sort(row.begin(), row.end());
    const std::size_t row_start = w.col.size();
    for (const auto& [cell, weight] : row) {
      if (w.col.size() > row_start && w.col.back() == cell) {
        w.val.back() += weight;  // the same cell twice in a row
        continue;
      }
      w.col.push_back(cell);
      w.val.push_back(weight);
    }
    w.row_ptr.push_back(static_cast<index_t>(w.col.size()));
  }
  weights_.emplace(exec_, to_sell(w, sim.exec.default_slice_height()));
  out_ = Vector(exec_, max_spmv_vectors * w.rows);
  for (int k = 0; k < max_spmv_vectors; ++k) out_parts_.push_back(out_.window(k * w.rows, w.rows));
}

void CellSampler::sample(std::span<const Vector* const> fields, std::span<Vector* const> out) {
  if (!weights_) return;
  for (std::size_t first = 0; first < fields.size(); first += max_spmv_vectors) {
    const std::size_t n = std::min<std::size_t>(max_spmv_vectors, fields.size() - first);
    spmv_multi(exec_, *weights_, fields.subspan(first, n), out.subspan(first, n));
  }
}

std::vector<std::vector<double>> CellSampler::sample(std::span<const Vector* const> fields) {
  std::vector<std::vector<double>> out(fields.size(), std::vector<double>(rows_, 0.0));
  if (!weights_) return out;
  for (std::size_t first = 0; first < fields.size(); first += max_spmv_vectors) {
    const std::size_t n = std::min<std::size_t>(max_spmv_vectors, fields.size() - first);
    std::vector<Vector*> y;
    for (std::size_t k = 0; k < n; ++k) y.push_back(&out_parts_[k]);
    sample(fields.subspan(first, n), y);
    const std::vector<double> host = out_.to_host();
    for (std::size_t k = 0; k < n; ++k)
      out[first + k].assign(host.begin() + static_cast<std::ptrdiff_t>(k * rows_),
                            host.begin() + static_cast<std::ptrdiff_t>((k + 1) * rows_));
  }
  return out;
}

}  // namespace miniapp::run
