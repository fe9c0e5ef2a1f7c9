#pragma once
#include "miniapp/case/case_config.hpp"
#include "solvers/amg/amg_options.hpp"

namespace miniapp::run {

// AMG's options from a case's numerics (numerics.amg_storage, numerics.amg_redundant_rows; the rest
// AMG's defaults): the set-up and the up-front memory estimate build and size the same hierarchy.
amg::AmgOptions amg_options(const cases::NumericsConfig& n);

}  // namespace miniapp::run
