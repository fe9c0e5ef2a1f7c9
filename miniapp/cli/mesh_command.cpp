// miniapp mesh: build or read a mesh, print its statistics and checks.
#include <iostream>

#include "mesh/geometry.hpp"
#include "mesh/mesh_report.hpp"
#include "miniapp/case/case_mesh.hpp"
#include "miniapp/cli/command_line.hpp"
#include "miniapp/cli/commands.hpp"
#include "miniapp/cli/mesh_options.hpp"

namespace miniapp::cli {

int mesh_command(int argc, char** argv) {
  cxxopts::Options options("miniapp mesh", "Build or read a mesh (miniapp mesh FILE.msh, or --mesh) and print its\n"
                                           "statistics and checks.\n"
                                           "Exit status 1 when a cell is not closed.");
  add_mesh_options(options, MeshDefaults{});
  options.add_options()("h,help", "print this help");
  options.parse_positional({"mesh"});
  options.positional_help("[FILE.msh|hex|tet|prism]");
  const auto result = parse_command_line(options, argc, argv);
  if (!result) return 0;
  const cases::MeshConfig mesh_options = parse_mesh_options(*result);

  const mesh::Mesh m = cases::make_case_mesh(mesh_options);
  const mesh::MeshGeometry geometry = mesh::compute_geometry(m);
  const mesh::MeshReport report = mesh::make_report(m, geometry);
  std::cout << "mesh: " << describe(mesh_options) << "\n";
  mesh::print_report(std::cout, m, report);
  if (report.open_cells > 0) {
    std::cerr << "miniapp mesh: " << report.open_cells << " cells are not closed (max closure error "
              << report.max_closure_error << ")\n";
    return 1;
  }
  return 0;
}

}  // namespace miniapp::cli
