#include <catch2/catch.hpp>

#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>
#include <vtkXMLPUnstructuredGridReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <cstring>

#include "core/error.hpp"
#include "miniapp/output/vtk_writer.hpp"
#include "scratch_dir.hpp"

using namespace miniapp;
using namespace miniapp::output;
using miniapp::output::test::read_text;
using miniapp::output::test::ScratchDir;

namespace {

// One cell of each type sharing nodes: a unit hexahedron, a pyramid on top, a prism at x = 1 and
// a tetrahedron between them (faces are not needed for output).
mesh::Mesh mixed_mesh() {
  mesh::Mesh m;
  m.nodes = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1},
             {1, 1, 1}, {0, 1, 1}, {0.5, 0.5, 1.5}, {1.5, 0.5, 0}, {1.5, 0.5, 1}};
  const auto add = [&m](mesh::CellType t, std::vector<index_t> nodes) {
    m.cell_types.push_back(t);
    m.cell_nodes.insert(m.cell_nodes.end(), nodes.begin(), nodes.end());
    m.cell_node_offsets.push_back(static_cast<index_t>(m.cell_nodes.size()));
  };
  add(mesh::CellType::hexahedron, {0, 1, 2, 3, 4, 5, 6, 7});
  add(mesh::CellType::pyramid, {4, 5, 6, 7, 8});
  add(mesh::CellType::prism, {1, 2, 9, 5, 6, 10});
  add(mesh::CellType::tetrahedron, {5, 6, 8, 10});
  return m;
}

// Distinct values per field, cell and step, so a mix-up of any of them shows.
CellFields make_fields(index_t cells, long step) {
  CellFields f;
  const auto ramp = [&](double base) {
    std::vector<double> v(cells);
    for (index_t c = 0; c < cells; ++c) v[c] = base + c / 7.0 + step / 3.0;
    return v;
  };
  f.velocity = {ramp(1), ramp(2), ramp(3)};
  f.pressure = ramp(4);
  f.eddy_viscosity = ramp(5);
  f.vorticity_magnitude = ramp(6);
  f.q_criterion = ramp(-7);
  return f;
}

void check_array(vtkUnstructuredGrid* grid, const char* name, const std::vector<const std::vector<double>*>& expected,
                 index_t first_cell = 0) {
  INFO("array " << name);
  vtkDataArray* a = grid->GetCellData()->GetArray(name);
  REQUIRE(a != nullptr);
  REQUIRE(a->GetNumberOfComponents() == static_cast<int>(expected.size()));
  for (std::size_t k = 0; k < expected.size(); ++k)
    for (std::size_t c = 0; c < expected[k]->size(); ++c)
      CHECK(a->GetComponent(first_cell + c, k) == (*expected[k])[c]);
}

void check_all_arrays(vtkUnstructuredGrid* grid, const CellFields& f, index_t first_cell = 0) {
  check_array(grid, "velocity", {&f.velocity[0], &f.velocity[1], &f.velocity[2]}, first_cell);
  check_array(grid, "pressure", {&f.pressure}, first_cell);
  check_array(grid, "eddy_viscosity", {&f.eddy_viscosity}, first_cell);
  check_array(grid, "vorticity_magnitude", {&f.vorticity_magnitude}, first_cell);
  check_array(grid, "q_criterion", {&f.q_criterion}, first_cell);
}

struct PvdEntry {
  double time;
  std::string file;
};

std::vector<PvdEntry> read_pvd(const std::filesystem::path& path) {
  vtkNew<vtkXMLDataParser> parser;
  parser->SetFileName(path.c_str());
  REQUIRE(parser->Parse() == 1);
  vtkXMLDataElement* collection = parser->GetRootElement()->FindNestedElementWithName("Collection");
  REQUIRE(collection != nullptr);
  std::vector<PvdEntry> entries;
  for (int i = 0; i < collection->GetNumberOfNestedElements(); ++i) {
    vtkXMLDataElement* e = collection->GetNestedElement(i);
    entries.push_back({std::strtod(e->GetAttribute("timestep"), nullptr), e->GetAttribute("file")});
  }
  return entries;
}

}  // namespace

TEST_CASE("VTK pieces read back with cells, types and every field", "[output][vtk]") {
  ScratchDir dir("vtk_piece");
  const mesh::Mesh m = mixed_mesh();
  VtkWriter writer(m, {dir.path() / "out", "mixed", 0, 1, {}, std::nullopt});
  writer.write(0, 0.0, make_fields(m.cell_count(), 0));
  const CellFields last = make_fields(m.cell_count(), 7);
  writer.write(7, 0.5, last);

  const auto piece = dir.path() / "out" / "mixed_7_r0.vtu";
  const std::string text = read_text(piece);
  CHECK(text.find("format=\"appended\"") != std::string::npos);
  CHECK(text.find("encoding=\"raw\"") != std::string::npos);
  CHECK(text.find("vtkLZ4DataCompressor") != std::string::npos);  // the default

  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName(piece.c_str());
  reader->Update();
  vtkUnstructuredGrid* grid = reader->GetOutput();
  REQUIRE(grid->GetNumberOfCells() == m.cell_count());
  REQUIRE(grid->GetNumberOfPoints() == m.node_count());
  const int vtk_types[] = {VTK_HEXAHEDRON, VTK_PYRAMID, VTK_WEDGE, VTK_TETRA};
  for (index_t c = 0; c < m.cell_count(); ++c) {
    CHECK(grid->GetCellType(c) == vtk_types[c]);
    vtkNew<vtkIdList> ids;
    grid->GetCellPoints(c, ids);
    REQUIRE(ids->GetNumberOfIds() == m.cell_node_offsets[c + 1] - m.cell_node_offsets[c]);
    for (vtkIdType k = 0; k < ids->GetNumberOfIds(); ++k) CHECK(ids->GetId(k) == m.cell_nodes[m.cell_node_offsets[c] + k]);
  }
  double p[3];
  grid->GetPoint(8, p);
  CHECK((p[0] == 0.5 && p[1] == 0.5 && p[2] == 1.5));
  CHECK(grid->GetCellData()->GetNumberOfArrays() == 5);
  check_all_arrays(grid, last);
}

TEST_CASE("each compression of the pieces reads back the same values", "[output][vtk]") {
  const mesh::Mesh m = mixed_mesh();
  const CellFields f = make_fields(m.cell_count(), 3);
  const std::pair<VtkCompression, const char*> compressions[] = {
      {VtkCompression::lz4, "vtkLZ4DataCompressor"}, {VtkCompression::zlib, "vtkZLibDataCompressor"},
      {VtkCompression::none, nullptr}};
  for (const auto& [compression, compressor] : compressions) {
    INFO("compressor " << (compressor ? compressor : "none"));
    ScratchDir dir("vtk_compression");
    VtkWriter writer(m, {dir.path(), "c", 0, 1, {}, std::nullopt, compression});
    writer.write(3, 0.3, f);
    const auto piece = dir.path() / "c_3_r0.vtu";
    const std::string text = read_text(piece);
    if (compressor) CHECK(text.find(std::string("compressor=\"") + compressor + "\"") != std::string::npos);
    else CHECK(text.find("compressor=") == std::string::npos);
    vtkNew<vtkXMLUnstructuredGridReader> reader;
    reader->SetFileName(piece.c_str());
    reader->Update();
    REQUIRE(reader->GetOutput()->GetNumberOfCells() == m.cell_count());
    check_all_arrays(reader->GetOutput(), f);
  }
}

TEST_CASE("VTK output holds only the selected fields", "[output][vtk]") {
  ScratchDir dir("vtk_selection");
  const mesh::Mesh m = mixed_mesh();
  FieldSelection only;
  only.eddy_viscosity = only.vorticity_magnitude = only.q_criterion = false;
  VtkWriter writer(m, {dir.path(), "sel", 0, 1, only, std::nullopt});
  CellFields f = make_fields(m.cell_count(), 1);
  f.q_criterion.clear();  // unselected fields may be empty
  writer.write(1, 0.1, f);

  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName((dir.path() / "sel_1_r0.vtu").c_str());
  reader->Update();
  vtkCellData* data = reader->GetOutput()->GetCellData();
  REQUIRE(data->GetNumberOfArrays() == 2);
  CHECK(data->GetArray("velocity") != nullptr);
  CHECK(data->GetArray("pressure") != nullptr);

  f.pressure.pop_back();
  CHECK_THROWS_WITH(writer.write(2, 0.2, f), Catch::Contains("'pressure' has 3 values, the mesh has 4 cells"));
}

TEST_CASE("with statistics, the time averages are written beside the fields", "[output][vtk]") {
  ScratchDir dir("vtk_statistics");
  const mesh::Mesh m = mixed_mesh();
  FieldSelection with_statistics;
  with_statistics.statistics = true;
  VtkWriter writer(m, {dir.path(), "stat", 0, 1, with_statistics, std::nullopt});
  CellFields f = make_fields(m.cell_count(), 2);
  const CellFields means = make_fields(m.cell_count(), 11);  // distinct values for the averages
  f.mean_velocity = means.velocity;
  f.mean_pressure = means.pressure;
  f.mean_eddy_viscosity = means.eddy_viscosity;
  f.reynolds_stress = {means.velocity[0], means.velocity[1], means.velocity[2], means.pressure, means.eddy_viscosity,
                       means.q_criterion};
  writer.write(2, 0.2, f);

  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName((dir.path() / "stat_2_r0.vtu").c_str());
  reader->Update();
  vtkUnstructuredGrid* grid = reader->GetOutput();
  CHECK(grid->GetCellData()->GetNumberOfArrays() == 9);
  check_all_arrays(grid, f);
  check_array(grid, "mean_velocity", {&f.mean_velocity[0], &f.mean_velocity[1], &f.mean_velocity[2]});
  check_array(grid, "mean_pressure", {&f.mean_pressure});
  check_array(grid, "mean_eddy_viscosity", {&f.mean_eddy_viscosity});
  std::vector<const std::vector<double>*> stress;
  for (const auto& component : f.reynolds_stress) stress.push_back(&component);
  check_array(grid, "reynolds_stress", stress);
}

TEST_CASE("the .pvtu of two ranks joins both pieces", "[output][vtk]") {
  ScratchDir dir("vtk_pvtu");
  const mesh::Mesh m0 = mixed_mesh();
  mesh::Mesh m1 = mixed_mesh();
  for (auto& node : m1.nodes) node.z += 2;
  VtkWriter rank1(m1, {dir.path(), "two", 1, 2, {}, std::nullopt});
  const CellFields f1 = make_fields(m1.cell_count(), 100);
  rank1.write(3, 0.3, f1);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "two_3.pvtu"));  // only rank 0 writes summaries
  CHECK_FALSE(std::filesystem::exists(dir.path() / "two.pvd"));

  VtkWriter rank0(m0, {dir.path(), "two", 0, 2, {}, std::nullopt});
  const CellFields f0 = make_fields(m0.cell_count(), 3);
  rank0.write(3, 0.3, f0);

  vtkNew<vtkXMLPUnstructuredGridReader> reader;
  reader->SetFileName((dir.path() / "two_3.pvtu").c_str());
  reader->Update();
  vtkUnstructuredGrid* grid = reader->GetOutput();
  REQUIRE(grid->GetNumberOfCells() == 2 * m0.cell_count());
  CHECK(grid->GetNumberOfPoints() == 2 * m0.node_count());
  check_all_arrays(grid, f0);
  check_all_arrays(grid, f1, m0.cell_count());
}

TEST_CASE("the .pvd lists every step with its time and resumes after a restart", "[output][vtk]") {
  ScratchDir dir("vtk_pvd");
  const mesh::Mesh m = mixed_mesh();
  const std::vector<double> times = {0.0, 0.1 + 0.2, 1.0 / 3, 2.5e-7 + 1};
  {
    VtkWriter writer(m, {dir.path(), "series", 0, 1, {}, std::nullopt});
    for (std::size_t i = 0; i < times.size(); ++i) writer.write(10 * i, times[i], make_fields(m.cell_count(), i));
  }
  auto entries = read_pvd(dir.path() / "series.pvd");
  REQUIRE(entries.size() == times.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    CHECK(entries[i].time == times[i]);
    CHECK(entries[i].file == "series_" + std::to_string(10 * i) + ".pvtu");
    CHECK(std::filesystem::exists(dir.path() / entries[i].file));
  }
  CHECK_FALSE(std::filesystem::exists(dir.path() / "series.pvd.tmp"));

  // Restart from the checkpoint at step 10: steps 20 and 30 are computed again, at other times.
  VtkWriter restarted(m, {dir.path(), "series", 0, 1, {}, 10});
  restarted.write(20, 0.75, make_fields(m.cell_count(), 2));
  entries = read_pvd(dir.path() / "series.pvd");
  REQUIRE(entries.size() == 3);
  CHECK(entries[1].time == times[1]);
  CHECK(entries[2].time == 0.75);
}

TEST_CASE("VtkWriter rejects a rank outside the rank count", "[output][vtk]") {
  ScratchDir dir("vtk_rank");
  CHECK_THROWS_AS(VtkWriter(mixed_mesh(), {dir.path(), "bad", 2, 2, {}, std::nullopt}), Error);
}
