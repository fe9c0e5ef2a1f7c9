// Would the AIP product's pass (aip_kernels.cu, RhoPass::product) run closer to copy bandwidth if r
// and q were stored interleaved, so that each gathered column fetches both in one 16-byte load? On
// tetrahedra that pass runs further below copy bandwidth than the two passes it replaced, and it makes
// two 8-byte gathers per stored entry.
//
// The pass on a stand-in for the tet product's pattern: an N³ grid in natural order, 8 entries a row
// (i, i ± 1, i ± N, i ± N², i + N + 1, periodic), float values, 32-bit columns, sELL slices of 32 rows
// (one chunk of 8 a row, as sell_row_sum loads it), the matrix streamed (__ldcs). Four forms:
//   separate    r and q in two arrays, gathered one after the other (miniapp's pass);
//   pairs       (r, q) interleaved, one 16-byte gather; r_new written to a plain array;
//   pairs_slot  the same, r_new written into the r slot of a second pair array (8-byte stores at a
//               16-byte stride), as PCG would need to alternate pair arrays;
//   r_only      r gathered alone, q not at all (a bound on what fewer gathers can give; not the pass).
// Then the one change the direction kernel would see: q = a z + b q_old at its own rows, plain
// against q_old read from and q written to the q slots of pair arrays.
// Every kernel's bytes are counted minimally (matrix, each vector once) and reported as a fraction
// of the device-to-device copy bandwidth measured in the same run.
// Build: target ubench_gather_pairs (-DMINIAPP_TOOLS=ON), or
//   nvcc -O3 -arch=sm_90 -std=c++17 -o gather_pairs tools/ubench/gather_pairs.cu
// Run:   ./gather_pairs [N ...]   (default 146 215: 3.1·10⁶ and 9.9·10⁶ rows; medians of 21 runs)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "block_sum.cuh"
#include "check.cuh"
#include "event_timing.cuh"

constexpr int threads = 256, slice = 32, width = 8;

enum Mode { separate, pairs, pairs_slot, r_only };
const char* const mode_names[] = {"separate", "pairs", "pairs_slot", "r_only"};

struct Vectors {
  const double *r, *q, *p;
  const double2* rq;
  double *x, *z, *r_new;
  double2* rq_new;
};

// z = M (r − α q), x += α p, r_new = r − α q, and Σ r_new·z, Σ r_new·r_new (one atomic per block).
template <Mode mode>
__global__ void __launch_bounds__(threads) pass_kernel(int n, const int* col, const float* val, Vectors v, double alpha,
                                                       double* sums) {
  __shared__ double shared[threads / 32];
  double rz = 0, rr = 0;
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < n; row += gridDim.x * blockDim.x) {
    const long long e = static_cast<long long>(row / slice) * slice * width + row % slice;
    int c[width];
    float a[width];
#pragma unroll
    for (int k = 0; k < width; ++k) {
      c[k] = __ldcs(col + e + k * slice);
      a[k] = __ldcs(val + e + k * slice);
    }
    double zi = 0;
#pragma unroll
    for (int k = 0; k < width; ++k) {
      double g;
      if constexpr (mode == separate) {
        g = __ldg(v.r + c[k]) - alpha * __ldg(v.q + c[k]);
      } else if constexpr (mode == r_only) {
        g = __ldg(v.r + c[k]);
      } else {
        const double2 pair = __ldg(v.rq + c[k]);
        g = pair.x - alpha * pair.y;
      }
      zi += static_cast<double>(a[k]) * g;
    }
    v.x[row] += alpha * v.p[row];
    v.z[row] = zi;
    double ri;
    if constexpr (mode == separate || mode == r_only) {
      ri = v.r[row] - alpha * v.q[row];
    } else {
      const double2 pair = v.rq[row];
      ri = pair.x - alpha * pair.y;
    }
    if constexpr (mode == pairs_slot) v.rq_new[row].x = ri;
    else v.r_new[row] = ri;
    rz += ri * zi;
    rr += ri * ri;
  }
  rz = block_sum<threads>(rz, shared);
  rr = block_sum<threads>(rr, shared);
  if (threadIdx.x == 0) {
    atomicAdd(sums, rz);
    atomicAdd(sums + 1, rr);
  }
}

// q = a z + b q_old at the thread's rows: plain arrays, or the q slots of two pair arrays.
__global__ void direction_plain(int n, const double* z, const double* q_old, double* q) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    q[i] = 0.5 * z[i] + 0.25 * q_old[i];
}
__global__ void direction_slot(int n, const double* z, const double2* rq_old, double2* rq) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    rq[i].y = 0.5 * z[i] + 0.25 * rq_old[i].y;
}

template <class T>
T* device_copy(const std::vector<T>& host) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, host.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

std::vector<double> values(long long n, unsigned seed) {  // uniform in [0.5, 1.5]: never zero
  std::vector<double> v(n);
  srand(seed);
  for (double& x : v) x = 0.5 + static_cast<double>(rand()) / RAND_MAX;
  return v;
}

void run(int N, int blocks, double copy_gbs) {
  const long long n = static_cast<long long>(N) * N * N;
  const long long padded = (n + slice - 1) / slice * slice;
  std::vector<int> col(padded * width);
  std::vector<float> val(padded * width);
  const long long offsets[width] = {0, 1, -1, N, -N, static_cast<long long>(N) * N, -static_cast<long long>(N) * N,
                                    N + 1};
  for (long long row = 0; row < padded; ++row)
    for (int k = 0; k < width; ++k) {
      const long long at = row / slice * slice * width + k * slice + row % slice;
      col[at] = static_cast<int>(((row < n ? row : 0) + offsets[k] + n) % n);
      val[at] = row < n ? (k == 0 ? 2.0f : -0.125f) : 0.0f;
    }
  const std::vector<double> r = values(n, 1), q = values(n, 2), p = values(n, 3), x0 = values(n, 4);
  std::vector<double2> rq(n);
  for (long long i = 0; i < n; ++i) rq[i] = make_double2(r[i], q[i]);
  int* d_col = device_copy(col);
  float* d_val = device_copy(val);
  double *d_x = device_copy(x0), *d_sums = device_copy(std::vector<double>(2, 0.0));
  Vectors v{device_copy(r), device_copy(q), device_copy(p), device_copy(rq), d_x, device_copy(values(n, 5)),
            device_copy(values(n, 6)), device_copy(rq)};

  std::printf("N %d: %lld rows, %d blocks of %d; copy bandwidth %.1f GB/s\n", N, n, blocks, threads, copy_gbs);

  // Minimal bytes of the pass: the matrix (4 + 4 bytes an entry), r and q once (r_only too reads q
  // at its own rows), x read and written, p, z and r_new once: 8·8 + 16 + 16 + 24 = 120 bytes a row.
  const double bytes = static_cast<double>(padded) * width * 8 + 56.0 * n;
  for (int m = 0; m < 4; ++m) {
    const auto launch = [&] {
      switch (m) {
        case separate: pass_kernel<separate><<<blocks, threads>>>(n, d_col, d_val, v, 1e-3, d_sums); break;
        case pairs: pass_kernel<pairs><<<blocks, threads>>>(n, d_col, d_val, v, 1e-3, d_sums); break;
        case pairs_slot: pass_kernel<pairs_slot><<<blocks, threads>>>(n, d_col, d_val, v, 1e-3, d_sums); break;
        default: pass_kernel<r_only><<<blocks, threads>>>(n, d_col, d_val, v, 1e-3, d_sums); break;
      }
    };
    const double ms = median_event_ms(nullptr, launch);
    std::printf("  pass %-10s  %8.1f us  %6.1f GB/s  %5.1f %% of copy\n", mode_names[m], ms * 1e3, bytes / (ms * 1e6),
                100 * bytes / (ms * 1e6) / copy_gbs);
  }
  // The direction kernel's own-row part: 24 bytes a row counted in both forms (z, q_old, q).
  const double direction_bytes = 24.0 * n;
  double* q_new = device_copy(values(n, 9));
  const double plain_ms =
      median_event_ms(nullptr, [&] { direction_plain<<<blocks, threads>>>(n, v.z, v.q, q_new); });
  const double slot_ms =
      median_event_ms(nullptr, [&] { direction_slot<<<blocks, threads>>>(n, v.z, v.rq, v.rq_new); });
  std::printf("  direction plain  %8.1f us  %5.1f %% of copy\n", plain_ms * 1e3,
              100 * direction_bytes / (plain_ms * 1e6) / copy_gbs);
  std::printf("  direction slot   %8.1f us  %5.1f %% of copy (24 bytes a row counted, as plain)\n", slot_ms * 1e3,
              100 * direction_bytes / (slot_ms * 1e6) / copy_gbs);
  for (void* ptr : {static_cast<void*>(d_col), static_cast<void*>(d_val), static_cast<void*>(d_x),
                    static_cast<void*>(d_sums), static_cast<void*>(const_cast<double*>(v.r)),
                    static_cast<void*>(const_cast<double*>(v.q)), static_cast<void*>(const_cast<double*>(v.p)),
                    static_cast<void*>(const_cast<double2*>(v.rq)), static_cast<void*>(v.z),
                    static_cast<void*>(v.r_new), static_cast<void*>(v.rq_new), static_cast<void*>(q_new)})
    CHECK(cudaFree(ptr));
}

int main(int argc, char** argv) {
  int sms = 0, per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, pass_kernel<separate>, threads, 0));
  const int blocks = std::min(sms * per_sm, 1024);  // as miniapp's reduction kernels (cg::max_partials)
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {146, 215};
  // Copy bandwidth: y = x over two arrays of 1 GiB (bytes read + written), far larger than L2.
  const long long copy_n = 1LL << 27;
  double *cx = nullptr, *cy = nullptr;
  CHECK(cudaMalloc(&cx, copy_n * 8));
  CHECK(cudaMalloc(&cy, copy_n * 8));
  CHECK(cudaMemset(cx, 1, copy_n * 8));  // never zero: bytes 0x01
  const double copy_ms =
      median_event_ms(nullptr, [&] { CHECK(cudaMemcpyAsync(cy, cx, copy_n * 8, cudaMemcpyDeviceToDevice)); });
  const double copy_gbs = 2.0 * copy_n * 8 / (copy_ms * 1e6);
  CHECK(cudaFree(cx));
  CHECK(cudaFree(cy));
  for (const int N : sizes) run(N, blocks, copy_gbs);
}
