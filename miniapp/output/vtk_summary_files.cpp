#include "miniapp/output/vtk_summary_files.hpp"

#include <vtkIndent.h>
#include <vtkNew.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <sstream>

#include "core/error.hpp"
#include "miniapp/output/atomic_file.hpp"

namespace miniapp::output {
namespace {

// A child element of `parent` named `name` (the parent keeps it alive).
vtkXMLDataElement* add_element(vtkXMLDataElement* parent, const char* name) {
  vtkNew<vtkXMLDataElement> child;
  child->SetName(name);
  parent->AddNestedElement(child);
  return child;
}

void add_pdata_array(vtkXMLDataElement* parent, const std::string& name, int components) {
  vtkXMLDataElement* array = add_element(parent, "PDataArray");
  array->SetAttribute("type", "Float64");
  array->SetAttribute("Name", name.c_str());
  array->SetIntAttribute("NumberOfComponents", components);
}

void save_xml(const std::filesystem::path& path, vtkXMLDataElement* root) {
  std::ostringstream os;
  os << "<?xml version=\"1.0\"?>\n";
  root->PrintXML(os, vtkIndent());
  write_file_atomically(path, os.str());
}

// Shortest decimal form that reads back to the same double (vtkXMLDataElement's own double
// attributes keep only 6 digits).
std::string exact(double value) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof(buffer), value).ptr;
  return std::string(buffer, end);
}

template <class T>
T parse_attribute(vtkXMLDataElement* e, const char* name, const std::filesystem::path& path) {
  const char* text = e->GetAttribute(name);
  T value{};
  const char* end = text ? text + std::strlen(text) : nullptr;
  if (!text || std::from_chars(text, end, value).ptr != end || text == end)
    throw file_error(path.string(), std::string("a DataSet element has no valid '") + name + "' attribute");
  return value;
}

}  // namespace

void write_pvtu(const std::filesystem::path& path, const VtkFileFormat& format,
                const std::vector<PvtuArray>& arrays, const std::vector<std::string>& pieces) {
  vtkNew<vtkXMLDataElement> root;
  root->SetName("VTKFile");
  root->SetAttribute("type", "PUnstructuredGrid");
  root->SetAttribute("version", "1.0");
  root->SetAttribute("byte_order", format.byte_order.c_str());
  root->SetAttribute("header_type", format.header_type.c_str());
  vtkXMLDataElement* grid = add_element(root, "PUnstructuredGrid");
  grid->SetIntAttribute("GhostLevel", 0);
  vtkXMLDataElement* cell_data = add_element(grid, "PCellData");
  for (const PvtuArray& a : arrays) add_pdata_array(cell_data, a.name, a.components);
  add_pdata_array(add_element(grid, "PPoints"), "Points", 3);
  for (const std::string& piece : pieces) add_element(grid, "Piece")->SetAttribute("Source", piece.c_str());
  save_xml(path, root);
}

PvdCollection::PvdCollection(std::filesystem::path path, std::optional<long> restart_step)
    : path_(std::move(path)) {
  if (restart_step && std::filesystem::exists(path_)) load(*restart_step);
}

void PvdCollection::add(long step, double time, const std::string& file) {
  std::erase_if(entries_, [step](const Entry& e) { return e.step == step; });
  entries_.push_back({step, time, file});
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.step < b.step; });
  save();
}

void PvdCollection::load(long restart_step) {
  vtkNew<vtkXMLDataParser> parser;
  parser->SetFileName(path_.c_str());
  vtkXMLDataElement* root = parser->Parse() ? parser->GetRootElement() : nullptr;
  vtkXMLDataElement* collection = root ? root->FindNestedElementWithName("Collection") : nullptr;
  if (!collection) throw file_error(path_.string(), "cannot read the VTK collection to continue it after a restart");
  for (int i = 0; i < collection->GetNumberOfNestedElements(); ++i) {
    vtkXMLDataElement* e = collection->GetNestedElement(i);
    if (std::strcmp(e->GetName(), "DataSet") != 0) continue;
    const auto step = parse_attribute<long>(e, "step", path_);
    const auto time = parse_attribute<double>(e, "timestep", path_);
    const char* file = e->GetAttribute("file");
    if (!file) throw file_error(path_.string(), "a DataSet element has no 'file' attribute");
    if (step <= restart_step) entries_.push_back({step, time, file});
  }
}

void PvdCollection::save() const {
  vtkNew<vtkXMLDataElement> root;
  root->SetName("VTKFile");
  root->SetAttribute("type", "Collection");
  root->SetAttribute("version", "0.1");
  vtkXMLDataElement* collection = add_element(root, "Collection");
  for (const Entry& entry : entries_) {
    vtkXMLDataElement* e = add_element(collection, "DataSet");
    e->SetAttribute("timestep", exact(entry.time).c_str());
    e->SetAttribute("part", "0");
    e->SetAttribute("file", entry.file.c_str());
    // Not read by ParaView; lets a restart drop the entries after its checkpoint.
    e->SetAttribute("step", std::to_string(entry.step).c_str());
  }
  save_xml(path_, root);
}

}  // namespace miniapp::output
