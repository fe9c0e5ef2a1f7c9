#pragma once
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "core/vtk_compression.hpp"
#include "mesh/mesh.hpp"
#include "miniapp/output/cell_fields.hpp"

namespace miniapp::output {

struct VtkWriterOptions {
  std::filesystem::path directory;
  std::string case_name;
  int rank = 0;
  int rank_count = 1;
  FieldSelection fields;
  // A restart from the checkpoint at this step keeps the .pvd entries with step <= restart_step.
  std::optional<long> restart_step;
  VtkCompression compression = VtkCompression::lz4;
};

// File names inside the output directory: one piece per rank and step, one summary per step (rank 0),
// one time-series collection for the run (rank 0; ParaView opens it as one dataset).
inline std::string vtk_piece_name(const std::string& case_name, long step, int rank) {
  return case_name + "_" + std::to_string(step) + "_r" + std::to_string(rank) + ".vtu";
}
inline std::string vtk_summary_name(const std::string& case_name, long step) {
  return case_name + "_" + std::to_string(step) + ".pvtu";
}
inline std::string vtk_collection_name(const std::string& case_name) { return case_name + ".pvd"; }

// Writes the selected cell fields of a rank's mesh as VTK XML (binary appended, compressed):
// <case>_<step>_r<rank>.vtu on every rank; on rank 0 also <case>_<step>.pvtu listing all ranks'
// pieces and <case>.pvd, the collection of all steps so far, rewritten atomically after each step.
// The grid (points, cells) is built once; each step only refills the cell arrays.
// In a build without VTK (MINIAPP_VTK=OFF) the constructor throws miniapp::Error saying so.
class VtkWriter {
 public:
  // Copies the geometry of `mesh` (cell node order is Gmsh's = VTK's); creates the directory.
  VtkWriter(const mesh::Mesh& mesh, VtkWriterOptions options);
  ~VtkWriter();
  VtkWriter(const VtkWriter&) = delete;
  VtkWriter& operator=(const VtkWriter&) = delete;

  // Writes step `step` at simulated time `time`. Every selected field of `fields` must hold
  // mesh.cell_count() values (unselected ones are ignored). Not collective, but rank 0's .pvtu names
  // every rank's piece, so all ranks must write the same steps.
  void write(long step, double time, const CellFields& fields);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace miniapp::output
