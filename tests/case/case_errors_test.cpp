// Bad input: every kind gives one miniapp::Error naming the file, the key (with its line) and the reason.
#include <catch2/catch.hpp>

#include "case_test_util.hpp"

using namespace case_test;
using Catch::Contains;

namespace {

// The error of `text` names the file, `key` at the line where `line_text` is written, and `reason`.
void check_error_at(const std::string& text, const std::string& line_text, const std::string& key, const std::string& reason) {
  const std::string message = error_of(text);
  INFO(message);
  CHECK_THAT(message, Contains(case_file + ":" + std::to_string(line_of(text, line_text)) + ": " + key + ": "));
  CHECK_THAT(message, Contains(reason));
}

// The error of `text` names the file, `key` and `reason` (for keys the case does not give).
void check_error(const std::string& text, const std::string& key, const std::string& reason) {
  const std::string message = error_of(text);
  INFO(message);
  CHECK_THAT(message, Contains(case_file + ":") && Contains(key) && Contains(reason));
}

}  // namespace

TEST_CASE("TOML syntax errors give line and column", "[case]") {
  const std::string text = replace(valid_case(), "re = 100", "re = = 100");
  const std::string message = error_of(text);
  CHECK_THAT(message, Contains(case_file + ":" + std::to_string(line_of(text, "re = = 100")) + ":"));
  CHECK_THAT(message, Contains("TOML syntax error"));
}

TEST_CASE("unknown sections and keys, with suggestions", "[case]") {
  std::string text = add(valid_case(), "[physics]", "rey = 100");
  check_error_at(text, "rey = 100", "physics.rey", "unknown key (did you mean physics.re?)");
  text = add(valid_case(), "[numerics]", "preconditoner = \"jacobi\"");
  check_error_at(text, "preconditoner", "numerics.preconditoner", "did you mean numerics.preconditioner?");
  text = add(valid_case(), "[physics]", "temperature = 300");
  check_error_at(text, "temperature", "physics.temperature", "unknown key");
  CHECK_THAT(error_of(text), !Contains("did you mean"));
  text = replace(valid_case(), "[physics]", "[physic]");
  check_error_at(text, "[physic]", "physic", "unknown section (did you mean [physics]?)");
  text = add(valid_case(), "[boundary.ymax]", "typ = \"wall\"");
  check_error_at(text, "typ = ", "boundary.ymax.typ", "did you mean boundary.ymax.type?");
}

TEST_CASE("names far from the key get a suggestion through synonyms and shared words", "[case]") {
  std::string text = add(valid_case(), "[physics]", "reynolds = 100");
  check_error_at(text, "reynolds", "physics.reynolds", "did you mean physics.re?");
  text = add(valid_case(), "[numerics]", "tolerance = 1e-6");
  check_error_at(text, "tolerance", "numerics.tolerance", "did you mean numerics.poisson_tolerance?");
  text = add(valid_case(), "[run]", "steps = 3");
  check_error_at(text, "steps = 3", "run.steps", "did you mean run.max_steps?");
}

TEST_CASE("every error of a case file is reported at once", "[case]") {
  std::string text = add(valid_case(), "[physics]", "reynolds = 100");
  text = replace(text, "max_steps = 10", "max_steps = 10.5");
  text = add(text, "[numerics]", "solver = \"cg\"");
  const std::string message = error_of(text);
  INFO(message);
  CHECK_THAT(message, Contains(case_file + ": 3 errors:"));
  CHECK_THAT(message, Contains("\n  " + case_file + ":" + std::to_string(line_of(text, "reynolds")) +
                               ": physics.reynolds: unknown key (did you mean physics.re?)"));
  CHECK_THAT(message, Contains("run.max_steps: expected an integer"));
  CHECK_THAT(message, Contains("numerics.solver: unknown key (did you mean numerics.poisson?)"));
  // Values that read well but are out of range, in several sections.
  text = replace(replace(valid_case(), "re = 100", "re = -1"), "max_steps = 10", "max_steps = 0");
  CHECK_THAT(error_of(text), Contains("2 errors:") && Contains("physics.re: must be > 0") &&
                                 Contains("run.max_steps: must be >= 1"));
}

TEST_CASE("values of the wrong type", "[case]") {
  check_error_at(replace(valid_case(), "re = 100", "re = \"100\""), "re = ", "physics.re", "expected a number, got a string");
  check_error_at(replace(valid_case(), "cells = [4, 4, 1]", "cells = [4, 4]"), "cells", "mesh.cells",
                 "expected an array of 3 integers, got an array of 2 values");
  check_error_at(replace(valid_case(), "cells = [4, 4, 1]", "cells = [4.0, 4, 1]"), "cells", "mesh.cells",
                 "expected an array of 3 integers");
  check_error_at(replace(valid_case(), "max_steps = 10", "max_steps = 10.5"), "max_steps", "run.max_steps",
                 "expected an integer");
  check_error_at(replace(valid_case(), "re = 100", "re = inf"), "re = ", "physics.re", "must be finite");
  check_error_at("physics = 3\n" + replace(valid_case(), "[physics]\nre = 100", ""), "physics = 3", "physics",
                 "expected a table [physics], got an integer");
}

TEST_CASE("impossible physical values", "[case]") {
  check_error_at(replace(valid_case(), "re = 100", "nu = -0.01"), "nu = ", "physics.nu", "must be > 0 (got -0.01)");
  check_error_at(replace(valid_case(), "re = 100", "re = 0"), "re = ", "physics.re", "must be > 0");
  check_error(add(valid_case(), "[physics]", "nu = 0.01"), "physics.nu", "give either physics.re or physics.nu, not both");
  check_error(replace(valid_case(), "re = 100", ""), "physics.re", "give one of physics.re or physics.nu");
  check_error_at(add(valid_case(), "[physics]", "les = \"smag\""), "les = ", "physics.les",
                 "unknown value \"smag\" (allowed: \"none\", \"smagorinsky\", \"wale\", \"vreman\" or \"sigma\")");
  check_error_at(add(valid_case(), "[physics]", "les = \"wale\"\nles_constant = -1"), "les_constant", "physics.les_constant", "must be > 0");
  check_error_at(add(valid_case(), "[physics]", "reference_length = 0"), "reference_length", "physics.reference_length", "must be > 0");
}

TEST_CASE("impossible numerics and run settings", "[case]") {
  check_error_at(add(valid_case(), "[numerics]", "cfl = 0"), "cfl", "numerics.cfl", "must be > 0");
  // Above 1 every step would amplify the fastest modes: refused with AB2's limit named.
  check_error_at(add(valid_case(), "[numerics]", "cfl = 20"), "cfl", "numerics.cfl",
                 "must be at most 1, the stability limit of the Adams-Bashforth 2 scheme (got 20)");
  check_error_at(add(valid_case(), "[numerics]", "time_step = \"implicit\""), "time_step", "numerics.time_step",
                 "unknown value \"implicit\" (allowed: \"cfl\" or \"eigenvalue\")");
  check_error_at(add(valid_case(), "[numerics]", "time_step = \"eigenvalue\"\nmax_kappa = 1.5"), "max_kappa",
                 "numerics.max_kappa", "must lie in [0.5, 1] (got 1.5)");
  check_error_at(add(valid_case(), "[numerics]", "max_kappa = 0.8"), "max_kappa", "numerics.max_kappa",
                 "chosen by numerics.time_step = \"eigenvalue\" only");
  check_error_at(add(valid_case(), "[numerics]", "dt = -1e-3"), "dt = ", "numerics.dt", "must be > 0");
  check_error_at(add(valid_case(), "[numerics]", "poisson_tolerance = 1.5"), "poisson_tolerance", "numerics.poisson_tolerance", "must lie in (0, 1)");
  check_error_at(add(valid_case(), "[numerics]", "poisson_tolerance = 0"), "poisson_tolerance", "numerics.poisson_tolerance", "must lie in (0, 1)");
  check_error_at(add(valid_case(), "[numerics]", "poisson_max_iterations = 0"), "poisson_max", "numerics.poisson_max_iterations", "must be >= 1");
  check_error_at(add(valid_case(), "[numerics]", "preconditioner = \"ilu\""), "preconditioner", "numerics.preconditioner", "unknown value \"ilu\"");
  check_error_at(add(valid_case(), "[numerics]", "aip_form = \"three-pass\""), "aip_form", "numerics.aip_form", "unknown value \"three-pass\"");
  check_error_at(add(valid_case(), "[numerics]", "backend = \"gpu\""), "backend", "numerics.backend", "unknown value \"gpu\"");
  check_error_at(add(valid_case(), "[numerics]", "slice_height = -4"), "slice_height", "numerics.slice_height", "must be >= 0");
  check_error_at(add(valid_case(), "[numerics]", "amg_redundant_rows = -1"), "amg_redundant_rows",
                 "numerics.amg_redundant_rows", "must be >= 0");
  check_error_at(add(valid_case(), "[numerics]", "fft_low_frequency_blocks = 9"), "fft_low_frequency_blocks",
                 "numerics.fft_low_frequency_blocks", "must lie in -1..8 (got 9)");
  check_error_at(add(replace(valid_case(), "periodic = \"z\"", "periodic = \"\""), "[numerics]", "poisson = \"fft\""), "poisson = ",
                 "numerics.poisson", "\"fft\" needs uniform layers along a periodic z");
  check_error(replace(valid_case(), "max_steps = 10", ""), "run.end_time", "give run.end_time, run.max_steps or both");
  check_error_at(replace(valid_case(), "max_steps = 10", "max_steps = 0"), "max_steps", "run.max_steps", "must be >= 1");
  check_error_at(add(valid_case(), "[run]", "end_time = -2"), "end_time", "run.end_time", "must be > 0");
  check_error_at(add(valid_case(), "[output]", "fields = [\"velocity\", \"vorticty\"]"), "fields", "output.fields", "unknown field \"vorticty\"");
  check_error_at(add(valid_case(), "[output]", "fields = [\"pressure\", \"pressure\"]"), "fields", "output.fields", "given twice");
  check_error_at(add(valid_case(), "[output]", "interval = -1"), "interval", "output.interval", "must be >= 0");
  check_error_at(add(valid_case(), "[output]", "compression = \"gzip\""), "compression", "output.compression",
                 "unknown value \"gzip\" (allowed: \"lz4\", \"zlib\" or \"none\")");
}

TEST_CASE("impossible mesh, initial and case settings", "[case]") {
  check_error_at(replace(valid_case(), "cells = [4, 4, 1]", "cells = [4, 0, 1]"), "cells", "mesh.cells", "every count must be >= 1 (got 0)");
  check_error_at(replace(valid_case(), "length = [1.0, 1.0, 0.25]", "length = [1.0, -1.0, 0.25]"), "length", "mesh.length", "must be > 0");
  check_error_at(replace(valid_case(), "generator = \"hex\"", "generator = \"hexa\""), "generator", "mesh.generator", "unknown value \"hexa\"");
  check_error_at(replace(valid_case(), "periodic = \"z\"", "periodic = \"zw\""), "periodic", "mesh.periodic", "'w' is not an axis");
  check_error_at(replace(valid_case(), "periodic = \"z\"", "periodic = \"zz\""), "periodic", "mesh.periodic", "axis z is given twice");
  check_error_at(replace(valid_case(), "generator = \"hex\"", "generator = \"prism\"\nstretch = [0, 0, -1]"), "stretch", "mesh.stretch", "must be >= 0");
  check_error_at(replace(valid_case(), "generator = \"hex\"\ncells = [4, 4, 1]\nlength = [1.0, 1.0, 0.25]\nperiodic = \"z\"",
                         "generator = \"prism\"\ncells = [4, 4, 1]\nlength = [1.0, 1.0, 0.25]\nperiodic = \"xz\""),
                 "periodic", "mesh.periodic", "the prism generator can only be periodic in z");
  check_error(replace(valid_case(), "cells = [4, 4, 1]\n", ""), "mesh.cells", "required for generator \"hex\"");
  check_error_at(add(valid_case(), "[initial]", "type = \"taylor-green-2d\"\namplitude = 0"), "amplitude", "initial.amplitude", "must be > 0");
  check_error(add(valid_case(), "[initial]", "type = \"uniform\""), "initial.velocity", "required for type \"uniform\"");
  check_error_at(add(valid_case(), "[initial]", "type = \"vortex\""), "type = \"vortex\"", "initial.type", "unknown value \"vortex\"");
  // The channel start needs walls in y and periods in x and z: the box is periodic in z only.
  check_error_at(add(valid_case(), "[initial]", "type = \"channel\""), "type = \"channel\"", "initial.type",
                 "needs a generated box (hex, tet or prism) periodic in x and z");
  check_error_at(replace(valid_case(), "name = \"box\"", "name = \"cavity\""), "name = ", "case.name",
                 "\"cavity\" does not match the file name (expected \"box\")");
}

TEST_CASE("boundary tables against a generated box", "[case]") {
  check_error_at(replace(valid_case(), "type = \"moving-wall\"", "type = \"lid\""), "type = \"lid\"", "boundary.ymax.type",
                 "unknown value \"lid\"");
  check_error(replace(valid_case(), "velocity = [1, 0, 0]\n", ""), "boundary.ymax.velocity", "required for type \"moving-wall\"");
  check_error_at(add(valid_case(), "[boundary.lid]", "type = \"wall\""), "[boundary.lid]", "boundary.lid",
                 "the generated hex mesh has no patch \"lid\" (its patches: xmin, xmax, ymin, ymax)");
  check_error_at(replace(valid_case(), "[boundary.xmin]\ntype = \"wall\"\n", ""), "[boundary.xmax]", "boundary",
                 "no condition for patch(es) xmin of the generated hex mesh");
  check_error_at(add(valid_case(), "[boundary.zmin]", "type = \"wall\""), "[boundary.zmin]", "boundary.zmin",
                 "patch zmin is periodic in the generated hex mesh and takes no condition");
}
