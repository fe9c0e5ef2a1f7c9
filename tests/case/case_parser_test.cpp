// Parsing: every shipped case, typed values and defaults, and the documentation of every key.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <unistd.h>

#include "case_test_util.hpp"
#include "miniapp/case/case_catalog.hpp"
#include "miniapp/case/case_schema.hpp"
#include "miniapp/case/case_validation.hpp"

using namespace miniapp::cases;
using namespace case_test;

TEST_CASE("every shipped case parses and validates", "[case]") {
  const std::vector<std::string> names = list_cases();
  // The cases the documentation promises; new files are covered by the loop automatically.
  for (const char* expected : {"default", "cavity", "cavity-3d", "taylor-green-2d", "taylor-green-3d", "channel"})
    CHECK(std::find(names.begin(), names.end(), expected) != names.end());
  for (const std::string& name : names) {
    INFO("case " << name);
    const CaseConfig c = load_case(case_path(name));
    CHECK(c.name == name);
    CHECK_FALSE(c.description.empty());
    CHECK(c.physics.nu > 0);
    CHECK(c.warnings.empty());
  }
}

TEST_CASE("the default case is the 2D cavity at Re 100 on 64x64", "[case]") {
  const CaseConfig c = load_case(case_path("default"));
  CHECK(c.mesh.cells == std::array<miniapp::index_t, 3>{64, 64, 1});
  CHECK(c.physics.re == Approx(100));
  CHECK(c.mesh.periodic == std::array<bool, 3>{false, false, true});
  REQUIRE(c.find_boundary("ymax") != nullptr);
  CHECK(c.find_boundary("ymax")->type == BoundaryType::moving_wall);
}

TEST_CASE("values and defaults of a minimal case", "[case]") {
  const CaseConfig c = parse(valid_case());
  CHECK(c.name == "box");
  CHECK(c.mesh.generator == MeshGenerator::hex);
  CHECK(c.mesh.length.z == Approx(0.25));
  CHECK(c.mesh.origin.x == 0);
  CHECK(c.physics.nu == Approx(0.01));
  CHECK(c.physics.les == LesModel::none);
  CHECK(c.initial.type == InitialType::rest);
  REQUIRE(c.boundaries.size() == 4);
  CHECK(c.find_boundary("ymax")->velocity.x == 1);
  CHECK(c.find_boundary("xmin")->type == BoundaryType::wall);
  CHECK(c.numerics.time_step == TimeStepMethod::cfl);
  CHECK(parse(add(valid_case(), "[numerics]", "time_step = \"eigenvalue\"")).numerics.time_step == TimeStepMethod::eigenvalue);
  CHECK(c.numerics.cfl == 0.5);
  CHECK_FALSE(c.numerics.dt.has_value());
  CHECK(c.numerics.preconditioner == Preconditioner::automatic);
  CHECK(c.numerics.fft_low_frequency_blocks == -1);
  CHECK_FALSE(c.numerics.amg_redundant_rows.has_value());
  CHECK(parse(add(valid_case(), "[numerics]", "amg_redundant_rows = 5000")).numerics.amg_redundant_rows == 5000);
  CHECK(parse(add(valid_case(), "[numerics]", "fft_low_frequency_blocks = 2")).numerics.fft_low_frequency_blocks == 2);
  CHECK(c.numerics.aip_form == AipFormChoice::automatic);
  CHECK(parse(add(valid_case(), "[numerics]", "aip_form = \"product\"")).numerics.aip_form == AipFormChoice::product);
  CHECK(c.numerics.poisson == PoissonSolver::pcg);
  CHECK(c.numerics.poisson_tolerance == 1e-8);
  CHECK(c.numerics.poisson_max_iterations == 1000);
  CHECK(c.run.max_steps == 10);
  CHECK_FALSE(c.run.end_time.has_value());
  CHECK(c.output.directory == "output/box");
  CHECK(c.output.fields.size() == 5);
  CHECK(c.output.has(OutputField::q_criterion));
  CHECK(c.output.compression == VtkCompression::lz4);
  CHECK(parse(add(valid_case(), "[output]", "compression = \"zlib\"")).output.compression == VtkCompression::zlib);
}

TEST_CASE("viscosity from re, U and L, or given directly", "[case]") {
  const std::string scaled = add(valid_case(), "[physics]", "reference_velocity = 2\nreference_length = 0.5");
  CHECK(parse(scaled).physics.nu == Approx(2 * 0.5 / 100));
  const CaseConfig by_nu = parse(replace(valid_case(), "re = 100", "nu = 0.004"));
  CHECK(by_nu.physics.nu == Approx(0.004));
  CHECK(by_nu.physics.re == Approx(250));
}

TEST_CASE("each LES model gets its documented default constant", "[case]") {
  const std::pair<const char*, double> models[] = {{"smagorinsky", 0.17}, {"wale", 0.325}, {"vreman", 0.07}, {"sigma", 1.5}};
  for (const auto& [model, constant] : models) {
    const CaseConfig c = parse(add(valid_case(), "[physics]", std::string("les = \"") + model + "\""));
    CHECK(name(c.physics.les) == model);
    CHECK(c.physics.les_constant == Approx(constant));
  }
  const std::string own = add(valid_case(), "[physics]", "les = \"wale\"\nles_constant = 0.5");
  CHECK(parse(own).physics.les_constant == 0.5);
}

TEST_CASE("suspicious settings give warnings, not errors", "[case]") {
  const CaseConfig c =
      parse(add(add(valid_case(), "[numerics]", "dt = 1e-3\ncfl = 1.5"), "[boundary.xmin]", "velocity = [1, 0, 0]"));
  REQUIRE(c.warnings.size() == 2);
  CHECK_THAT(c.warnings[0], Catch::Contains("boundary.xmin.velocity is ignored"));
  CHECK_THAT(c.warnings[1], Catch::Contains("numerics.cfl is ignored: numerics.dt fixes the time step"));
}

TEST_CASE("mesh.file is resolved against the case file's folder", "[case]") {
  const auto dir = std::filesystem::temp_directory_path() / ("miniapp_case_test_mesh_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "square.msh") << "not read by the parser\n";
  std::string text = replace(valid_case(), "generator = \"hex\"", "generator = \"file\"\nfile = \"square.msh\"\nlayers = 2\nlength_z = 0.5");
  text = replace(text, "cells = [4, 4, 1]\nlength = [1.0, 1.0, 0.25]\nperiodic = \"z\"\n", "");
  const CaseConfig c = parse_case(text, (dir / "box.toml").string());
  CHECK(c.mesh.file == (dir / "square.msh").string());
  CHECK(c.mesh.layers == 2);
  CHECK(c.mesh.length_z == 0.5);
  std::filesystem::remove_all(dir);
  CHECK_THAT(error_of(text), Catch::Contains("mesh.file") && Catch::Contains("cannot find some/folder/square.msh"));
}

TEST_CASE("physics.bulk_velocity is read, and refused where it cannot hold", "[case]") {
  const CaseConfig held = parse(add(valid_case(), "[physics]", "bulk_velocity = [2, 0, 0]"));
  REQUIRE(held.physics.bulk_velocity);
  CHECK(held.physics.bulk_velocity->x == 2.0);
  CHECK_FALSE(parse(valid_case()).physics.bulk_velocity);
  CHECK_THAT(error_of(add(valid_case(), "[physics]", "bulk_velocity = [0, 0, 0]")),
             Catch::Contains("physics.bulk_velocity") && Catch::Contains("zero vector"));
  const std::string open = replace(add(valid_case(), "[physics]", "bulk_velocity = [1, 0, 0]"),
                                   "[boundary.xmax]\ntype = \"wall\"", "[boundary.xmax]\ntype = \"outlet\"");
  CHECK_THAT(error_of(open), Catch::Contains("physics.bulk_velocity") && Catch::Contains("patch xmax is an outlet"));
}

// Keys of the documentation's key table: the first cell of each row, `like.this`.
std::set<std::string> documented_keys() {
  std::ifstream doc(MINIAPP_CASE_DOC);
  REQUIRE(doc.good());
  const std::regex row(R"(^\| `([a-z_]+\.[a-z_<>.]+)` \|)");
  std::set<std::string> keys;
  std::smatch m;
  for (std::string line; std::getline(doc, line);)
    if (std::regex_search(line, m, row)) keys.insert(m[1]);
  return keys;
}

TEST_CASE("docs/case-files.md documents exactly the keys of the schema", "[case]") {
  const std::set<std::string> documented = documented_keys();
  std::set<std::string> schema;
  for (const KeySpec& spec : case_schema()) schema.insert(std::string(spec.key));
  for (const std::string& key : schema) CHECK(documented.count(key) == 1);
  for (const std::string& key : documented) CHECK(schema.count(key) == 1);
  CHECK(documented.size() == schema.size());
}
