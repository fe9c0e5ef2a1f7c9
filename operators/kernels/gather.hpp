#pragma once
#include "operators/backend/array.hpp"

namespace miniapp {

// Indexed copies: the pack and unpack kernels of a halo exchange (parallel/halo_exchange.hpp).
// `index` lives on `exec`; its entries must lie in [0, size of the indexed vector) (not checked on
// the device: the halo plan that builds the lists checks them once on the host).

// y[i] = x[index[i]] for i < index.size(); y has index.size() entries (pack).
// Bytes 20n (index 4n, x 8n read at random, y 8n), no flops; n = index.size().
void gather(const Executor& exec, const Array<index_t>& index, const Vector& x, Vector& y);
// y[index[i]] = x[i] for i < index.size(); x has index.size() entries, indices distinct (unpack).
// Bytes 20n, no flops.
void scatter(const Executor& exec, const Array<index_t>& index, const Vector& x, Vector& y);

}  // namespace miniapp
