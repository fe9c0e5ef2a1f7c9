#pragma once
#include <functional>
#include <vector>

#include "core/stage_profile.hpp"
#include "parallel/mesh_window.hpp"

namespace miniapp::parallel {

// A mesh read on one rank, shared out so that no other rank ever holds it (collective). Rank 0 holds
// `whole` (the other ranks pass an empty mesh): it builds the cell graph, partitions it into
// comm.size() parts (METIS k-way, partition_graph; with `lines`, per cell its periodic line, every
// line whole on one rank, partition_lines), cuts each rank's window (cut_window) and sends it, and
// frees the whole mesh before it returns its own window. Fewer cells (or lines) than ranks, a METIS
// failure or a rank out of host memory is raised on every rank as the same CollectiveError. With
// `profile`, times the reader's parts: cell graph, partition, window cuts, window sends.
MeshWindow scatter_mesh(const Communicator& comm, mesh::Mesh whole, const std::vector<index_t>* lines = nullptr,
                        StageProfile* profile = nullptr);

// The sending half of scatter_mesh (collective): rank 0 calls window_of(r) for r = 1, 2, ... and sends
// each window as it is made (holding one at a time), then returns window_of(0); every other rank
// returns what it receives. When window_of throws on rank 0, the ranks still waiting are told, and
// every rank raises the same CollectiveError, naming the rank whose window failed. With `profile`,
// times the sends.
MeshWindow scatter_windows(const Communicator& comm, const std::function<MeshWindow(int rank)>& window_of,
                           StageProfile* profile = nullptr);

}  // namespace miniapp::parallel
