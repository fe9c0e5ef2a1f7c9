// validate_boundaries: the case's [boundary.*] tables against the patches of a built mesh.
#include <algorithm>
#include <catch2/catch.hpp>

#include "case_test_util.hpp"
#include "mesh/generators.hpp"
#include "miniapp/case/case_mesh.hpp"
#include "miniapp/case/case_validation.hpp"

using namespace case_test;
using namespace miniapp;
using Catch::Contains;

namespace {

// Only the patch lists matter to validate_boundaries: a mesh with named patches and periodic links.
mesh::Mesh mesh_with_patches(const std::vector<std::string>& names, const std::vector<mesh::PeriodicLink>& links = {}) {
  mesh::Mesh m;
  for (const std::string& n : names) m.patches.push_back({n, 0, 1});
  m.periodic_links = links;
  return m;
}

std::string boundary_error(const cases::CaseConfig& c, const mesh::Mesh& m) {
  try {
    cases::validate_boundaries(c, m, "cases/box.toml");
  } catch (const Error& e) {
    return e.what();
  }
  FAIL("validate_boundaries did not throw");
  return "";
}

}  // namespace

TEST_CASE("validate_boundaries accepts a mesh whose patches all have conditions", "[case]") {
  const cases::CaseConfig c = parse(valid_case());
  const mesh::PeriodicLink z{"zmin", "zmax", {0, 0, 0.25}};
  CHECK_NOTHROW(cases::validate_boundaries(c, mesh_with_patches({"xmin", "xmax", "ymin", "ymax"}, {z}), "cases/box.toml"));
  CHECK_NOTHROW(cases::validate_boundaries(c, mesh_with_patches({"ymax", "ymin", "xmax", "xmin"}), "cases/box.toml"));
}

TEST_CASE("validate_boundaries: a case patch the mesh lacks", "[case]") {
  const cases::CaseConfig c = parse(valid_case());
  const std::string message = boundary_error(c, mesh_with_patches({"xmin", "xmax", "ymin", "lid"}));
  CHECK_THAT(message, Contains("cases/box.toml:" + std::to_string(line_of(valid_case(), "[boundary.ymax]")) +
                               ": boundary.ymax: the mesh has no patch \"ymax\" (its patches: xmin, xmax, ymin, lid)"));
}

TEST_CASE("validate_boundaries: a mesh patch without a condition", "[case]") {
  const cases::CaseConfig c = parse(valid_case());
  const std::string message = boundary_error(c, mesh_with_patches({"xmin", "xmax", "ymin", "ymax", "inlet", "outlet"}));
  CHECK_THAT(message, Contains("cases/box.toml") && Contains("no condition for patch(es) inlet, outlet of the mesh"));
}

TEST_CASE("validate_boundaries: a condition on a periodic patch", "[case]") {
  const cases::CaseConfig c = parse(valid_case());
  const mesh::PeriodicLink x{"xmin", "xmax", {1, 0, 0}};
  const std::string message = boundary_error(c, mesh_with_patches({"ymin", "ymax"}, {x}));
  CHECK_THAT(message, Contains("boundary.xmax: patch xmax is periodic in the mesh and takes no condition"));
}

TEST_CASE("validate_boundaries on a generated hex box, both ways", "[case]") {
  const cases::CaseConfig c = parse(valid_case());
  mesh::BoxSpec spec;
  spec.cells = {2, 2, 1};
  spec.periodic = {false, false, true};
  const mesh::Mesh box = mesh::make_hex_box(spec);
  CHECK_NOTHROW(cases::validate_boundaries(c, box, "cases/box.toml"));
  cases::CaseConfig extra = c;
  extra.boundaries.push_back({"lid", cases::BoundaryType::wall, {}});
  CHECK_THAT(boundary_error(extra, box), Contains("boundary.lid: the mesh has no patch \"lid\""));
  cases::CaseConfig missing = c;
  missing.boundaries.erase(missing.boundaries.begin());
  CHECK_THAT(boundary_error(missing, box), Contains("no condition for patch(es) " + c.boundaries.front().patch));
}

TEST_CASE("the patches validation expects are those the generators make", "[case]") {
  using cases::MeshGenerator;
  const std::array<bool, 3> periodic_sets[] = {{false, false, false}, {false, false, true}, {true, false, true}, {true, true, true}};
  for (const MeshGenerator generator : {MeshGenerator::hex, MeshGenerator::tet, MeshGenerator::prism}) {
    for (const std::array<bool, 3>& periodic : periodic_sets) {
      if (generator == MeshGenerator::prism && (periodic[0] || periodic[1])) continue;  // refused by validation
      cases::CaseConfig c = parse(valid_case());
      c.mesh.generator = generator;
      c.mesh.periodic = periodic;
      std::vector<std::string> expected = cases::generated_patches(c.mesh), made;
      c.boundaries.clear();
      for (const std::string& p : expected) c.boundaries.push_back({p, cases::BoundaryType::wall, {}});
      INFO(cases::name(generator) << " periodic " << periodic[0] << periodic[1] << periodic[2]);
      const mesh::Mesh m = cases::make_case_mesh(c.mesh);
      CHECK_NOTHROW(cases::validate_boundaries(c, m, case_file));
      for (const mesh::Patch& p : m.patches) made.push_back(p.name);
      std::sort(expected.begin(), expected.end());
      std::sort(made.begin(), made.end());
      CHECK(made == expected);
    }
  }
}

TEST_CASE("a 2D mesh file is extruded and its patches checked", "[case]") {
  const std::string text = R"([case]
name = "cylinder"
[mesh]
generator = "file"
file = "meshes/cylinder_2d.msh"
layers = 2
length_z = 0.5
[physics]
re = 20
[boundary.inlet]
type = "inlet"
velocity = [1, 0, 0]
[boundary.outlet]
type = "outlet"
[boundary.walls]
type = "wall"
[run]
max_steps = 1
)";
  const std::string path = std::string(MINIAPP_CASES_DIR) + "/cylinder.toml";
  const cases::CaseConfig c = cases::parse_case(text, path);
  const mesh::Mesh m = cases::make_case_mesh(c.mesh);
  CHECK(m.periodic_links.size() == 1);
  CHECK_THAT(boundary_error(c, m), Contains("no condition for patch(es) cylinder of the mesh"));
  const cases::CaseConfig complete = cases::parse_case(text + "[boundary.cylinder]\ntype = \"wall\"\n", path);
  CHECK_NOTHROW(cases::validate_boundaries(complete, m, path));
  const std::string unextruded = replace(replace(text, "layers = 2\n", ""), "length_z = 0.5\n", "");
  CHECK_THROWS_WITH(cases::make_case_mesh(cases::parse_case(unextruded, path).mesh),
                    Contains("cylinder_2d.msh: a 2D mesh: give mesh.layers"));
}
