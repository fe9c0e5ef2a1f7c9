#pragma once
#include <iosfwd>

#include "miniapp/case/case_config.hpp"

namespace miniapp::run {

// For each [forces.<patch>]: reads forces_<patch>.csv back (the whole record, restarts included) and
// prints the mean C_d, the lift's mean and amplitude and the Strouhal number St = f L / U from the
// lift's upward crossings of its mean and from its spectrum's peak (signal_period), over the samples
// from statistics.start_time on (all samples without [statistics]), whatever number format `out` was
// left in. Rank 0's business.
void print_forces_summary(const cases::CaseConfig& config, std::ostream& out);

}  // namespace miniapp::run
