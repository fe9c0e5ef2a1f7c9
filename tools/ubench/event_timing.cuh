#pragma once
// The timing of the probes in this folder: CUDA events around each run, 3 warm-ups, the median of 21.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "check.cuh"

inline constexpr int warmup_runs = 3, timed_runs = 21;

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The median time in ms of `launch()`, which queues its work on `stream`.
template <class Launch>
double median_event_ms(cudaStream_t stream, Launch launch) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int w = 0; w < warmup_runs; ++w) launch();
  std::vector<double> ms;
  for (int r = 0; r < timed_runs; ++r) {
    CHECK(cudaEventRecord(a, stream));
    launch();
    CHECK(cudaEventRecord(b, stream));
    CHECK(cudaEventSynchronize(b));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  return median(ms);
}
