// Malformed files, made by editing or truncating good ones in a temporary folder: each must throw
// miniapp::Error naming the file and the problem, and no byte sequence may crash the reader.
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>

#include "gmsh_test_files.hpp"
#include "mesh/gmsh_reader.hpp"

namespace miniapp::mesh::test {
namespace {

using Catch::Matchers::Contains;

// The message of the miniapp::Error that `read` throws; any other exception escapes and fails the test.
std::string error_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const miniapp::Error& e) {
    return e.what();
  }
  FAIL("no miniapp::Error was thrown");
  return "";
}

std::string error_3d(const ScratchDir& dir, const std::string& text) {
  const std::string path = dir.write("bad.msh", text);
  const std::string message = error_of([&] { read_gmsh_3d(path); });
  CHECK_THAT(message, Contains(path));
  return message;
}

std::string error_2d(const ScratchDir& dir, const std::string& text) {
  const std::string path = dir.write("bad2d.msh", text);
  const std::string message = error_of([&] { read_gmsh_2d(path); });
  CHECK_THAT(message, Contains(path));
  return message;
}

// The 16-bit LCG of the C standard, enough to pick corruptions reproducibly.
struct Random {
  std::uint32_t state;
  std::uint32_t next() { return (state = state * 1103515245u + 12345u) >> 8; }
};

}  // namespace

TEST_CASE("a missing file is reported with its path", "[gmsh][errors]") {
  ScratchDir dir;
  const std::string path = dir.write("present.msh", "") + ".absent";
  CHECK_THAT(error_of([&] { read_gmsh_3d(path); }), Contains(path) && Contains("no such file"));
  CHECK_THAT(error_of([&] { read_gmsh_2d(path); }), Contains(path) && Contains("no such file"));
}

TEST_CASE("other formats and versions are refused", "[gmsh][errors]") {
  ScratchDir dir;
  CHECK_THAT(error_3d(dir, replace_once(hex_cube_msh, "4.1 0 8", "2.2 0 8")),
             Contains("unsupported MSH format version 2.2 (need 4.1)"));
  CHECK_THAT(error_3d(dir, "solid cube\nfacet normal 0 0 1\n"), Contains("not a Gmsh mesh file"));
  CHECK_THAT(error_3d(dir, ""), Contains("end of file"));
}

TEST_CASE("unknown and second-order element types are named", "[gmsh][errors]") {
  ScratchDir dir;
  CHECK_THAT(error_3d(dir, replace_once(hex_cube_msh, "3 1 5 1\n", "3 1 99 1\n")),
             Contains("unsupported element type 99") && Contains("$Elements"));
  CHECK_THAT(error_3d(dir, replace_once(hex_cube_msh, "3 1 5 1\n", "3 1 11 1\n")),
             Contains("element type 11 (second-order 10-node tetrahedron)"));
}

TEST_CASE("boundary faces outside every physical group leave the mesh open", "[gmsh][errors]") {
  ScratchDir dir;
  const std::string text = replace_once(hex_cube_msh, "1 0 0 0 1 1 1 1 7 0\n", "1 0 0 0 1 1 1 0 0\n");
  CHECK_THAT(error_3d(dir, text), Contains("6 surface elements of the file are in no physical group"));
  const std::string text_2d = replace_once(square_2d_msh, "2 0 0 0.5 0 1 0.5 1 2 0", "2 0 0 0.5 0 1 0.5 0 0");
  CHECK_THAT(error_2d(dir, text_2d), Contains("the edge between nodes 1 and 4") && Contains("no physical curve group"));
}

TEST_CASE("records with the wrong number of fields name the line", "[gmsh][errors]") {
  ScratchDir dir;
  const std::string text = replace_once(hex_cube_msh, "$Nodes\n2 8 3 80\n", "$Nodes\n2 8\n");
  const std::string line = "line " + std::to_string(line_of(text, "$Nodes") + 1);
  CHECK_THAT(error_3d(dir, text), Contains(line + ": $Nodes: expected 4 numbers, found 2"));
  CHECK_THAT(error_3d(dir, replace_once(hex_cube_msh, "0 1 1\n$EndNodes", "0 1 x\n$EndNodes")),
             Contains("expected a real number, found 'x'"));
}

TEST_CASE("undefined and duplicated node tags are refused", "[gmsh][errors]") {
  ScratchDir dir;
  const std::string text = replace_once(hex_cube_msh, "7 3 10 20 40 50 60 70 80", "7 3 10 20 40 50 60 70 999");
  const std::string line = "line " + std::to_string(line_of(text, "7 3 10 20 40 50 60 70 999"));
  CHECK_THAT(error_3d(dir, text),
             Contains(line + ": $Elements: element 7 (hexahedron) references node 999, which $Nodes does not define"));
  CHECK_THAT(error_3d(dir, replace_once(hex_cube_msh, "3\n10\n20\n40\n", "3\n10\n20\n10\n")),
             Contains("node tag 10 is defined twice"));
}

TEST_CASE("counts that do not add up are refused", "[gmsh][errors]") {
  ScratchDir dir;
  CHECK_THAT(error_3d(dir, replace_once(hex_cube_msh, "2 8 3 80", "2 9 3 80")),
             Contains("the blocks hold 8 nodes but the header declares 9"));
  CHECK_THAT(error_3d(dir, replace_once(hex_cube_msh, "$Elements\n2 7 1 7", "$Elements\n2 8 1 7")),
             Contains("the blocks hold 7 elements but the header declares 8"));
  CHECK_THAT(error_3d(dir, replace_once(hex_cube_msh, "$Elements\n2 7 1 7", "$Elements\n2 5 1 7")),
             Contains("the blocks hold more elements than the header declares"));
  CHECK_THAT(error_3d(dir, replace_once(hex_cube_msh, "$Elements\n2 7 1 7", "$Elements\n1 6 1 7")),
             Contains("expected $EndElements"));
}

TEST_CASE("truncated ASCII and binary files end in an error, wherever the cut", "[gmsh][errors]") {
  ScratchDir dir;
  for (const char* name : {"mixed.msh", "mixed_binary.msh"}) {
    const std::string full = read_bytes(mesh_file(name));
    const std::size_t end = full.rfind("$EndElements");
    for (std::size_t cut = 0; cut < end; cut += 1 + full.size() / 150) error_3d(dir, full.substr(0, cut));
    const std::size_t in_nodes = full.find("$Nodes") + 200, in_elements = end - 30;
    CHECK_THAT(error_3d(dir, full.substr(0, in_nodes)), Contains("$Nodes") && Contains("truncated"));
    CHECK_THAT(error_3d(dir, full.substr(0, in_elements)), Contains("$Elements") && Contains("truncated"));
  }
}

TEST_CASE("binary counts beyond the file size are refused before allocating", "[gmsh][errors]") {
  ScratchDir dir;
  std::string text = read_bytes(mesh_file("mixed_binary.msh"));
  const std::size_t count_at = text.find("$Nodes\n") + 7 + 8;  // numEntityBlocks, then numNodes
  text[count_at + 7] = 0x10;                                   // little-endian: 2^60 + the true count
  CHECK_THAT(error_3d(dir, text), Contains("$Nodes") && Contains("cannot fit"));
}

TEST_CASE("2D reads refuse 3D and non-planar meshes, 3D reads refuse 2D meshes", "[gmsh][errors]") {
  ScratchDir dir;
  CHECK_THAT(error_2d(dir, read_bytes(mesh_file("tet_box.msh"))), Contains("holds volume elements"));
  CHECK_THAT(error_3d(dir, read_bytes(mesh_file("cylinder_2d.msh"))), Contains("no volume elements"));
  CHECK_THAT(error_2d(dir, replace_once(square_2d_msh, "0 1 0.5\n$EndNodes", "0 1 0.7\n$EndNodes")),
             Contains("not planar in z: node 4 has z = 0.7"));
}

TEST_CASE("random byte corruptions either read or throw miniapp::Error", "[gmsh][errors]") {
  ScratchDir dir;
  Random random{2024};
  for (const char* name : {"mixed.msh", "mixed_binary.msh", "cylinder_2d_binary.msh"}) {
    const std::string good = read_bytes(mesh_file(name));
    for (int trial = 0; trial < 100; ++trial) {
      std::string text = good;
      const int changes = 1 + static_cast<int>(random.next() % 4);
      for (int k = 0; k < changes; ++k) text[random.next() % text.size()] = static_cast<char>(random.next() % 256);
      const std::string path = dir.write("fuzz.msh", text);
      try {
        if (gmsh_dimension(path) == 3) {
          read_gmsh_3d(path);
        } else {
          read_gmsh_2d(path);
        }
      } catch (const miniapp::Error& e) {
        CHECK_THAT(e.what(), Contains(path));
      }
    }
  }
}

}  // namespace miniapp::mesh::test
