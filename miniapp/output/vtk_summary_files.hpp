#pragma once
// Rank 0's small XML files beside the pieces (internal to the VTK writer): the .pvtu of a step and the
// .pvd collection of all steps. Generated with vtkXMLDataElement; no VTK type appears here.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace miniapp::output {

struct PvtuArray {
  std::string name;
  int components = 1;
};

// The attributes of the pieces' <VTKFile> element, which the summary must repeat.
struct VtkFileFormat {
  std::string byte_order;   // "LittleEndian" or "BigEndian"
  std::string header_type;  // "UInt32" or "UInt64"
};

// Writes a .pvtu naming `pieces` (paths relative to the .pvtu), whose cell data are `arrays`
// (Float64) and whose points are Float64; atomically, so a reader never sees half a file.
void write_pvtu(const std::filesystem::path& path, const VtkFileFormat& format,
                const std::vector<PvtuArray>& arrays, const std::vector<std::string>& pieces);

// The .pvd time series of a run, rewritten whole (atomically) after each added step.
class PvdCollection {
 public:
  // Starts empty, or on a restart reads the existing file at `path` (if any) and keeps its entries
  // with step <= restart_step. Throws miniapp::Error if that file cannot be parsed.
  PvdCollection(std::filesystem::path path, std::optional<long> restart_step);

  // Adds (or replaces) the entry of `step` and rewrites the file.
  void add(long step, double time, const std::string& file);

 private:
  struct Entry {
    long step;
    double time;
    std::string file;
  };
  void load(long restart_step);
  void save() const;

  std::filesystem::path path_;
  std::vector<Entry> entries_;
};

}  // namespace miniapp::output
