// numerics.poisson = "auto" (the default): fft on uniform periodic extrusions along z with an even
// Nper, pcg elsewhere with the failed condition; explicit choices are kept.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "miniapp/case/case_catalog.hpp"
#include "miniapp/case/case_parser.hpp"

using namespace miniapp;
using cases::PoissonSolver;
using Catch::Matchers::Contains;

namespace {

cases::CaseConfig load(const std::string& name, std::vector<std::string> overrides = {}) {
  return cases::load_case(cases::case_path(name), overrides);
}

}  // namespace

TEST_CASE("auto picks fft for the periodic extruded cases", "[fft][case]") {
  for (const std::string name : {"taylor-green-3d", "channel"}) {
    const auto c = load(name);
    INFO(name);
    CHECK(c.numerics.poisson == PoissonSolver::fft);
    CHECK_THAT(c.numerics.poisson_choice, Contains("auto: fft"));
  }
}

TEST_CASE("auto picks pcg and names the failed condition", "[fft][case]") {
  const auto tet = load("taylor-green-3d", {"mesh.generator=\"tet\"", "mesh.cells=[4,4,4]"});
  CHECK(tet.numerics.poisson == PoissonSolver::pcg);
  CHECK_THAT(tet.numerics.poisson_choice, Contains("pcg") && Contains("tet generator"));
  const auto odd = load("taylor-green-3d", {"mesh.cells=[8,8,7]"});
  CHECK(odd.numerics.poisson == PoissonSolver::pcg);
  CHECK_THAT(odd.numerics.poisson_choice, Contains("Nper = mesh.cells z = 7 is odd"));
  const auto slab = load("cavity");  // one layer
  CHECK(slab.numerics.poisson == PoissonSolver::pcg);
  const auto stretched = load("cavity-3d");
  CHECK(stretched.numerics.poisson == PoissonSolver::pcg);
  CHECK_THAT(stretched.numerics.poisson_choice, Contains("z is not periodic"));
}

TEST_CASE("explicit pcg and fft are kept, fft on an unfit mesh is refused with the reason", "[fft][case]") {
  const auto pcg = load("channel", {"numerics.poisson=\"pcg\""});
  CHECK(pcg.numerics.poisson == PoissonSolver::pcg);
  CHECK(pcg.numerics.poisson_choice.empty());
  CHECK(load("channel", {"numerics.poisson=\"fft\""}).numerics.poisson == PoissonSolver::fft);
  CHECK_THROWS_WITH(load("taylor-green-3d", {"numerics.poisson=\"fft\"", "mesh.generator=\"tet\""}),
                    Contains("numerics.poisson") && Contains("tet generator makes no extrusion"));
}
