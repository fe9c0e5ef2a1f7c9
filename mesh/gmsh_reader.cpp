#include "mesh/gmsh_reader.hpp"

#include "mesh/gmsh_convert.hpp"
#include "mesh/gmsh_file.hpp"
#include "core/error.hpp"

namespace miniapp::mesh {

namespace {

// A builder error reworded for a file: it names the file, and an open mesh whose file has surface
// elements outside every physical group points at the likely cause.
Error with_file_context(const gmsh::GmshFile& file, const Error& error) {
  std::string message = error.what();
  if (message.find(file.path) == std::string::npos) message = file.path + ": " + message;
  const std::size_t ungrouped = gmsh::ungrouped_element_count(file, 2);
  if (ungrouped > 0)
    message += " (" + std::to_string(ungrouped) +
               " surface elements of the file are in no physical group and so are no boundary faces; "
               "put every boundary surface in a Physical Surface)";
  return Error(message);
}

}  // namespace

Mesh read_gmsh_3d(const std::string& path, const std::vector<PeriodicRequest>& periodic) {
  return gmsh_mesh_3d(gmsh::read_gmsh_file(path), periodic);
}

Mesh gmsh_mesh_3d(const gmsh::GmshFile& file, const std::vector<PeriodicRequest>& periodic, StageProfile* profile) {
  CellSoup soup;
  {
    StageProfile::Part t(profile, "cell soup");
    soup = gmsh::to_cell_soup(file);
  }
  try {
    return build_mesh(soup, periodic, file.path, profile);
  } catch (const Error& error) {
    throw with_file_context(file, error);
  }
}

Mesh2d read_gmsh_2d(const std::string& path) { return gmsh::to_mesh2d(gmsh::read_gmsh_file(path)); }

int gmsh_dimension(const std::string& path) { return gmsh_dimension(gmsh::read_gmsh_file(path)); }

int gmsh_dimension(const gmsh::GmshFile& file) {
  const int dim = file.dimension();
  if (dim < 2) throw file_error(file.path, "no surface or volume elements");
  return dim;
}

}  // namespace miniapp::mesh
