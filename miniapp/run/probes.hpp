#pragma once
#include <optional>
#include <vector>

#include "miniapp/output/series_writer.hpp"
#include "miniapp/run/cell_sampler.hpp"
#include "miniapp/time/result_batch.hpp"

namespace miniapp::run {

// The owned cell of sim.mesh that contains `point` (every face plane of the cell, with a tolerance of
// `tolerance`, has the point on its inner side), or -1.
index_t containing_cell(const Simulation& sim, const Vec3& point, double tolerance);

// The weights of the linear reconstruction at `point` from cell `cell` of sim.mesh: its value plus
// (point − centroid) · the cell gradient G (the rows of G of that cell), so a field linear across the
// cell's neighbours is reproduced exactly where G is exact.
SampleWeights interpolation_weights(const Simulation& sim, index_t cell, const Vec3& point);

// [probes.<name>]: velocity and pressure at points, interpolated from the containing cell (the rank that
// owns it samples; the others add 0), a line of probes.csv per diagnostics row. A probe outside the
// mesh is refused at construction, on every rank, before the first step.
class Probes {
 public:
  Probes(const Simulation& sim, std::optional<long> restart_step);

  // Entries of a ResultBatch that queue takes: u, v, w, p per probe.
  index_t results() const { return 4 * static_cast<index_t>(sampler_ ? sampler_->size() : 0); }
  // Queues the samples of the current fields into `batch` (which other observers may share); once it
  // is read, values(batch) gives per probe u, v, w, p, reduced over ranks (collective).
  void queue(const time::FlowFields& f, time::ResultBatch& batch);
  std::vector<double> values(const time::ResultBatch& batch);
  // Appends the values of the fields queue was given to probes.csv (rank 0; collective).
  void record(const time::FlowFields& f, const time::ResultBatch& batch);

 private:
  const Simulation& sim_;
  std::optional<CellSampler> sampler_;
  time::ResultBatch::Slot queued_;  // the last queue's entries: field after field, probe after probe
  std::optional<output::SeriesWriter> file_;
};

}  // namespace miniapp::run
