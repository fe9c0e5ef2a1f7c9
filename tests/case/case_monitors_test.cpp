// The observers' sections: [statistics], [forces.<patch>], [probes.<name>] and their bad input.
#include <catch2/catch.hpp>

#include "case_test_util.hpp"

using namespace case_test;
using Catch::Contains;
using miniapp::cases::CaseConfig;
using miniapp::cases::parse_case;

namespace {

// The valid box, periodic in x and z (walls ymin, ymax), for profiles along y.
std::string channel_box() {
  std::string text = replace(valid_case(), "periodic = \"z\"", "periodic = \"xz\"");
  text = replace(text, "[boundary.xmin]\ntype = \"wall\"\n\n[boundary.xmax]\ntype = \"wall\"\n\n", "");
  return text;
}

}  // namespace

TEST_CASE("statistics, forces and probes are read into typed structs", "[case]") {
  std::string text = channel_box();
  text += "\n[statistics]\nstart_time = 0.5\nsample_interval = 2\nprofile_axis = \"y\"\n";
  text += "\n[forces.ymin]\nreference_area = 2.0\nreference_velocity = 3\ndrag_direction = [2, 0, 0]\n";
  text += "\n[probes.centre]\nposition = [0.5, 0.5, 0.1]\n";
  text += "\n[probes.corner]\nposition = [0.1, 0.1, 0.1]\n";
  text = add(text, "[output]", "diagnostics_interval = 5");
  const CaseConfig c = parse_case(text, case_file);
  CHECK(c.statistics.enabled);
  CHECK(c.statistics.start_time == 0.5);
  CHECK(c.statistics.sample_interval == 2);
  CHECK(c.statistics.profile_axis == 1);
  REQUIRE(c.forces.size() == 1);
  CHECK(c.forces[0].patch == "ymin");
  CHECK(c.forces[0].reference_area == 2.0);
  CHECK(c.forces[0].reference_velocity == 3.0);
  CHECK(c.forces[0].reference_length == 1.0);  // physics.reference_length
  CHECK(c.forces[0].drag_direction.x == 1.0);  // normalised
  CHECK(c.forces[0].lift_direction.y == 1.0);
  REQUIRE(c.probes.size() == 2);
  CHECK(c.probes[0].name == "centre");
  CHECK(c.probes[1].position.x == 0.1);
  CHECK(c.output.diagnostics_interval == 5);
}

TEST_CASE("without the sections, no observer is configured", "[case]") {
  const CaseConfig c = parse_case(valid_case(), case_file);
  CHECK_FALSE(c.statistics.enabled);
  CHECK(c.forces.empty());
  CHECK(c.probes.empty());
  CHECK(c.output.diagnostics_interval == 1);
}

TEST_CASE("bad observer input is refused before any work, naming the key", "[case]") {
  const auto error = [](const std::string& text) {
    const std::string message = error_of(text);
    INFO(message);
    CHECK_THAT(message, Contains(case_file + ":"));
    return message;
  };
  const std::string box = channel_box();
  CHECK_THAT(error(add(box, "[run]", "end_time = 10") + "\n[statistics]\nstart_time = 20\n"),
             Contains("statistics.start_time") && Contains("not before run.end_time"));
  CHECK_THAT(error(valid_case() + "\n[statistics]\nstart_time = 0\nprofile_axis = \"y\"\n"),
             Contains("statistics.profile_axis") && Contains("not periodic in x"));
  CHECK_THAT(error(box + "\n[statistics]\nstart_time = 0\nprofile_axis = \"x\"\n"),
             Contains("axis x is periodic"));
  CHECK_THAT(error(box + "\n[statistics]\nstart_time = 0\nprofile_axis = \"r\"\n"), Contains("is not an axis"));
  CHECK_THAT(error(box + "\n[statistics]\nsample_interval = 3\n"), Contains("statistics.start_time") && Contains("required"));
  CHECK_THAT(error(box + "\n[forces.cylinder]\nreference_area = 1\n"),
             Contains("forces.cylinder") && Contains("has no patch \"cylinder\""));
  CHECK_THAT(error(box + "\n[forces.xmin]\nreference_area = 1\n"), Contains("has no patch \"xmin\""));  // periodic
  CHECK_THAT(error(box + "\n[forces.ymin]\nreference_area = 1\nreference_velocity = 0\n"),
             Contains("forces.ymin.reference_velocity") && Contains("must be > 0 (got 0)"));
  CHECK_THAT(error(box + "\n[forces.ymin]\nreference_area = 0\n"), Contains("forces.ymin.reference_area"));
  CHECK_THAT(error(box + "\n[forces.ymin]\nreference_area = 1\nlift_direction = [0, 0, 0]\n"),
             Contains("forces.ymin.lift_direction") && Contains("zero vector"));
  CHECK_THAT(error(box + "\n[forces.ymin]\n"), Contains("forces.ymin.reference_area") && Contains("required"));
  CHECK_THAT(error(box + "\n[probes.a]\nposition = [1, 2]\n"), Contains("probes.a.position") && Contains("expected an array of 3"));
  CHECK_THAT(error(box + "\n[probes.a]\npositon = [1, 2, 3]\n"), Contains("probes.a.positon") && Contains("did you mean probes.a.position?"));
  CHECK_THAT(error(add(box, "[output]", "diagnostics_interval = 0")), Contains("output.diagnostics_interval"));
}

TEST_CASE("Overrides by --set reach the observers' named tables", "[case]") {
  const std::vector<std::string> sets{"forces.ymin.reference_area=4", "probes.p.position=[0.5,0.5,0.1]",
                                      "statistics.start_time=1"};
  const CaseConfig c = parse_case(channel_box(), case_file, sets);
  REQUIRE(c.forces.size() == 1);
  CHECK(c.forces[0].reference_area == 4.0);
  REQUIRE(c.probes.size() == 1);
  CHECK(c.probes[0].position.y == 0.5);
  CHECK(c.statistics.start_time == 1.0);
}
