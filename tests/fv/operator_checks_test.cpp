// check_operators (miniapp run --selftest): every identity holds on every test mesh, and each check
// fails when its identity is broken.
#include <catch2/catch.hpp>

#include "fv_test_support.hpp"
#include "operators/fv/operator_checks.hpp"

using namespace miniapp;
using namespace miniapp::fv;
using namespace miniapp::fv::test;

namespace {

// The check whose name starts with `prefix`.
OperatorCheck find_check(const std::vector<OperatorCheck>& checks, const std::string& prefix) {
  for (const OperatorCheck& c : checks)
    if (c.name.rfind(prefix, 0) == 0) return c;
  FAIL("no check named " << prefix);
  return {};
}

}  // namespace

TEST_CASE("check_operators passes on every test mesh", "[fv][selftest]") {
  std::vector<FlowCase> cases = periodic_cases();
  for (FlowCase& c : bounded_cases(true)) cases.push_back(std::move(c));
  for (const FlowCase& c : cases) {
    SECTION(c.name) {
      const FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
      const std::vector<OperatorCheck> checks = check_operators(c.mesh, c.geometry, ops);
      CHECK(checks.size() == 4);
      for (const OperatorCheck& check : checks) {
        INFO(check.name << ": " << check.error);
        CHECK(check.passed());
        CHECK(check.tolerance > 0);
      }
    }
  }
}

TEST_CASE("each check of check_operators fails when its identity is broken", "[fv][selftest]") {
  FlowCase c = bounded_cases(true).front();
  FlowOperators ops = assemble_flow_operators(c.mesh, c.geometry, c.boundaries);
  SECTION("L not symmetric") {
    ops.laplacian.val[ops.laplacian.row_ptr[1]] *= 1.001;
    CHECK_FALSE(find_check(check_operators(c.mesh, c.geometry, ops), "L = M Gs").passed());
  }
  SECTION("G not minus the adjoint of M Gamma: the inverse volumes it is made with not the volumes' inverses") {
    ops.inverse_volume[1] *= 1.001;
    CHECK_FALSE(find_check(check_operators(c.mesh, c.geometry, ops), "Omega G").passed());
  }
  SECTION("an open cell") {
    c.geometry.face_area[0] *= 1.01;
    CHECK_FALSE(find_check(check_operators(c.mesh, c.geometry, ops), "mesh closure").passed());
  }
  SECTION("C not skew-symmetric: one interior face's divergence entry wrong") {
    ops.divergence.val[ops.divergence.row_ptr[0]] *= 1.5;
    CHECK_FALSE(find_check(check_operators(c.mesh, c.geometry, ops), "C(u_s)").passed());
  }
}
