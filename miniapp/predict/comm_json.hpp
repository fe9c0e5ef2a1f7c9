#pragma once

#include <nlohmann/json.hpp>

#include "miniapp/predict/calibration.hpp"
#include "miniapp/predict/comm_model.hpp"

namespace miniapp::predict {

// The calibration's cost tables, the part of the calibration file that the report's summary repeats
// (calibration_file.cpp): "curves" and "graph_curves" (per kernel variant and cache level {kernel,
// cache, latency_s, points [[bytes, seconds], ...]}), "iteration_curves" ({unit, latency_s, points
// [[bytes, seconds, calls], ...]}), "batched_widths" and "batched_amg_blocks" ([[rows, systems, cost],
// ...]), "communication" (null when not calibrated: transport, halo curves per rank count, allreduce
// [ranks, seconds], the units timed on the ranks).
nlohmann::ordered_json cost_tables_json(const Calibration& c);

}  // namespace miniapp::predict
