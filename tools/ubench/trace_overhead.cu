// Does CUPTI's kernel tracing (what `bench step` records its timeline with) lengthen the kernels it
// times, or only the time between them? `bench step` divides the kernels' traced durations by the
// untraced wall time of the same steps, which is right only if tracing leaves the durations alone.
// Each kernel here stamps, with the device's global timer, when its first block began and when its
// last block ended (atomicMin / atomicMax over the blocks' thread 0). A graph of 256 dependent
// kernels runs untraced, then traced as KernelTrace does (CONCURRENT_KERNEL activity); per kernel it
// prints the event time, the stamped span, the stamped gap from one kernel's end to the next one's
// start, and (traced) CUPTI's duration. The event time less CUPTI's duration is the idle time per
// kernel boundary of the untraced graph.
// Build: target ubench_trace_overhead (-DMINIAPP_TOOLS=ON), or
//   nvcc -O3 -arch=sm_90 -std=c++17 -o trace_overhead tools/ubench/trace_overhead.cu -lcupti
// Run:   ./trace_overhead   (medians of 21 timed runs after 3 warm-ups)
#include <cuda_runtime.h>
#include <cupti.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.cuh"
#include "event_timing.cuh"

constexpr int threads = 256;
constexpr int blocks = 1024;  // as the backend's vector kernels on these sizes
constexpr int steps = 256;

__device__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// y += 1e-3 x (n = 0: an empty kernel), stamped: stamp[0] the first block's start, stamp[1] the last
// block's end.
__global__ void stamped_axpy(int n, const double* x, double* y, unsigned long long* stamp) {
  if (threadIdx.x == 0) atomicMin(stamp, global_ns());
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] += 1e-3 * x[i];
  __syncthreads();
  if (threadIdx.x == 0) atomicMax(stamp + 1, global_ns());
}

// CUPTI's kernel records, as KernelTrace keeps them: durations in ns.
std::vector<double> traced_ns;

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  constexpr std::size_t bytes = 8u << 20;
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, bytes));
  *size = *buffer ? bytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
  CUpti_Activity* activity = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &activity) == CUPTI_SUCCESS)
    if (activity->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(activity);
      traced_ns.push_back(static_cast<double>(k->end - k->start));
    }
  std::free(buffer);
}

struct RunTimes {
  double event_us = 0, span_us = 0, gap_us = 0;  // per kernel: medians over the runs of the runs' means
  double timer_step_ns = 0;                        // the smallest non-zero difference of two stamps seen
};

// Runs the graph timed_runs times after warmup_runs warm-ups, stamps reset before each run (outside the
// timed part).
RunTimes time_graph(cudaStream_t stream, cudaGraphExec_t graph, unsigned long long* stamps) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<double> event, span, gap;
  std::vector<unsigned long long> host(2 * steps), all;
  for (int r = 0; r < warmup_runs + timed_runs; ++r) {
    for (int k = 0; k < steps; ++k) {
      host[2 * k] = ~0ull;
      host[2 * k + 1] = 0;
    }
    CHECK(cudaMemcpyAsync(stamps, host.data(), host.size() * sizeof(host[0]), cudaMemcpyHostToDevice, stream));
    CHECK(cudaEventRecord(a, stream));
    CHECK(cudaGraphLaunch(graph, stream));
    CHECK(cudaEventRecord(b, stream));
    CHECK(cudaEventSynchronize(b));
    if (r < warmup_runs) continue;
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    CHECK(cudaMemcpy(host.data(), stamps, host.size() * sizeof(host[0]), cudaMemcpyDeviceToHost));
    double s = 0, g = 0;
    for (int k = 0; k < steps; ++k) {
      s += static_cast<double>(host[2 * k + 1] - host[2 * k]);
      if (k + 1 < steps) g += static_cast<double>(host[2 * k + 2]) - static_cast<double>(host[2 * k + 1]);
    }
    event.push_back(1000.0 * ms / steps);
    span.push_back(1e-3 * s / steps);
    gap.push_back(1e-3 * g / (steps - 1));
    all.insert(all.end(), host.begin(), host.end());
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(all.begin(), all.end());
  unsigned long long step = ~0ull;
  for (std::size_t i = 1; i < all.size(); ++i)
    if (all[i] != all[i - 1]) step = std::min(step, all[i] - all[i - 1]);
  return {median(event), median(span), median(gap), static_cast<double>(step)};
}

void check_cupti(CUptiResult result, const char* call) {
  if (result == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "%s: %s\n", call, text ? text : "unknown CUPTI error");
  std::exit(1);
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs; graphs of %d dependent kernels, %d blocks of %d threads; us per kernel\n",
              prop.name, prop.multiProcessorCount, steps, blocks, threads);
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (const int n : {0, 262144, 384000, 3072000}) {
    double *x, *y;
    unsigned long long* stamps;
    CHECK(cudaMalloc(&x, std::max(n, 1) * sizeof(double)));
    CHECK(cudaMalloc(&y, std::max(n, 1) * sizeof(double)));
    CHECK(cudaMalloc(&stamps, 2 * steps * sizeof(unsigned long long)));
    std::vector<double> ones(std::max(n, 1), 1.0);  // not zeros: the loads and stores move real values
    CHECK(cudaMemcpy(x, ones.data(), ones.size() * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, ones.data(), ones.size() * sizeof(double), cudaMemcpyHostToDevice));
    cudaGraph_t g;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    for (int k = 0; k < steps; ++k) stamped_axpy<<<blocks, threads, 0, stream>>>(n, x, y, stamps + 2 * k);
    CHECK(cudaStreamEndCapture(stream, &g));
    cudaGraphExec_t graph;
    CHECK(cudaGraphInstantiate(&graph, g, 0));
    CHECK(cudaGraphDestroy(g));

    const RunTimes plain = time_graph(stream, graph, stamps);
    check_cupti(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "cuptiActivityRegisterCallbacks");
    check_cupti(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable");
    traced_ns.clear();
    const RunTimes traced = time_graph(stream, graph, stamps);
    check_cupti(cuptiActivityFlushAll(1), "cuptiActivityFlushAll");
    check_cupti(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityDisable");
    // The kernels of the timed runs only (the warm-ups' are the first 3 × steps records).
    const std::size_t warmup_records = std::min<std::size_t>(traced_ns.size(), warmup_runs * steps);
    std::vector<double> timed(traced_ns.begin() + warmup_records, traced_ns.end());
    const double cupti_us = timed.empty() ? 0 : 1e-3 * median(timed);
    std::printf("n %8d | untraced: event %6.2f  span %6.2f  gap %5.2f | traced: event %6.2f  span %6.2f  gap %5.2f"
                "  CUPTI duration %6.2f (%zu records) | untraced event - CUPTI duration %5.2f | timer step %.0f / %.0f ns\n",
                n, plain.event_us, plain.span_us, plain.gap_us, traced.event_us, traced.span_us, traced.gap_us,
                cupti_us, timed.size(), plain.event_us - cupti_us, plain.timer_step_ns, traced.timer_step_ns);
    CHECK(cudaGraphExecDestroy(graph));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(stamps));
  }
  CHECK(cudaStreamDestroy(stream));
  return 0;
}
