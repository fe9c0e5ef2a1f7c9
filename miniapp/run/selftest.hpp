#pragma once
#include <iosfwd>
#include <string>

#include "miniapp/case/case_config.hpp"

namespace miniapp::run {

// `miniapp run --selftest`: builds the case's whole mesh and its operators on the host, checks the
// identities the scheme rests on (fv::check_operators: closure, Ω G = −(M Γ)ᵀ, L symmetric, C
// skew-symmetric) and prints one line per check with its measured error and tolerance. For a user who
// brings a new mesh, before running on it. Returns true when every check passes.
bool run_selftest(const cases::CaseConfig& config, const std::string& case_path, std::ostream& out);

}  // namespace miniapp::run
