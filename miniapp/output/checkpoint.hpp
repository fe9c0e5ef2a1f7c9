#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mesh/mesh.hpp"

namespace miniapp::output {

// Identifies a mesh well enough to refuse a checkpoint written on another one: sizes plus a hash of
// node coordinates, cell types and connectivity, and face connectivity (face arrays are stored in face
// order, so a renumbering of faces must be caught too).
struct MeshFingerprint {
  std::uint64_t cell_count = 0;
  std::uint64_t face_count = 0;
  std::uint64_t node_count = 0;
  std::uint64_t hash = 0;

  bool operator==(const MeshFingerprint&) const = default;
};

// The fingerprint of `mesh` (one pass over its arrays).
MeshFingerprint mesh_fingerprint(const mesh::Mesh& mesh);

// Everything a restart needs from one rank: the time-step state and named arrays (u, v, w, u_old...,
// pressure, face_velocity...; any set, stored in the given order).
struct CheckpointData {
  std::string case_name;
  MeshFingerprint mesh;
  long step = 0;
  double time = 0;
  double dt = 0;
  double dt_old = 0;
  std::vector<std::pair<std::string, std::vector<double>>> arrays;

  // The array called `name`, which must hold `size` values; throws miniapp::Error otherwise.
  const std::vector<double>& array(std::string_view name, std::size_t size) const;
  // The array called `name`, or nullptr (for arrays that only some runs write).
  const std::vector<double>* find(std::string_view name) const;
};

// The file of `rank`: <dir>/checkpoint_r<rank>.bin.
std::filesystem::path checkpoint_path(const std::filesystem::path& dir, int rank);

// Writes rank `rank`'s checkpoint (magic, version, endianness mark, rank count, sizes, FNV-1a
// checksum of the payload) atomically: a crash while writing leaves the previous checkpoint intact.
// Creates `dir` if needed. Not collective: each rank writes its own file.
void write_checkpoint(const std::filesystem::path& dir, int rank, int rank_count, const CheckpointData& data);

// Reads rank `rank`'s checkpoint and validates it: the file exists, magic, version, byte order, rank
// count (must equal rank_count), sizes (not truncated), checksum, and the mesh fingerprint (must
// equal `mesh`). Throws miniapp::Error naming the file and what is wrong.
CheckpointData read_checkpoint(const std::filesystem::path& dir, int rank, int rank_count,
                               const MeshFingerprint& mesh);

}  // namespace miniapp::output
