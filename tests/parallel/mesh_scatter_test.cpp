#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <new>
#include <optional>
#include <sstream>
#include <tuple>

#include "mesh/geometry.hpp"
#include "mesh/gmsh_reader.hpp"
#include "miniapp/run/rank_mesh.hpp"
#include "parallel/line_partition.hpp"
#include "parallel/local_mesh.hpp"
#include "parallel/mesh_scatter.hpp"
#include "solvers/fft/extrusion.hpp"
#include "tests/parallel/parallel_test_support.hpp"

using namespace miniapp;
using namespace miniapp::parallel;

namespace {

// What every rank built before the distributed start-up, holding the whole mesh: the numbering of
// its part of a METIS (or line) partition and its cells cut out of the whole mesh.
struct WholeMeshPath {
  LocalNumbering numbering;
  mesh::Mesh mesh, owned_piece;
};

WholeMeshPath whole_mesh_path(const mesh::Mesh& whole, const Communicator& comm, const std::vector<index_t>* lines) {
  const CellGraph graph = cell_graph(whole);
  const std::vector<int> part = lines ? partition_lines(comm, graph, *lines) : partition_cells(comm, graph);
  // A generated box's cells stay in lattice order, which the windows carry to their ranks.
  WholeMeshPath p{build_local_numbering(graph, part, comm.rank(), whole.cells_in_lattice_order), {}, {}};
  const auto& cells = p.numbering.local_to_global;
  p.mesh = extract_local_mesh(whole, cells);
  const std::size_t owned = static_cast<std::size_t>(p.numbering.owned_count());
  p.owned_piece = extract_local_mesh(whole, std::span(cells.data(), owned));
  return p;
}

// Array by array, coordinates bit for bit.
bool same_mesh(const mesh::Mesh& a, const mesh::Mesh& b) {
  const auto patch = [](const mesh::Patch& p) { return std::tie(p.name, p.first_face, p.face_count); };
  const auto link = [](const mesh::PeriodicLink& l) { return std::tie(l.patch_a, l.patch_b, l.translation); };
  const auto periodic = [](const mesh::PeriodicFace& f) { return std::pair(f.face, f.link); };
  return a.nodes == b.nodes && a.cell_types == b.cell_types && a.cell_node_offsets == b.cell_node_offsets &&
         a.cell_nodes == b.cell_nodes && a.face_node_offsets == b.face_node_offsets && a.face_nodes == b.face_nodes &&
         a.face_owner == b.face_owner && a.face_neighbour == b.face_neighbour &&
         a.interior_face_count == b.interior_face_count &&
         std::ranges::equal(a.patches, b.patches, {}, patch, patch) &&
         std::ranges::equal(a.periodic_links, b.periodic_links, {}, link, link) &&
         std::ranges::equal(a.periodic_faces, b.periodic_faces, {}, periodic, periodic);
}

// The test meshes: generated boxes, a Gmsh file of mixed cells (hexahedra, tetrahedra, pyramids,
// prisms) and a 2D Gmsh file extruded into periodic prisms.
mesh::Mesh test_mesh(const std::string& which) {
  if (which == "hex" || which == "tet") return test::test_box(which, false);
  if (which == "periodic tet") return test::test_box("tet", true);
  if (which == "mixed.msh") return mesh::read_gmsh_3d(std::string(MINIAPP_MESH_DIR) + "/mixed.msh");
  return mesh::extrude(mesh::read_gmsh_2d(std::string(MINIAPP_MESH_DIR) + "/cylinder_2d.msh"), {4, 0, 0.4, true});
}

}  // namespace

// The distributed start-up: rank 0 alone holds the mesh, partitions it and sends each rank its
// window; each rank numbers and builds its cells. Numbering, rank mesh and VTK piece must be those
// of the whole-mesh path bit for bit (so every operator row is too: local_mesh_test shows the rows
// of that path equal the whole mesh's).
TEST_CASE("the mesh scattered from one rank gives every rank what the whole-mesh path gave", "[mpi][scatter]") {
  const std::string which = GENERATE("hex", "tet", "periodic tet", "mixed.msh", "extruded cylinder_2d.msh");
  CAPTURE(which);
  const Communicator comm;
  const mesh::Mesh whole = test_mesh(which);
  // The FFT path's partition of the extruded mesh: whole periodic lines per rank.
  std::optional<std::vector<index_t>> lines;
  if (which.starts_with("extruded")) lines = fft::detect_extrusion(whole, mesh::compute_geometry(whole)).cell_2d;
  for (const bool by_lines : {false, true}) {
    if (by_lines && !lines) continue;
    CAPTURE(by_lines);
    const std::vector<index_t>* line_of_cell = by_lines ? &*lines : nullptr;
    const WholeMeshPath before = whole_mesh_path(whole, comm, line_of_cell);
    std::ostringstream log;
    const run::RankMesh after =
        run::distribute_mesh(comm.rank() == 0 ? whole : mesh::Mesh{}, &comm, log, line_of_cell);

    CHECK(after.global_cells == whole.cell_count());
    if (comm.size() == 1) {
      CHECK(same_mesh(after.mesh, whole));
      continue;
    }
    REQUIRE(after.numbering);
    const LocalNumbering& n = *after.numbering;
    CHECK(n.rank == comm.rank());
    CHECK(n.inner_count == before.numbering.inner_count);
    CHECK(n.interface_count == before.numbering.interface_count);
    CHECK(n.halo_count == before.numbering.halo_count);
    REQUIRE(n.local_to_global == before.numbering.local_to_global);
    CHECK(n.halo_owner == before.numbering.halo_owner);
    CHECK(n.global_to_local == before.numbering.global_to_local);
    const auto owned_end = n.local_to_global.begin() + n.owned_count();
    CHECK(after.owned_global == std::vector<index_t>(n.local_to_global.begin(), owned_end));
    CHECK(same_mesh(after.mesh, before.mesh));
    REQUIRE(after.owned_piece);
    CHECK(same_mesh(*after.owned_piece, before.owned_piece));
    CHECK_THAT(log.str(), Catch::Contains("partition: " + std::to_string(comm.size()) + " ranks"));
  }
}

TEST_CASE("a mesh that cannot be shared out stops every rank with one message", "[mpi][scatter]") {
  const Communicator comm;
  SECTION("fewer cells than ranks") {
    if (comm.size() == 1) return;
    mesh::BoxSpec one_cell;
    one_cell.cells = {1, 1, 1};
    std::ostringstream log;
    const mesh::Mesh whole = comm.rank() == 0 ? mesh::make_hex_box(one_cell) : mesh::Mesh{};
    CHECK_THROWS_WITH(run::distribute_mesh(whole, &comm, log),
                      Catch::Contains(std::to_string(comm.size()) + " ranks for a mesh of 1 cells"));
  }
  SECTION("the reader runs out of host memory cutting the last rank's window") {
    const int last = comm.size() - 1;
    const mesh::Mesh whole = test::test_box("hex", false);
    const auto window_of = [&](int rank) -> MeshWindow {
      if (rank == last) throw std::bad_alloc();
      LocalMeshCutter cutter(whole);
      return cut_window(cutter, cell_graph(whole), std::vector<int>(static_cast<std::size_t>(whole.cell_count()), 0),
                        std::vector<index_t>{0});
    };
    // Every rank, the ones already served included, raises the reader's message.
    const std::string message = "cutting the mesh of rank " + std::to_string(last) + " on the reader: out of host memory";
    CHECK_THROWS_WITH(scatter_windows(comm, window_of), Catch::Contains(message));
  }
}

#if !defined(__SANITIZE_ADDRESS__)
namespace {

// Caps this process's address space at its present size plus `extra` bytes until destroyed (the
// soft limit only, which a process may raise back).
class AddressSpaceCap {
 public:
  explicit AddressSpaceCap(std::size_t extra) {
    getrlimit(RLIMIT_AS, &old_);
    rlimit capped = old_;
    std::size_t pages = 0;  // the address space in use: the first field of /proc/self/statm
    std::ifstream("/proc/self/statm") >> pages;
    capped.rlim_cur = pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) + extra;
    setrlimit(RLIMIT_AS, &capped);
  }
  ~AddressSpaceCap() { setrlimit(RLIMIT_AS, &old_); }

 private:
  rlimit old_{};
};

}  // namespace

// A real allocation failure on a receiving rank (its address space capped below the window it is
// sent): the handshake tells the reader, which sends nothing more, and every rank stops with the
// receiver's message. (Not under AddressSanitizer, which reserves its own address space.)
TEST_CASE("a rank that cannot allocate its window stops every rank with its message", "[mpi][scatter]") {
  const Communicator comm;
  if (comm.size() == 1) return;
  constexpr std::size_t nodes = std::size_t{8} << 20;  // 192 MiB of coordinates
  const auto window_of = [&](int rank) {
    MeshWindow w;
    if (rank == 1) w.mesh.nodes.resize(nodes);
    return w;
  };
  std::optional<AddressSpaceCap> cap;
  if (comm.rank() == 1) cap.emplace(std::size_t{64} << 20);
  CHECK_THROWS_WITH(scatter_windows(comm, window_of),
                    Catch::Contains("rank 1: receiving its part of the mesh (0 cells, 201 MB): out of host memory"));
}
#endif
