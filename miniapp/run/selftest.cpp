#include "miniapp/run/selftest.hpp"

#include <iomanip>
#include <ostream>

#include "mesh/geometry.hpp"
#include "miniapp/case/case_mesh.hpp"
#include "miniapp/case/case_validation.hpp"
#include "miniapp/run/simulation.hpp"
#include "operators/fv/operator_checks.hpp"

namespace miniapp::run {

bool run_selftest(const cases::CaseConfig& config, const std::string& case_path, std::ostream& out) {
  const mesh::Mesh mesh = cases::make_case_mesh(config.mesh);
  cases::validate_boundaries(config, mesh, case_path);
  const mesh::MeshGeometry geometry = mesh::compute_geometry(mesh);
  const fv::FlowOperators ops = fv::assemble_flow_operators(mesh, geometry, flow_boundaries(config, mesh));
  out << "selftest  " << mesh.cell_count() << " cells, " << mesh.face_count() << " faces\n";
  int failed = 0;
  for (const fv::OperatorCheck& check : fv::check_operators(mesh, geometry, ops)) {
    out << "  " << std::left << std::setw(52) << check.name << std::right << std::scientific << std::setprecision(2)
        << "error " << check.error << "  tolerance " << check.tolerance << std::defaultfloat << "  "
        << (check.passed() ? "ok" : "FAILED") << "\n";
    if (!check.passed()) ++failed;
  }
  out << "selftest  " << (failed == 0 ? "passed" : std::to_string(failed) + " check(s) FAILED") << "\n";
  return failed == 0;
}

}  // namespace miniapp::run
