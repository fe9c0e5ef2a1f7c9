#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"
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

// The case settings a restart must not change (Re, LES model, boundary velocities...): dotted key and
// value as text, in a fixed order.
using CaseSettings = std::vector<std::pair<std::string, std::string>>;

// "physics.re: 100 in the checkpoint, 400 now; ..." for every setting that differs, "" when none.
std::string describe_setting_changes(const CaseSettings& checkpoint, const CaseSettings& now);

// Everything a restart needs from one rank: the time-step state, the case settings it ran with, and
// named arrays (u, v, w, u_old..., pressure, face_velocity...; any set, stored in the given order) and
// scalars, so that observers can carry their own state (time averages...) through a restart.
struct CheckpointData {
  std::string case_name;
  MeshFingerprint mesh;
  long step = 0;
  double time = 0;
  double dt = 0;
  double dt_old = 0;
  CaseSettings settings;
  std::vector<std::pair<std::string, std::vector<double>>> arrays;
  std::vector<std::pair<std::string, double>> scalars;

  // The array called `name`, which must hold `size` values; throws miniapp::Error otherwise.
  const std::vector<double>& array(std::string_view name, std::size_t size) const;
  // The array called `name`, or nullptr (for arrays that only some runs write).
  const std::vector<double>* find(std::string_view name) const;
  // The scalar called `name`; throws miniapp::Error when there is none.
  double scalar(std::string_view name) const;
};

// A readable checkpoint of another run (rank count, mesh): no older checkpoint of the same folder
// can do better, so a restart refuses rather than falls back.
class CheckpointMismatch : public Error {
 public:
  using Error::Error;
};

// The file of `rank` in the generation of `step`: <dir>/checkpoint_<step>_r<rank>.bin.
std::filesystem::path checkpoint_path(const std::filesystem::path& dir, long step, int rank);

// Writes rank `rank`'s checkpoint file of generation data.step, with header (magic, version,
// endianness mark, rank, rank count, step, time, hashes of the settings and of the mesh, payload size
// and FNV-1a checksum), into its temporary file (temporary_path of checkpoint_path), fsync'ed; creates
// `dir` if needed. commit_checkpoint renames it into place. Not collective.
void write_checkpoint_temporary(const std::filesystem::path& dir, int rank, int rank_count, const CheckpointData& data);
void commit_checkpoint(const std::filesystem::path& dir, long step, int rank);

// Reads rank `rank`'s file of generation `step` and validates it: the file exists, magic, version,
// byte order, rank, sizes (not truncated), checksum, header against payload. Throws miniapp::Error
// naming the file and what is wrong; CheckpointMismatch when it is sound but of another rank count
// or mesh than `rank_count` and `mesh`.
CheckpointData read_checkpoint(const std::filesystem::path& dir, long step, int rank, int rank_count,
                               const MeshFingerprint& mesh);

}  // namespace miniapp::output
