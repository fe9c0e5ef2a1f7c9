// The catalog of shipped cases: names from the cases folder, lookup errors, `miniapp list` lines.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "case_test_util.hpp"
#include "miniapp/case/case_catalog.hpp"

using namespace miniapp::cases;
using Catch::Contains;
namespace fs = std::filesystem;

namespace {

// A cases folder with two valid cases and a broken one, selected through MINIAPP_CASES_DIR for the
// lifetime of the object. One folder per process: CTest may run the tests in parallel.
struct TemporaryCases {
  fs::path dir = fs::temp_directory_path() / ("miniapp_case_catalog_test_" + std::to_string(getpid()));
  TemporaryCases() {
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const char* name : {"beta", "alpha"}) {
      const std::string text = case_test::replace(case_test::replace(case_test::valid_case(), "\"box\"", std::string("\"") + name + "\""),
                                                  "test box", std::string("the ") + name + " case");
      std::ofstream(dir / (std::string(name) + ".toml")) << text;
    }
    std::ofstream(dir / "broken.toml") << "[case]\nname = \"broken\"\n[physics]\nrey = 1\n";
    std::ofstream(dir / "notes.txt") << "not a case\n";
    setenv("MINIAPP_CASES_DIR", dir.c_str(), 1);
  }
  ~TemporaryCases() {
    unsetenv("MINIAPP_CASES_DIR");
    fs::remove_all(dir);
  }
};

}  // namespace

TEST_CASE("the cases folder is the source tree's cases/ unless MINIAPP_CASES_DIR says otherwise", "[case]") {
  unsetenv("MINIAPP_CASES_DIR");
  CHECK(fs::equivalent(cases_dir(), MINIAPP_CASES_DIR));
  const TemporaryCases temporary;
  CHECK(cases_dir() == temporary.dir.string());
  CHECK(list_cases() == std::vector<std::string>{"alpha", "beta", "broken"});
  CHECK(case_path("beta") == (temporary.dir / "beta.toml").string());
}

TEST_CASE("an unknown case name lists the available ones", "[case]") {
  const TemporaryCases temporary;
  try {
    case_path("gamma");
    FAIL("no error for an unknown case");
  } catch (const miniapp::Error& e) {
    CHECK_THAT(e.what(), Contains("unknown case 'gamma'") && Contains("alpha, beta, broken"));
  }
  CHECK_THROWS_AS(resolve_case("gamma"), miniapp::Error);
}

TEST_CASE("a case argument is a file path or a shipped name", "[case]") {
  const TemporaryCases temporary;
  CHECK(resolve_case("alpha") == (temporary.dir / "alpha.toml").string());
  CHECK(resolve_case("my/own.toml") == "my/own.toml");
  const std::string existing = (temporary.dir / "notes.txt").string();
  CHECK(resolve_case(existing) == existing);
}

TEST_CASE("the catalog lists each case with its description, broken ones with the reason", "[case]") {
  const TemporaryCases temporary;
  std::ostringstream out;
  print_catalog(out);
  std::istringstream lines(out.str());
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] == "alpha   the alpha case");
  CHECK(rows[1] == "beta    the beta case");
  CHECK_THAT(rows[2], Contains("broken  (invalid: ") && Contains("physics.rey: unknown key"));
}
