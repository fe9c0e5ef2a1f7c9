#pragma once
#include <optional>

#include <nlohmann/json.hpp>

#include "miniapp/predict/calibration.hpp"
#include "miniapp/predict/comm_model.hpp"

namespace miniapp::predict {

// Pieces of JSON shared by the calibration file and the report (calibration_file.cpp).

// A curve table: one object per kernel variant and cache level, {kernel, cache, latency_s, points
// [[bytes, seconds], ...]}.
nlohmann::ordered_json curve_table_json(const CurveTable& table);

// The calibrated iteration units: [{unit, latency_s, points [[bytes, seconds], ...]}, ...].
nlohmann::ordered_json iteration_curves_json(const Calibration& c);

// Calibration::batched_widths (or batched_amg_blocks) as [[rows, systems, cost], ...].
nlohmann::ordered_json batched_widths_json(const std::vector<WidthPoint>& points);

// The "communication" object of the calibration file and of the report (null when not calibrated):
// transport, halo curves per rank count ([bytes per neighbour, seconds]), allreduce [ranks, seconds].
nlohmann::ordered_json communication_json(const std::optional<CommCalibration>& comm);

}  // namespace miniapp::predict
