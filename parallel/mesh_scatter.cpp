#include "parallel/mesh_scatter.hpp"

#include <new>
#include <optional>

#include "core/host_memory.hpp"
#include "parallel/line_partition.hpp"
#include "parallel/mesh_transfer.hpp"

namespace miniapp::parallel {
namespace {

// The reason window_of(rank) failed, for every rank's message.
std::string window_failure(int rank, const std::function<MeshWindow(int)>& window_of, MeshWindow& window) {
  const std::string where = "cutting the mesh of rank " + std::to_string(rank) + " on the reader: ";
  try {
    window = window_of(rank);
    return "";
  } catch (const std::bad_alloc&) {
    return where + out_of_host_memory_message();
  } catch (const std::exception& e) {
    return where + e.what();
  }
}

// Rank 0's side: every other rank gets its window, or the reason it gets none; then its own.
MeshWindow send_windows(const Communicator& comm, const std::function<MeshWindow(int)>& window_of,
                        StageProfile* profile) {
  std::string failure;
  for (int r = 1; r < comm.size(); ++r) {
    MeshWindow window;
    if (failure.empty()) failure = window_failure(r, window_of, window);
    StageProfile::Part t(profile, "window sends");
    if (failure.empty())
      send_window(comm, r, window);  // a refusal is reported by the rank that refused
    else
      send_failure(comm, r, failure);
  }
  MeshWindow own;
  if (failure.empty()) failure = window_failure(0, window_of, own);
  if (!failure.empty()) throw Error(failure);
  return own;
}

}  // namespace

MeshWindow scatter_windows(const Communicator& comm, const std::function<MeshWindow(int)>& window_of,
                           StageProfile* profile) {
  MeshWindow window;
  comm.run_collectively(
      [&] { window = comm.rank() == 0 ? send_windows(comm, window_of, profile) : receive_window(comm, 0); });
  return window;
}

MeshWindow scatter_mesh(const Communicator& comm, mesh::Mesh whole, const std::vector<index_t>* lines,
                        StageProfile* profile) {
  CellGraph graph;
  std::vector<int> part;
  std::vector<std::vector<index_t>> owned;
  comm.run_collectively([&] {
    if (comm.rank() != 0) return;
    {
      StageProfile::Part t(profile, "cell graph");
      graph = cell_graph(whole);
    }
    StageProfile::Part t(profile, "partition");
    part = lines ? partition_lines(graph, *lines, comm.size()) : partition_graph(graph, comm.size());
    owned = cells_by_part(part, comm.size());
  });
  std::optional<LocalMeshCutter> cutter;  // made by the first cut, on the reader: a failure is that cut's
  return scatter_windows(
      comm,
      [&](int rank) {
        StageProfile::Part t(profile, "window cuts");
        if (!cutter) cutter.emplace(whole);
        MeshWindow w = cut_window(*cutter, graph, part, owned[static_cast<std::size_t>(rank)]);
        std::vector<index_t>().swap(owned[static_cast<std::size_t>(rank)]);
        return w;
      },
      profile);
}

}  // namespace miniapp::parallel
