#pragma once
#include <filesystem>
#include <string>

namespace miniapp::mesh::test {

// The shipped mesh `name` in cases/meshes.
std::string mesh_file(const std::string& name);
std::string read_bytes(const std::string& path);

// `text` with its first occurrence of `from` replaced by `to`; fails the test when `from` is absent.
std::string replace_once(std::string text, const std::string& from, const std::string& to);

// The 1-based number of the line holding the first occurrence of `what` in `text`.
int line_of(const std::string& text, const std::string& what);

// A fresh temporary folder for malformed copies, removed with everything in it at the end of the test.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  // Writes `contents` to the file `name` in the folder and returns its path.
  std::string write(const std::string& name, const std::string& contents) const;

 private:
  std::filesystem::path dir_;
};

// A unit cube as one hexahedron with sparse node tags 3..80 in two node blocks, its six faces in the
// physical surface "walls", and a $Comments section the reader must skip.
extern const char* const hex_cube_msh;

// The unit square at z = 0.5 as two triangles, the second clockwise; three edges in the curve group
// "walls", the fourth (x = 0) in the unnamed group 2.
extern const char* const square_2d_msh;

}  // namespace miniapp::mesh::test
