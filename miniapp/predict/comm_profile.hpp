#pragma once
#include <array>
#include <cstdint>

#include "miniapp/predict/comm_model.hpp"
#include "miniapp/predict/comm_recorder.hpp"
#include "miniapp/time/fractional_step.hpp"

namespace miniapp::predict {

using PhaseComm = std::array<CommLoad, time::phase_count>;

// The load of one recorded halo update (one update, its vectors, neighbours and bytes, the kernels
// that ran while it travelled, its seconds spent communicating).
CommLoad load_of(const HaloUpdateRecord& update);

// The recorded events of one step, by phase of Algorithm 1. The phases' kernel calls follow each
// other in `report` order from `step_start` (the executor's call count when the step began), so an
// event at position c (after c kernel calls of the step) belongs to the phase whose calls (first,
// last] hold c: a halo update is placed where it finished, after its own unpack kernels, and a
// reduction where it started, after the local kernel it reduces, both calls of its own sub-step (an
// event before the step's first kernel goes to the first phase with calls).
PhaseComm attribute_to_phases(const CommRecord& record, const time::StepReport& report, std::uint64_t step_start);

}  // namespace miniapp::predict
