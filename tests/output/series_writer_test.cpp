#include <catch2/catch.hpp>

#include <cstdlib>
#include <sstream>

#include "core/error.hpp"
#include "miniapp/output/series_writer.hpp"
#include "scratch_dir.hpp"

using namespace miniapp::output;
using miniapp::output::test::read_text;
using miniapp::output::test::ScratchDir;
using miniapp::output::test::write_text;

namespace {

const std::vector<std::string> columns{"time", "energy", "max_div", "iterations"};

// A row whose every value differs from step to step and needs all 17 digits.
std::vector<double> row(long step) {
  const double s = static_cast<double>(step);
  return {s / 3, 1 / (s + 0.3), 1e-15 / (s + 1), static_cast<double>(step % 7)};
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

void write_steps(const std::filesystem::path& dir, std::optional<long> restart, long first, long last) {
  SeriesWriter writer(dir / "diagnostics.csv", columns, restart);
  for (long s = first; s <= last; ++s) writer.write(s, row(s));
}

}  // namespace

TEST_CASE("a series CSV has the header and one exact line per step", "[output][diagnostics]") {
  ScratchDir dir("diag_fresh");
  SeriesWriter writer(dir.path() / "series.csv", columns);
  writer.write(1, row(1));
  writer.write(2, row(2));
  // Flushed per line: readable while the writer is still open.
  const auto text = lines(read_text(writer.path()));
  REQUIRE(text.size() == 3);
  CHECK(text[0] == "step,time,energy,max_div,iterations");
  std::vector<double> values;
  std::istringstream fields(text[2]);
  for (std::string f; std::getline(fields, f, ',');) values.push_back(std::strtod(f.c_str(), nullptr));
  REQUIRE(values.size() == 5);
  CHECK(values[0] == 2);
  const std::vector<double> expected = row(2);
  for (std::size_t i = 0; i < expected.size(); ++i) CHECK(values[i + 1] == expected[i]);
  CHECK_THROWS_WITH(writer.write(3, std::vector<double>{1.0}), Catch::Contains("1 values for 4 columns"));
}

TEST_CASE("a restarted run's diagnostics equal an uninterrupted run's", "[output][diagnostics]") {
  ScratchDir uninterrupted("diag_reference"), restarted("diag_restarted");
  write_steps(uninterrupted.path(), std::nullopt, 1, 8);

  // The first run got to step 6 and died while writing step 7's line; its checkpoint is at step 4.
  write_steps(restarted.path(), std::nullopt, 1, 6);
  const auto path = restarted.path() / "diagnostics.csv";
  write_text(path, read_text(path) + "7,2.3333,0.142");
  write_steps(restarted.path(), 4, 5, 8);
  CHECK(read_text(path) == read_text(uninterrupted.path() / "diagnostics.csv"));

  SECTION("a fresh run starts over") {
    write_steps(restarted.path(), std::nullopt, 1, 1);
    CHECK(lines(read_text(path)).size() == 2);
  }
  SECTION("a restart without a file starts one with the header") {
    std::filesystem::remove(path);
    write_steps(restarted.path(), 4, 5, 5);
    const auto text = lines(read_text(path));
    REQUIRE(text.size() == 2);
    CHECK(text[1].rfind("5,", 0) == 0);
  }
  SECTION("a file of another format is refused") {
    write_text(path, "step,time\n1,0.5\n");
    CHECK_THROWS_AS(write_steps(restarted.path(), 4, 5, 5), miniapp::Error);
    CHECK_THROWS_WITH(write_steps(restarted.path(), 4, 5, 5),
                      Catch::Contains("diagnostics.csv") && Catch::Contains("unexpected header"));
  }
}
