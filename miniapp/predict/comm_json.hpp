#pragma once
#include <optional>

#include <nlohmann/json.hpp>

#include "miniapp/predict/comm_model.hpp"

namespace miniapp::predict {

// The "communication" object of the calibration file and of the report (null when not calibrated):
// transport, halo curves per rank count ([bytes per neighbour, seconds]), allreduce [ranks, seconds].
nlohmann::ordered_json communication_json(const std::optional<CommCalibration>& comm);

}  // namespace miniapp::predict
