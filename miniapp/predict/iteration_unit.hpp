#pragma once
#include <optional>
#include <string_view>

namespace miniapp::predict {

// A Poisson iteration calibrated as one unit (Calibration::iteration_curves): a solver with its
// preconditioner running its own iterations as the time loop does (batches replayed from graphs, a
// host read per batch). On a GPU a replayed iteration of dependent fused kernels, each ending in a
// grid-wide reduction, costs about twice the sum of its kernels calibrated alone; timed whole, it
// needs no such model. pcg_jacobi and pcg_aip1: Pcg with Jacobi or AIP-1 in two passes; batched_pcg:
// the FFT path's frequency systems (fft::BatchedPcg, Jacobi); pcg_aip1_product: AIP-1 as the product
// Gᵀ G (AipForm::product), an iteration of two kernels rather than three, timed on the plane stencil;
// pcg_amg: Pcg with one AMG V-cycle (solvers/amg/), timed on the hierarchy of the 3D stencil, whose
// levels shrink about 8 times each: its calls per iteration grow with the level count, and a case's
// iteration is priced at its own calls and bytes (CostCurve::seconds). On several ranks pcg_jacobi and
// pcg_amg name DistributedPcg with block Jacobi or AMG coupled across the ranks, calibrated per rank
// count under mpirun (CommCalibration::iterations).
enum class IterationUnit { pcg_jacobi, pcg_aip1, batched_pcg, pcg_aip1_product, pcg_amg };
inline constexpr int iteration_unit_count = 5;
std::string_view name(IterationUnit unit);
std::optional<IterationUnit> iteration_unit_from_name(std::string_view text);

}  // namespace miniapp::predict
