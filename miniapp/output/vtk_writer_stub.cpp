// VtkWriter of a build without VTK (MINIAPP_VTK=OFF): constructing one says how to get output.
#include "core/error.hpp"
#include "miniapp/output/vtk_writer.hpp"

namespace miniapp::output {

struct VtkWriter::Impl {};

VtkWriter::VtkWriter(const mesh::Mesh&, VtkWriterOptions options) {
  throw Error("VTK output to " + options.directory.string() +
              ": this build has no VTK (configured with MINIAPP_VTK=OFF); install libvtk9-dev and "
              "reconfigure with -DMINIAPP_VTK=ON, or turn VTK output off with --set output.fields=[]");
}

VtkWriter::~VtkWriter() = default;

// Unreachable: no VtkWriter can be constructed in this build.
void VtkWriter::write(long, double, const CellFields&) {}

}  // namespace miniapp::output
