#include "parallel/mesh_transfer.hpp"

#include <algorithm>
#include <array>
#include <new>
#include <type_traits>

#include "core/host_memory.hpp"

namespace miniapp::parallel {
namespace {

constexpr int tag_sizes = 801, tag_answer = 802, tag_data = 803;

// MPI counts are ints: arrays go in pieces of at most 1 GiB.
constexpr std::size_t piece_bytes = std::size_t{1} << 30;

void send_bytes(const Communicator& comm, int dest, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const char*>(data);
  for (std::size_t done = 0; done < bytes; done += piece_bytes) {
    const int n = static_cast<int>(std::min(piece_bytes, bytes - done));
    MINIAPP_MPI_CHECK(MPI_Send(p + done, n, MPI_BYTE, dest, tag_data, comm.get()));
  }
}

void receive_bytes(const Communicator& comm, int source, void* data, std::size_t bytes) {
  auto* p = static_cast<char*>(data);
  for (std::size_t done = 0; done < bytes; done += piece_bytes) {
    const int n = static_cast<int>(std::min(piece_bytes, bytes - done));
    MINIAPP_MPI_CHECK(MPI_Recv(p + done, n, MPI_BYTE, source, tag_data, comm.get(), MPI_STATUS_IGNORE));
  }
}

// A window as flat arrays of trivially copyable values (both ends run the same build): the mesh's own
// arrays, its patches and periodic links split into numbers and one string of names.
struct WireWindow {
  MeshWindow window;
  std::vector<index_t> patch_ranges;  // first face, face count per patch
  std::vector<Vec3> translations;     // per periodic link
  std::string names;                  // patch names, then each link's two patch names, each ended by '\0'
  std::vector<index_t> counts{0, 0};  // the interior face count, cells_in_lattice_order

  // Calls f on every array, in wire order.
  template <class F>
  void for_each_array(F&& f) {
    mesh::Mesh& m = window.mesh;
    f(m.nodes), f(m.cell_types), f(m.cell_node_offsets), f(m.cell_nodes), f(m.face_node_offsets), f(m.face_nodes);
    f(m.face_owner), f(m.face_neighbour), f(m.periodic_faces), f(counts), f(patch_ranges), f(translations);
    f(names), f(window.part), f(window.global_cell);
  }
};
constexpr std::size_t wire_arrays = 15;
// Entry 0: 1 when the sender has no window for this rank (then a reason follows), then the sizes.
using Sizes = std::array<long long, wire_arrays + 1>;

WireWindow to_wire(MeshWindow& window) {
  WireWindow w;
  w.window = std::move(window);
  mesh::Mesh& m = w.window.mesh;
  for (const mesh::Patch& p : m.patches) {
    w.patch_ranges.insert(w.patch_ranges.end(), {p.first_face, p.face_count});
    w.names += p.name + '\0';
  }
  for (const mesh::PeriodicLink& l : m.periodic_links) {
    w.translations.push_back(l.translation);
    w.names += l.patch_a + '\0' + l.patch_b + '\0';
  }
  w.counts = {m.interior_face_count, m.cells_in_lattice_order ? 1 : 0};
  return w;
}

MeshWindow from_wire(WireWindow w) {
  mesh::Mesh& m = w.window.mesh;
  std::size_t at = 0;
  const auto next_name = [&] {
    const std::size_t end = w.names.find('\0', at);
    if (end == std::string::npos) throw Error("receive_window: the patch names arrived damaged");
    std::string name = w.names.substr(at, end - at);
    at = end + 1;
    return name;
  };
  for (std::size_t p = 0; p < w.patch_ranges.size() / 2; ++p)
    m.patches.push_back({next_name(), w.patch_ranges[2 * p], w.patch_ranges[2 * p + 1]});
  for (const Vec3& t : w.translations) {
    std::string a = next_name();
    m.periodic_links.push_back({std::move(a), next_name(), t});
  }
  m.interior_face_count = w.counts.at(0);
  m.cells_in_lattice_order = w.counts.at(1) != 0;
  return std::move(w.window);
}

}  // namespace

std::string send_window(const Communicator& comm, int dest, MeshWindow& window) {
  WireWindow w = to_wire(window);
  Sizes sizes{};
  std::size_t i = 1;
  w.for_each_array([&](const auto& a) { sizes[i++] = static_cast<long long>(a.size()); });
  MINIAPP_MPI_CHECK(MPI_Send(sizes.data(), static_cast<int>(sizes.size()), MPI_LONG_LONG, dest, tag_sizes, comm.get()));
  int allocated = 0;
  MINIAPP_MPI_CHECK(MPI_Recv(&allocated, 1, MPI_INT, dest, tag_answer, comm.get(), MPI_STATUS_IGNORE));
  if (!allocated) return "rank " + std::to_string(dest) + " could not allocate its mesh";
  w.for_each_array([&](const auto& a) {
    using T = typename std::decay_t<decltype(a)>::value_type;
    static_assert(std::is_trivially_copyable_v<T>);
    send_bytes(comm, dest, a.data(), a.size() * sizeof(T));
  });
  return "";
}

void send_failure(const Communicator& comm, int dest, const std::string& why) {
  Sizes sizes{};
  sizes[0] = 1;
  sizes[1] = static_cast<long long>(why.size());
  MINIAPP_MPI_CHECK(MPI_Send(sizes.data(), static_cast<int>(sizes.size()), MPI_LONG_LONG, dest, tag_sizes, comm.get()));
  send_bytes(comm, dest, why.data(), why.size());
}

MeshWindow receive_window(const Communicator& comm, int source) {
  Sizes sizes{};
  MINIAPP_MPI_CHECK(MPI_Recv(sizes.data(), static_cast<int>(sizes.size()), MPI_LONG_LONG, source, tag_sizes, comm.get(),
                             MPI_STATUS_IGNORE));
  if (sizes[0] == 1) {
    std::string why(static_cast<std::size_t>(sizes[1]), '\0');
    receive_bytes(comm, source, why.data(), why.size());
    throw Error(why);
  }
  WireWindow w;
  int allocated = 1;
  double bytes = 0;
  try {
    std::size_t i = 1;
    w.for_each_array([&](auto& a) {
      bytes += static_cast<double>(sizes[i]) * sizeof(typename std::decay_t<decltype(a)>::value_type);
      a.resize(static_cast<std::size_t>(sizes[i++]));
    });
  } catch (const std::bad_alloc&) {
    allocated = 0;
  }
  MINIAPP_MPI_CHECK(MPI_Send(&allocated, 1, MPI_INT, source, tag_answer, comm.get()));
  if (!allocated)
    throw Error("receiving its part of the mesh (" + std::to_string(sizes[2]) + " cells, " +
                std::to_string(static_cast<long long>(bytes * 1e-6)) + " MB): " + out_of_host_memory_message());
  w.for_each_array([&](auto& a) {
    using T = typename std::decay_t<decltype(a)>::value_type;
    receive_bytes(comm, source, a.data(), a.size() * sizeof(T));
  });
  return from_wire(std::move(w));
}

}  // namespace miniapp::parallel
