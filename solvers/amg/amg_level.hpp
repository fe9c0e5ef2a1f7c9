#pragma once
#include <memory>
#include <vector>

#include "solvers/amg/amg.hpp"

namespace miniapp {

// One level above the coarsest, on the executor (amg.cpp builds it on one rank, rank_amg.cpp on
// several): its matrix and the transfers to the next coarser level, the smoother, the level's vectors
// (`size` entries: owned, then halo on several ranks) and the coarser level's b and x (`coarse_size`),
// owned here; the finest level's b and x are the apply's r and z.
struct Amg::Level {
  Level(const Executor& exec, std::unique_ptr<amg::LevelOperator> a_, std::unique_ptr<amg::LevelOperator> p,
        std::unique_ptr<amg::LevelOperator> r, const std::vector<double>& diagonal, double lambda_max,
        index_t coarse_size, const amg::AmgOptions& options)
      : a(std::move(a_)), prolongation(std::move(p)), restriction(std::move(r)),
        smoother(exec, *a, diagonal, lambda_max, options.smoother_ratio, options.smoother_degree),
        residual(exec, static_cast<index_t>(diagonal.size())), correction(exec, static_cast<index_t>(diagonal.size())),
        coarse_b(exec, coarse_size), coarse_x(exec, coarse_size) {}
  std::unique_ptr<amg::LevelOperator> a, prolongation, restriction;
  amg::ChebyshevSmoother smoother;
  mutable Vector residual, correction, coarse_b, coarse_x;
};

}  // namespace miniapp
