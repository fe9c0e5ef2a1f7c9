#pragma once
#include <cstddef>
#include <iosfwd>
#include <optional>

#include "mesh/mesh.hpp"
#include "miniapp/case/case_config.hpp"
#include "operators/backend/executor.hpp"
#include "operators/kernels/aip_kernels.hpp"
#include "operators/fv/flow_operators.hpp"
#include "solvers/amg/hierarchy.hpp"

namespace miniapp::run {

// Bytes that set_up_simulation allocates on the executor, by part. Every array whose size grows
// with the mesh is counted exactly as uploaded (sELL with its padding, CSR, vectors); fixed-size
// scratch (PCG's scalar block, the CUDA reduction workspace: a few KiB) is not.
struct MemoryEstimate {
  std::size_t operators = 0;       // time::DeviceOperators: sELL operators, E_C (and E_D with LES), vectors
  std::size_t preconditioner = 0;  // Jacobi's inverse diagonal, AIP's G, Gᵀ and temporary, or AMG's hierarchy
  std::size_t solver = 0;          // PCG's and the fractional step's work vectors
  std::size_t fields = 0;          // time::FlowFields
  // The run loop's observers: the diagnostics' work vectors (with LES D(ν)'s values), the sums of
  // [statistics], the wall faces' vectors; not their samplers (probe and wall-face rows: a surface's worth).
  std::size_t observers = 0;
  // The FFT path's arrays (fft::FftPoisson: the transforms' vectors and cuFFT's work area, the batched
  // PCG's and its 2D matrix, on several ranks the frequency vectors' halo exchange), beside the PCG's
  // parts where numerics.poisson = "auto" builds both; not its leading blocks' AIP factors or AMG
  // hierarchies (on the 2D plane), chosen in the first steps.
  std::size_t fft_path = 0;
  // Vectors the timed choices of the first steps allocate and free (the FFT path's leading blocks at
  // steps 2-3, "auto"'s path at steps 4-5).
  std::size_t first_steps = 0;
  std::size_t total() const { return operators + preconditioner + solver + fields + observers + fft_path + first_steps; }
  // Already in device memory when the estimate is checked, not part of the total: AMG's P, R and
  // coarser A as its device set-up left them, freed once the preconditioner is laid out from them.
  std::size_t held_by_setup = 0;
  // Part of the total, already in device memory when the estimate is checked: the solver's −L, laid
  // out there from the copy AMG's device set-up read (run::PressureSolverParts::pressure_matrix).
  std::size_t uploaded = 0;
  // Part of the operators, on the device before the preconditioner is laid out (and so beside the
  // set-up's held bytes): the solver's −L, which is AMG's finest level on one rank.
  std::size_t before_preconditioner = 0;
};

// What a rank of a several-rank run holds beyond its cells' arrays: the halo exchange's index list
// and buffers (parallel::Subdomain::halo_device_bytes), and on the PCG path the pressure matrix again,
// split into the inner rows [0, inner) and the interface rows [inner, owned)
// (parallel::OverlappedOperator). On the FFT path the rank transforms its owned lines and exchanges
// the frequency vectors' halo lines, which `sends` (the owned cells sent in an update of one vector)
// and the mesh's halo cells size.
struct RankShare {
  index_t inner = 0, owned = 0, sends = 0;
  std::size_t halo_bytes = 0;
};

// The estimate for `config` on `mesh` on `exec`, from the host operators before any upload: each uploaded
// matrix sized as to_sell(·, slice_height) will store it (slice pointers, and 4 + 8 bytes per stored
// entry padding included), E_C/E_D from the counts of their triplets. With AIP, computes the factor's
// pattern (aip_pattern), not the factor, unless given `aip`, the host matrices the solver will upload.
// With AMG, sizes `amg`, the hierarchy the solver will be built from, or where none is given builds the
// host hierarchy of −L (as the set-up would) to size it; on several ranks the set-up gives the bytes of
// its coupled hierarchy and its levels' halo exchanges (Amg::device_bytes) as `rank_amg_bytes`.
// With numerics.poisson = "fft" the estimate is the FFT path's; `fft_beside` adds it to PCG's (both
// paths built by "auto", the FFT path's leading blocks and the path then chosen by timing). `rank`:
// this rank's share of a several-rank run (nullptr on one rank).
MemoryEstimate estimate_memory(const Executor& exec, const cases::CaseConfig& config, const mesh::Mesh& mesh,
                               const fv::FlowOperators& ops, index_t slice_height, const amg::HostHierarchy* amg = nullptr,
                               const AipHostMatrices* aip = nullptr,
                               std::optional<std::size_t> rank_amg_bytes = std::nullopt, bool fft_beside = false,
                               const RankShare* rank = nullptr);

// The number of cells that `free_bytes` (free while the set-up holds held_by_setup and the uploaded
// bytes are in place) holds at the estimate's bytes per cell (of `cells` cells): the largest mesh of
// the same kind that would fit, both while the preconditioner is laid out (it and what goes before it
// beside what the set-up holds) and once the set-up's bytes are freed (the total).
long long cells_that_fit(const MemoryEstimate& estimate, index_t cells, std::size_t free_bytes);

// Whether the estimate fits in the executor's free memory (always on the CPU), as check_memory tests.
bool fits_device(const MemoryEstimate& estimate, const Executor& exec);

// Prints "device memory: N bytes per cell (total X GB)" to `log`; on CUDA then "fits on <device>: Y GB
// free, room for about M cells like these", or throws miniapp::Error ("mesh needs X GB of device
// memory, Y GB free on <device> (..., room for about M cells like these)") when the estimate exceeds
// the free device memory, before anything is uploaded.
void check_memory(const MemoryEstimate& estimate, index_t cells, const Executor& exec, std::ostream& log);

// Before a generated mesh is made, on rank `rank` of `ranks`: throws miniapp::Error naming the cell
// count, the least host memory its set-up needs (host_bytes_per_cell_at_least per cell the rank
// holds: rank 0 generates the whole mesh and shares it out, unless each rank makes its own z-layers)
// and what the host has available, when that cannot fit; a mesh file's size is not known before it is read.
inline constexpr double host_bytes_per_cell_at_least = 1000;
void check_host_memory(const cases::MeshConfig& mesh, int ranks, int rank);

}  // namespace miniapp::run
