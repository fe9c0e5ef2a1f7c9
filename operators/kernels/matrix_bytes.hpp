#pragma once
#include "operators/backend/device_matrix.hpp"
#include "operators/kernels/aip_kernels.hpp"

// The bytes a front end counts for reading a matrix once (docs/cost-model.md), shared by every kernel
// that streams one: each stored entry's value (8 bytes, 4 with float values) and 4-byte column, and
// the slice pointers or row offsets. Its vectors are the caller's to add.
namespace miniapp::detail {

inline double matrix_bytes(const DeviceSell& a) { return 12.0 * a.stored_entries() + 4.0 * (a.slice_count() + 1); }
inline double matrix_bytes(const DeviceSellFloat& a) {
  return 8.0 * a.stored_entries() + 4.0 * (a.slice_count() + 1);
}
inline double matrix_bytes(const DeviceCsr& a) { return 12.0 * a.nnz() + 4.0 * (a.rows() + 1); }

}  // namespace miniapp::detail
