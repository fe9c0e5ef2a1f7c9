// libFuzzer target: any bytes as a Gmsh file, read as the mesh command reads one (its dimension, then
// the 3D reader, or the 2D reader and an extrusion) and built into a face-based mesh. A refusal is
// miniapp::Error; anything else is a finding. The reader takes a path: the bytes go to a file first.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "mesh/gmsh_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/miniapp_gmsh_fuzz_" + std::to_string(::getpid()) + ".msh";
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data),
                                                                static_cast<std::streamsize>(size));
  try {
    if (miniapp::mesh::gmsh_dimension(path) == 3) {
      miniapp::mesh::read_gmsh_3d(path);
    } else {
      const miniapp::mesh::Mesh2d plane = miniapp::mesh::read_gmsh_2d(path);
      miniapp::mesh::extrude(plane, {2, 0, 1.0, true});
    }
  } catch (const miniapp::Error&) {
  }
  return 0;
}
