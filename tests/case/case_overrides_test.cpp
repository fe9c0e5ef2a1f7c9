// --set section.key=value overrides: applied before validation; errors name the argument.
#include <catch2/catch.hpp>

#include "case_test_util.hpp"

using namespace case_test;
using namespace miniapp::cases;
using Catch::Contains;

TEST_CASE("overrides: --set replaces numbers, arrays and strings", "[case]") {
  const CaseConfig c = parse(valid_case(), {"physics.re=1000", "mesh.cells=[32,32,1]", "physics.les=\"wale\"",
                                            "boundary.ymax.velocity=[2, 0, 0]"});
  CHECK(c.physics.nu == Approx(1e-3));
  CHECK(c.mesh.cells == std::array<miniapp::index_t, 3>{32, 32, 1});
  CHECK(c.physics.les == LesModel::wale);
  CHECK(c.find_boundary("ymax")->velocity.x == 2);
}

TEST_CASE("overrides: --set of a string key needs no quotes", "[case]") {
  CHECK(parse(valid_case(), {"physics.les=vreman"}).physics.les == LesModel::vreman);
  CHECK(parse(valid_case(), {"output.directory=runs/a b"}).output.directory == "runs/a b");
}

TEST_CASE("overrides: --set adds keys and sections the file lacks, the last one wins", "[case]") {
  const CaseConfig c = parse(valid_case(), {"numerics.cfl=0.3", "numerics.cfl=0.2", "run.end_time=1"});
  CHECK(c.numerics.cfl == 0.2);
  CHECK(c.run.end_time == 1.0);
  CHECK(c.run.max_steps == 10);
}

TEST_CASE("overrides: --set physics.nu replaces the file's physics.re", "[case]") {
  const CaseConfig c = parse(valid_case(), {"physics.nu=0.05"});
  CHECK(c.physics.nu == 0.05);
  CHECK(c.physics.re == Approx(20));
  // Both given on the command line is still a contradiction.
  CHECK_THAT(error_of(valid_case(), {"physics.nu=0.05", "physics.re=10"}), Contains("not both"));
}

TEST_CASE("overrides: --set errors name the argument", "[case]") {
  CHECK_THAT(error_of(valid_case(), {"physics.rey=1000"}),
             Contains(case_file + ": --set physics.rey=1000: physics.rey: unknown key (did you mean physics.re?)"));
  CHECK_THAT(error_of(valid_case(), {"physic.re=1000"}), Contains("--set physic.re=1000") && Contains("unknown section"));
  CHECK_THAT(error_of(valid_case(), {"physics.re"}), Contains("--set physics.re: expected section.key=value"));
  CHECK_THAT(error_of(valid_case(), {"physics.re=1e"}), Contains("--set physics.re=1e: cannot read '1e' as a TOML value"));
  CHECK_THAT(error_of(valid_case(), {"mesh.cells=[1,2"}), Contains("--set mesh.cells=[1,2: cannot read"));
  CHECK_THAT(error_of(valid_case(), {"physics.re=1\nnu = 2"}), Contains("is more than one TOML value"));
  CHECK_THAT(error_of(valid_case(), {"boundary.type=wall"}), Contains("--set boundary.type=wall") && Contains("unknown key"));
}

TEST_CASE("type and value errors of overridden keys name the argument", "[case]") {
  CHECK_THAT(error_of(valid_case(), {"physics.re=-1"}),
             Contains(case_file + ": physics.re (--set physics.re=-1): must be > 0 (got -1)"));
  CHECK_THAT(error_of(valid_case(), {"physics.re=\"fast\""}),
             Contains("physics.re (--set physics.re=\"fast\"): expected a number, got a string"));
  CHECK_THAT(error_of(valid_case(), {"mesh.cells=[32,32]"}),
             Contains("mesh.cells (--set mesh.cells=[32,32]): expected an array of 3 integers"));
  CHECK_THAT(error_of(valid_case(), {"physics.les=smag"}), Contains("physics.les (--set physics.les=smag): unknown value"));
  CHECK_THAT(error_of(valid_case(), {"boundary.lid.type=wall"}),
             Contains("boundary.lid (--set boundary.lid.type=wall): the generated hex mesh has no patch \"lid\""));
}
