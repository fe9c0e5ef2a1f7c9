#include "miniapp/case/case_config.hpp"

#include <algorithm>

#include "miniapp/case/case_names.hpp"

namespace miniapp::cases {

bool OutputConfig::has(OutputField f) const { return std::find(fields.begin(), fields.end(), f) != fields.end(); }

const BoundaryCondition* CaseConfig::find_boundary(std::string_view patch) const {
  for (const BoundaryCondition& b : boundaries)
    if (b.patch == patch) return &b;
  return nullptr;
}

Error KeyOrigins::error(std::string_view key, std::string_view reason) const {
  auto it = where.find(key);
  // A table that only --set created has no origin of its own: take its first key's.
  if (it == where.end()) {
    const std::string prefix = std::string(key) + ".";
    it = where.lower_bound(prefix);
    if (it != where.end() && !it->first.starts_with(prefix)) it = where.end();
  }
  std::string message = file;
  if (it == where.end())
    message += ": " + std::string(key);
  else if (it->second.starts_with("--set"))
    message += ": " + std::string(key) + " (" + it->second + ")";
  else
    message += ":" + it->second + ": " + std::string(key);
  return Error(message + ": " + std::string(reason));
}

std::string_view name(MeshGenerator g) { return spelling(mesh_generator_names, g); }
std::string_view name(Decomposition d) { return spelling(decomposition_names, d); }
std::string_view name(LesModel m) { return spelling(les_model_names, m); }
std::string_view name(InitialType t) { return spelling(initial_type_names, t); }
std::string_view name(BoundaryType t) { return spelling(boundary_type_names, t); }
std::string_view name(Backend b) { return spelling(backend_names, b); }
std::string_view name(Preconditioner p) { return spelling(preconditioner_names, p); }
std::string_view name(AipFormChoice f) { return spelling(aip_form_names, f); }
std::string_view name(PoissonSolver p) { return spelling(poisson_solver_names, p); }
std::string_view name(TimeStepMethod m) { return spelling(time_step_method_names, m); }
std::string_view name(OutputField f) { return spelling(output_field_names, f); }

}  // namespace miniapp::cases
