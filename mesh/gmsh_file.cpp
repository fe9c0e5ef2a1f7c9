#include "mesh/gmsh_file.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "mesh/gmsh_scanner.hpp"
#include "core/error.hpp"

namespace miniapp::mesh::gmsh {

namespace {

constexpr std::array<ElementType, 8> supported_types{{
    {1, 1, 2, "line"},
    {2, 2, 3, "triangle"},
    {3, 2, 4, "quadrangle"},
    {4, 3, 4, "tetrahedron"},
    {5, 3, 8, "hexahedron"},
    {6, 3, 6, "prism"},
    {7, 3, 5, "pyramid"},
    {15, 0, 1, "point"},
}};

// Gmsh's second-order types, named so that the error says what the file holds.
constexpr std::array<std::pair<int, const char*>, 11> second_order_types{{
    {8, "3-node line"},
    {9, "6-node triangle"},
    {10, "9-node quadrangle"},
    {11, "10-node tetrahedron"},
    {12, "27-node hexahedron"},
    {13, "18-node prism"},
    {14, "14-node pyramid"},
    {16, "8-node quadrangle"},
    {17, "20-node hexahedron"},
    {18, "15-node prism"},
    {19, "13-node pyramid"},
}};

const ElementType& element_type(std::int64_t number, const Scanner& s) {
  for (const ElementType& type : supported_types)
    if (type.number == number) return type;
  const std::string n = std::to_string(number);
  for (const auto& [second, name] : second_order_types)
    if (second == number)
      s.fail("element type " + n + " (second-order " + name + ") is not supported: only first-order elements are "
             "(mesh with Mesh.ElementOrder = 1)");
  s.fail("unsupported element type " + n + ": only first-order points, lines, triangles, quadrangles, tetrahedra, "
         "hexahedra, prisms and pyramids (Gmsh types 1-7, 15) are");
}

std::string format_version(double version) {
  std::array<char, 32> text{};
  const auto end = std::to_chars(text.data(), text.data() + text.size(), version).ptr;
  return std::string(text.data(), end);
}

void read_mesh_format(Scanner& s) {
  s.at_end();
  const std::string_view first = s.next_line();
  if (first != "$MeshFormat")
    s.fail("not a Gmsh mesh file: expected $MeshFormat on the first line, found '" +
           std::string(first.substr(0, 40)) + "'");
  s.set_section("$MeshFormat");
  s.begin_record(3);
  const double version = s.get_double();
  const std::int64_t file_type = s.get_int(), data_size = s.get_int();
  s.end_record();
  if (version != 4.1) s.fail("unsupported MSH format version " + format_version(version) + " (need 4.1)");
  if (file_type == 1) {
    s.start_binary_file(static_cast<int>(data_size));
  } else if (file_type != 0) {
    s.fail("file-type " + std::to_string(file_type) + " is neither 0 (ASCII) nor 1 (binary)");
  }
  s.expect_end("MeshFormat");
}

void read_physical_names(Scanner& s, GmshFile& file) {
  s.begin_record(1);
  const std::uint64_t count = s.get_size();
  s.end_record();
  s.check_count(count, 1, 3, "physical name");
  for (std::uint64_t i = 0; i < count; ++i) {
    s.begin_record(3);
    const int dim = static_cast<int>(s.get_int()), tag = static_cast<int>(s.get_int());
    file.physical_names[{dim, tag}] = s.get_string();
    s.end_record();
  }
  s.expect_end("PhysicalNames");
}

// One line of $Entities: tag, position or bounding box, physical tags, bounding entities (dim > 0).
void read_entity(Scanner& s, int dim, GmshFile& file) {
  s.begin_record(0);
  const int tag = static_cast<int>(s.get_int());
  for (int i = 0; i < (dim == 0 ? 3 : 6); ++i) s.get_double();
  const std::uint64_t group_count = s.get_size();
  s.check_fields(group_count, 4, "physical tag");
  std::vector<int> groups;
  // Gmsh signs a physical tag with the orientation the entity had in the group's definition.
  for (std::uint64_t i = 0; i < group_count; ++i) groups.push_back(static_cast<int>(std::abs(s.get_int())));
  std::sort(groups.begin(), groups.end());
  groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
  if (dim > 0) {
    const std::uint64_t bounding_count = s.get_size();
    s.check_fields(bounding_count, 4, "bounding entity");
    for (std::uint64_t i = 0; i < bounding_count; ++i) s.get_int();
  }
  s.end_record();
  if (!groups.empty()) file.entity_groups[{dim, tag}] = std::move(groups);
}

void read_entities(Scanner& s, GmshFile& file) {
  s.begin_record(4);
  std::array<std::uint64_t, 4> counts{};
  for (auto& count : counts) count = s.get_size();
  s.end_record();
  for (int dim = 0; dim < 4; ++dim) {
    const std::size_t min_bytes = 4 + (dim == 0 ? 24 : 48) + static_cast<std::size_t>(s.size_bytes());
    s.check_count(counts[dim], min_bytes, dim == 0 ? 5 : 9, "entity");
    for (std::uint64_t i = 0; i < counts[dim]; ++i) read_entity(s, dim, file);
  }
  s.expect_end("Entities");
}

// Node tag → index into GmshFile::nodes: a table over the header's tag range where that range is
// dense (Gmsh numbers nodes 1..N), else a hash map.
class NodeIndex {
 public:
  // For `count` tags in [min_tag, max_tag].
  void reserve(std::uint64_t min_tag, std::uint64_t max_tag, std::uint64_t count) {
    if (min_tag <= max_tag && max_tag - min_tag < 2 * count + 1024) {
      first_ = min_tag;
      table_.assign(max_tag - min_tag + 1, -1);
    } else {
      sparse_.reserve(count);
    }
  }
  // False when `tag` (in the reserved range) already has an index.
  bool add(std::uint64_t tag, index_t index) {
    if (table_.empty()) return sparse_.emplace(tag, index).second;
    index_t& slot = table_[tag - first_];
    if (slot >= 0) return false;
    slot = index;
    return true;
  }
  // The index of `tag`, or -1 when no node has it.
  index_t find(std::uint64_t tag) const {
    if (table_.empty()) {
      const auto found = sparse_.find(tag);
      return found == sparse_.end() ? -1 : found->second;
    }
    return tag >= first_ && tag - first_ < table_.size() ? table_[tag - first_] : -1;
  }

 private:
  std::uint64_t first_ = 0;
  std::vector<index_t> table_;
  std::unordered_map<std::uint64_t, index_t> sparse_;
};

// The header of an entity block of $Nodes or $Elements: entity dim, entity tag, a third int
// (parametric flag or element type) and the number of items, which must fit in `remaining`.
struct BlockHeader {
  int dim = 0, entity = 0;
  std::int64_t third = 0;
  std::uint64_t count = 0;
};

BlockHeader read_block_header(Scanner& s, std::uint64_t remaining, const char* items) {
  s.begin_record(4);
  BlockHeader h;
  h.dim = static_cast<int>(s.get_int());
  h.entity = static_cast<int>(s.get_int());
  h.third = s.get_int();
  h.count = s.get_size();
  s.end_record();
  if (h.dim < 0 || h.dim > 3) s.fail("entity dimension " + std::to_string(h.dim) + " is not 0, 1, 2 or 3");
  if (h.count > remaining)
    s.fail(std::string("the blocks hold more ") + items + " than the header declares");
  return h;
}

struct SectionHeader {
  std::uint64_t blocks = 0, count = 0, min_tag = 0, max_tag = 0;
};

SectionHeader read_section_header(Scanner& s, std::size_t item_bytes, std::size_t item_numbers, const char* items) {
  s.begin_record(4);
  SectionHeader h{s.get_size(), s.get_size(), s.get_size(), s.get_size()};
  s.end_record();
  s.check_count(h.blocks, 12 + static_cast<std::size_t>(s.size_bytes()), 4, std::string(items) + " block");
  s.check_count(h.count, item_bytes, item_numbers, items);
  checked_index(h.count, s.path() + ": " + items);
  return h;
}

void read_nodes(Scanner& s, GmshFile& file, NodeIndex& index) {
  const SectionHeader h = read_section_header(s, static_cast<std::size_t>(s.size_bytes()) + 24, 4, "node");
  file.node_tags.reserve(h.count);
  file.nodes.reserve(h.count);
  index.reserve(h.min_tag, h.max_tag, h.count);
  for (std::uint64_t b = 0; b < h.blocks; ++b) {
    const BlockHeader block = read_block_header(s, h.count - file.nodes.size(), "nodes");
    if (block.third != 0 && block.third != 1) s.fail("parametric flag " + std::to_string(block.third) + " is not 0 or 1");
    for (std::uint64_t i = 0; i < block.count; ++i) {
      s.begin_record(1);
      const std::uint64_t tag = s.get_size();
      s.end_record();
      if (tag < h.min_tag || tag > h.max_tag)
        s.fail("node tag " + std::to_string(tag) + " lies outside the range [" + std::to_string(h.min_tag) + ", " +
               std::to_string(h.max_tag) + "] declared in the header");
      if (!index.add(tag, static_cast<index_t>(file.node_tags.size())))
        s.fail("node tag " + std::to_string(tag) + " is defined twice");
      file.node_tags.push_back(tag);
    }
    const std::size_t parametric = block.third == 1 ? static_cast<std::size_t>(block.dim) : 0;
    for (std::uint64_t i = 0; i < block.count; ++i) {
      s.begin_record(3 + parametric);
      const double x = s.get_double(), y = s.get_double(), z = s.get_double();
      for (std::size_t k = 0; k < parametric; ++k) s.get_double();
      s.end_record();
      file.nodes.push_back({x, y, z});
    }
  }
  if (file.nodes.size() != h.count)
    s.fail("the blocks hold " + std::to_string(file.nodes.size()) + " nodes but the header declares " +
           std::to_string(h.count));
  s.expect_end("Nodes");
}

void read_element_block(Scanner& s, const NodeIndex& index, ElementBlock& block, std::uint64_t count) {
  const int n = block.type->nodes;
  s.check_count(count, static_cast<std::size_t>(s.size_bytes()) * static_cast<std::size_t>(1 + n),
                static_cast<std::size_t>(1 + n), "element");
  block.tags.reserve(count);
  block.nodes.reserve(count * static_cast<std::uint64_t>(n));
  for (std::uint64_t i = 0; i < count; ++i) {
    s.begin_record(static_cast<std::size_t>(1 + n));
    block.tags.push_back(s.get_size());
    for (int k = 0; k < n; ++k) {
      const std::uint64_t tag = s.get_size();
      const index_t node = index.find(tag);
      if (node < 0)
        s.fail("element " + std::to_string(block.tags.back()) + " (" + block.type->name + ") references node " +
               std::to_string(tag) + ", which $Nodes does not define");
      block.nodes.push_back(node);
    }
    s.end_record();
  }
}

void read_elements(Scanner& s, GmshFile& file, const NodeIndex& index) {
  const SectionHeader h = read_section_header(s, 2 * static_cast<std::size_t>(s.size_bytes()), 2, "element");
  std::uint64_t total = 0;
  for (std::uint64_t b = 0; b < h.blocks; ++b) {
    const BlockHeader header = read_block_header(s, h.count - total, "elements");
    ElementBlock& block = file.blocks.emplace_back();
    block.dim = header.dim;
    block.entity = header.entity;
    block.type = &element_type(header.third, s);
    if (block.type->dim != header.dim)
      s.fail("a block of " + std::string(block.type->name) + "s (type " + std::to_string(header.third) +
             ") sits on an entity of dimension " + std::to_string(header.dim));
    read_element_block(s, index, block, header.count);
    total += header.count;
  }
  if (total != h.count)
    s.fail("the blocks hold " + std::to_string(total) + " elements but the header declares " + std::to_string(h.count));
  s.expect_end("Elements");
}

std::string read_bytes(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw file_error(path, "no such file");
  if (!std::filesystem::is_regular_file(path, ec)) throw file_error(path, "not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) throw file_error(path, "cannot be opened for reading");
  std::string data(std::filesystem::file_size(path, ec), '\0');
  if (ec || !in.read(data.data(), static_cast<std::streamsize>(data.size())))
    throw file_error(path, "read failed");
  return data;
}

}  // namespace

int GmshFile::dimension() const {
  int dim = 0;
  for (const ElementBlock& block : blocks)
    if (!block.tags.empty()) dim = std::max(dim, block.dim);
  return dim;
}

std::string GmshFile::group_name(int dim, int tag) const {
  const auto found = physical_names.find({dim, tag});
  return found != physical_names.end() ? found->second : "group" + std::to_string(tag);
}

GmshFile read_gmsh_file(const std::string& path) {
  GmshFile file;
  file.path = path;
  Scanner s(path, read_bytes(path));
  read_mesh_format(s);
  NodeIndex index;
  bool have_nodes = false, have_elements = false;
  while (!s.at_end()) {
    s.set_section("");
    const std::string_view line = s.next_line();
    if (!line.starts_with('$')) s.fail("expected a section such as $Nodes, found '" + std::string(line.substr(0, 40)) + "'");
    const std::string name(line.substr(1));
    s.set_section(std::string(line));
    const bool repeated = (name == "Nodes" && have_nodes) || (name == "Elements" && have_elements);
    if (repeated) s.fail("second " + std::string(line) + " section");
    if (name == "PartitionedEntities") s.fail("partitioned meshes are not supported (save without partitions)");
    if (name == "Elements" && !have_nodes) s.fail("$Elements comes before $Nodes");
    s.set_binary(name == "Entities" || name == "Nodes" || name == "Elements");
    if (name == "PhysicalNames") {
      read_physical_names(s, file);
    } else if (name == "Entities") {
      read_entities(s, file);
    } else if (name == "Nodes") {
      read_nodes(s, file, index);
      have_nodes = true;
    } else if (name == "Elements") {
      read_elements(s, file, index);
      have_elements = true;
    } else {
      s.skip_section(name);
    }
    s.set_binary(false);
  }
  if (!have_nodes || !have_elements) throw file_error(path, have_nodes ? "no $Elements section" : "no $Nodes section");
  return file;
}

}  // namespace miniapp::mesh::gmsh
