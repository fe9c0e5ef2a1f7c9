#pragma once
#include "operators/backend/device_matrix.hpp"

// CUDA part of AMG's set-up (solvers/amg/device_aggregation.hpp): the aggregation of amg::aggregate
// on a strong-connection graph in device memory, round for round the host's, so the same aggregates.
// In a build without CUDA a stub that throws miniapp::Error.
namespace miniapp::amg::cuda {

// Aggregates the rows of g (the filtered matrix; its off-diagonal entries are the strong links) with
// d, the positive diagonal before filtering (g.rows entries): writes each row's aggregate to of_row
// and the aggregates' roots, in increasing order, to the first entries of root (room for g.rows);
// returns the number of aggregates. All pointers are device memory. Synchronous.
index_t aggregate_rows(void* stream, const CsrView& g, const double* d, index_t* of_row, index_t* root);

}  // namespace miniapp::amg::cuda
