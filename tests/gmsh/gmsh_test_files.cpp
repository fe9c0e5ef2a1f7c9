#include "gmsh_test_files.hpp"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>

namespace miniapp::mesh::test {

std::string mesh_file(const std::string& name) { return std::string(MINIAPP_MESH_DIR) + "/" + name; }

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.is_open());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

int line_of(const std::string& text, const std::string& what) {
  const std::size_t at = text.find(what);
  REQUIRE(at != std::string::npos);
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

ScratchDir::ScratchDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "gmsh_test_XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  dir_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::string ScratchDir::write(const std::string& name, const std::string& contents) const {
  const std::string path = (dir_ / name).string();
  std::ofstream out(path, std::ios::binary);
  out << contents;
  REQUIRE(out.good());
  return path;
}

const char* const hex_cube_msh = R"($MeshFormat
4.1 0 8
$EndMeshFormat
$PhysicalNames
2
2 7 "walls"
3 8 "fluid"
$EndPhysicalNames
$Comments
a section this reader does not know
$EndComments
$Entities
0 0 1 1
1 0 0 0 1 1 1 1 7 0
1 0 0 0 1 1 1 1 8 1 1
$EndEntities
$Nodes
2 8 3 80
2 1 0 4
3
10
20
40
0 0 0
1 0 0
1 1 0
0 1 0
3 1 0 4
50
60
70
80
0 0 1
1 0 1
1 1 1
0 1 1
$EndNodes
$Elements
2 7 1 7
2 1 3 6
1 3 40 20 10
2 50 60 70 80
3 3 10 60 50
4 10 20 70 60
5 20 40 80 70
6 40 3 50 80
3 1 5 1
7 3 10 20 40 50 60 70 80
$EndElements
)";

const char* const square_2d_msh = R"($MeshFormat
4.1 0 8
$EndMeshFormat
$PhysicalNames
1
1 1 "walls"
$EndPhysicalNames
$Entities
0 2 1 0
1 0 0 0.5 1 1 0.5 1 1 0
2 0 0 0.5 0 1 0.5 1 2 0
1 0 0 0.5 1 1 0.5 1 3 0
$EndEntities
$Nodes
1 4 1 4
2 1 0 4
1
2
3
4
0 0 0.5
1 0 0.5
1 1 0.5
0 1 0.5
$EndNodes
$Elements
3 6 1 6
1 1 1 3
1 1 2
2 2 3
3 3 4
1 2 1 1
4 4 1
2 1 2 2
5 1 2 3
6 1 4 3
$EndElements
)";

}  // namespace miniapp::mesh::test
