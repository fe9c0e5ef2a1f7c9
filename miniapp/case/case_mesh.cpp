#include "miniapp/case/case_mesh.hpp"

#include "mesh/generators.hpp"
#include "mesh/gmsh_convert.hpp"
#include "mesh/gmsh_reader.hpp"

namespace miniapp::cases {

namespace {

mesh::Mesh make_prism_box(const MeshConfig& m) {
  mesh::RectSpec rect;
  rect.cells = {m.cells[0], m.cells[1]};
  rect.origin = {m.origin.x, m.origin.y};
  rect.length = {m.length.x, m.length.y};
  rect.stretch = {m.stretch[0], m.stretch[1]};
  return mesh::extrude(mesh::make_tri_rect(rect), {m.cells[2], m.origin.z, m.length.z, m.periodic[2]});
}

// A 3D file's periodic axes glue its patches <axis>min and <axis>max, length[axis] apart.
std::vector<mesh::PeriodicRequest> periodic_requests(const MeshConfig& m) {
  std::vector<mesh::PeriodicRequest> requests;
  for (int i = 0; i < 3; ++i) {
    if (!m.periodic[i]) continue;
    const std::string axis(1, "xyz"[i]);
    Vec3 translation;
    translation[i] = m.length[i];
    requests.push_back({axis + "min", axis + "max", translation});
  }
  return requests;
}

// The file is read once, then made a 3D mesh or a 2D mesh to extrude.
mesh::Mesh read_mesh_file(const MeshConfig& m, StageProfile* profile) {
  mesh::gmsh::GmshFile file;
  {
    StageProfile::Part t(profile, "file read");
    file = mesh::gmsh::read_gmsh_file(m.file);
  }
  const int dimension = mesh::gmsh_dimension(file);
  if (dimension == 2 && m.layers == 0)
    throw file_error(m.file, "a 2D mesh: give mesh.layers and mesh.length_z in the case to extrude it");
  if (dimension == 3 && m.layers > 0)
    throw file_error(m.file, "a 3D mesh: mesh.layers and mesh.length_z are only for 2D files");
  if (dimension == 3) return mesh::gmsh_mesh_3d(file, periodic_requests(m), profile);
  return mesh::extrude(mesh::gmsh::to_mesh2d(file), {m.layers, 0, m.length_z, m.periodic[2]});
}

}  // namespace

mesh::Mesh make_case_mesh(const MeshConfig& m, StageProfile* profile) {
  if (m.generator == MeshGenerator::file) return read_mesh_file(m, profile);
  if (m.generator == MeshGenerator::prism) return make_prism_box(m);
  return m.generator == MeshGenerator::hex ? mesh::make_hex_box(box_spec(m), profile)
                                           : mesh::make_tet_box(box_spec(m), profile);
}

mesh::BoxSpec box_spec(const MeshConfig& m) { return {m.cells, m.origin, m.length, m.stretch, m.periodic}; }

}  // namespace miniapp::cases
