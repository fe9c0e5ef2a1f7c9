#pragma once
#include <optional>

#include "operators/backend/device_matrix.hpp"
#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::amg {

// A matrix of the hierarchy's set-up in host memory, in device memory, or in both: the steps that run
// on a CUDA device leave their results there (a level's P and R, a coarser level's A), and the host
// copies one only where a host step reads it. A hierarchy built without a device holds every matrix
// on the host alone.
struct SetupMatrix {
  CsrMatrix host;                   // empty while only the device holds the matrix
  std::optional<DeviceCsr> device;  // the device's copy, where a device step made or read it

  bool on_host() const { return host.rows > 0 || !device; }
  index_t rows() const { return on_host() ? host.rows : device->rows(); }
  index_t nnz() const { return on_host() ? host.nnz() : device->nnz(); }
  // The matrix on the host: a copy, downloaded where only the device holds it.
  CsrMatrix host_copy() const { return on_host() ? host : device->to_host(); }
  // The matrix on the host, downloaded into `host` the first time (the device's copy kept).
  const CsrMatrix& fetch() {
    if (!on_host()) host = device->to_host();
    return host;
  }
};

}  // namespace miniapp::amg
