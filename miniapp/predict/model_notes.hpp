#pragma once
#include <string>
#include <vector>

#include "miniapp/predict/report.hpp"

namespace miniapp::predict {

// Where the model may miss on this case, each with its size estimated from the calibration: working
// set in cache (hot curves), per-call latency on small meshes, SpMV format and vector count not in
// the counters, the compute-heavy LES kernel, the Poisson set-up not separable, communication.
std::vector<std::string> model_notes(const PredictionReport& r);

}  // namespace miniapp::predict
