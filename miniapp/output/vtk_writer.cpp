#include "miniapp/output/vtk_writer.hpp"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
#include <vtkIdTypeArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <functional>

#include "core/error.hpp"
#include "miniapp/output/folder.hpp"
#include "miniapp/output/vtk_summary_files.hpp"

namespace miniapp::output {
namespace {

unsigned char vtk_cell_type(mesh::CellType type) {
  switch (type) {
    case mesh::CellType::tetrahedron: return VTK_TETRA;
    case mesh::CellType::pyramid: return VTK_PYRAMID;
    case mesh::CellType::prism: return VTK_WEDGE;
    case mesh::CellType::hexahedron: return VTK_HEXAHEDRON;
  }
  throw Error("VTK output: unknown cell type " + std::to_string(static_cast<int>(type)));
}

// Points and cells of `mesh`; mesh node order is VTK's, so connectivity is copied as is.
void build_grid(const mesh::Mesh& mesh, vtkUnstructuredGrid* grid) {
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(mesh.node_count());
  for (index_t i = 0; i < mesh.node_count(); ++i) points->SetPoint(i, mesh.nodes[i].x, mesh.nodes[i].y, mesh.nodes[i].z);
  grid->SetPoints(points);

  vtkNew<vtkIdTypeArray> offsets, connectivity;
  offsets->SetNumberOfValues(static_cast<vtkIdType>(mesh.cell_node_offsets.size()));
  for (std::size_t i = 0; i < mesh.cell_node_offsets.size(); ++i) offsets->SetValue(i, mesh.cell_node_offsets[i]);
  connectivity->SetNumberOfValues(static_cast<vtkIdType>(mesh.cell_nodes.size()));
  for (std::size_t i = 0; i < mesh.cell_nodes.size(); ++i) connectivity->SetValue(i, mesh.cell_nodes[i]);
  vtkNew<vtkCellArray> cells;
  cells->SetData(offsets, connectivity);
  vtkNew<vtkUnsignedCharArray> types;
  types->SetNumberOfValues(mesh.cell_count());
  for (index_t c = 0; c < mesh.cell_count(); ++c) types->SetValue(c, vtk_cell_type(mesh.cell_types[c]));
  grid->SetCells(types, cells);
}

// One selected cell array: its VTK array (kept in the grid) and where its values come from.
struct CellArray {
  vtkNew<vtkDoubleArray> values;
  std::function<void(const CellFields&, vtkDoubleArray*)> fill;
};

// Copies component `k` of a cell field into the array, after checking its size.
void copy_component(const std::vector<double>& field, vtkDoubleArray* array, int k) {
  const vtkIdType n = array->GetNumberOfTuples();
  if (static_cast<vtkIdType>(field.size()) != n)
    throw Error(std::string("VTK output: cell field '") + array->GetName() + "' has " +
                std::to_string(field.size()) + " values, the mesh has " + std::to_string(n) + " cells");
  for (vtkIdType c = 0; c < n; ++c) array->SetComponent(c, k, field[c]);
}

}  // namespace

struct VtkWriter::Impl {
  VtkWriterOptions options;
  vtkNew<vtkUnstructuredGrid> grid;
  std::vector<std::unique_ptr<CellArray>> arrays;
  vtkNew<vtkXMLUnstructuredGridWriter> writer;
  std::optional<PvdCollection> collection;  // rank 0 only

  void add_array(const char* name, int components, std::function<void(const CellFields&, vtkDoubleArray*)> fill) {
    auto array = std::make_unique<CellArray>();
    array->values->SetName(name);
    array->values->SetNumberOfComponents(components);
    array->values->SetNumberOfTuples(grid->GetNumberOfCells());
    array->fill = std::move(fill);
    grid->GetCellData()->AddArray(array->values);
    arrays.push_back(std::move(array));
  }

  void add_selected_arrays() {
    const FieldSelection& s = options.fields;
    const auto scalar = [](std::vector<double> CellFields::*field) {
      return [field](const CellFields& f, vtkDoubleArray* a) { copy_component(f.*field, a, 0); };
    };
    if (s.velocity)
      add_array("velocity", 3, [](const CellFields& f, vtkDoubleArray* a) {
        for (int k = 0; k < 3; ++k) copy_component(f.velocity[k], a, k);
      });
    if (s.pressure) add_array("pressure", 1, scalar(&CellFields::pressure));
    if (s.eddy_viscosity) add_array("eddy_viscosity", 1, scalar(&CellFields::eddy_viscosity));
    if (s.vorticity_magnitude) add_array("vorticity_magnitude", 1, scalar(&CellFields::vorticity_magnitude));
    if (s.q_criterion) add_array("q_criterion", 1, scalar(&CellFields::q_criterion));
    if (!s.statistics) return;
    add_array("mean_velocity", 3, [](const CellFields& f, vtkDoubleArray* a) {
      for (int k = 0; k < 3; ++k) copy_component(f.mean_velocity[k], a, k);
    });
    add_array("mean_pressure", 1, scalar(&CellFields::mean_pressure));
    add_array("mean_eddy_viscosity", 1, scalar(&CellFields::mean_eddy_viscosity));
    add_array("reynolds_stress", 6, [](const CellFields& f, vtkDoubleArray* a) {
      for (int k = 0; k < 6; ++k) copy_component(f.reynolds_stress[k], a, k);
    });
  }

  void write_summary(long step) const {
    std::vector<PvtuArray> specs;
    for (const auto& a : arrays) specs.push_back({a->values->GetName(), a->values->GetNumberOfComponents()});
    std::vector<std::string> pieces;
    for (int r = 0; r < options.rank_count; ++r) pieces.push_back(vtk_piece_name(options.case_name, step, r));
    const VtkFileFormat format{writer->GetByteOrder() == vtkXMLWriter::BigEndian ? "BigEndian" : "LittleEndian",
                               writer->GetHeaderType() == vtkXMLWriter::UInt64 ? "UInt64" : "UInt32"};
    write_pvtu(options.directory / vtk_summary_name(options.case_name, step), format, specs, pieces);
  }
};

VtkWriter::VtkWriter(const mesh::Mesh& mesh, VtkWriterOptions options) : impl_(std::make_unique<Impl>()) {
  if (options.rank < 0 || options.rank >= options.rank_count)
    throw Error("VTK output: rank " + std::to_string(options.rank) + " is not in [0, " +
                std::to_string(options.rank_count) + ")");
  create_folder(options.directory);
  impl_->options = std::move(options);
  build_grid(mesh, impl_->grid);
  impl_->add_selected_arrays();

  vtkXMLUnstructuredGridWriter* w = impl_->writer;
  w->SetInputData(impl_->grid);
  w->SetDataModeToAppended();
  w->EncodeAppendedDataOff();  // raw binary, not base64
  switch (impl_->options.compression) {
    case VtkCompression::lz4: w->SetCompressorTypeToLZ4(); break;
    case VtkCompression::zlib: w->SetCompressorTypeToZLib(); break;
    case VtkCompression::none: w->SetCompressorTypeToNone(); break;
  }
  w->SetHeaderTypeToUInt64();

  const VtkWriterOptions& o = impl_->options;
  if (o.rank == 0) impl_->collection.emplace(o.directory / vtk_collection_name(o.case_name), o.restart_step);
}

VtkWriter::~VtkWriter() = default;

void VtkWriter::write(long step, double time, const CellFields& fields) {
  Impl& im = *impl_;
  for (const auto& a : im.arrays) {
    a->fill(fields, a->values);
    a->values->Modified();
  }
  const VtkWriterOptions& o = im.options;
  const std::filesystem::path piece = o.directory / vtk_piece_name(o.case_name, step, o.rank);
  im.writer->SetFileName(piece.c_str());
  if (im.writer->Write() != 1)
    throw file_error(piece.string(), std::string("VTK writer failed: ") +
                                         vtkErrorCode::GetStringFromErrorCode(im.writer->GetErrorCode()));
  if (o.rank != 0) return;
  im.write_summary(step);
  im.collection->add(step, time, vtk_summary_name(o.case_name, step));
}

}  // namespace miniapp::output
