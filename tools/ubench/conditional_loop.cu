// The smallest device loop: a CUDA graph whose only node is a conditional WHILE node, with a body of
// one kernel that counts down and sets the condition: the pattern of KernelGraph::record_loop without
// the rest of miniapp. Written to tell whether compute-sanitizer's racecheck stops on any such loop
// (a tool matter) or on something of ours. Build:
//   target ubench_conditional_loop (-DMINIAPP_TOOLS=ON), or
//   nvcc -O3 -arch=sm_90 -std=c++17 -o conditional_loop tools/ubench/conditional_loop.cu
// Run: ./conditional_loop, then compute-sanitizer --tool racecheck ./conditional_loop (and memcheck).
// Closer to miniapp, each by its environment variable: CAPTURE_BODY=1 captures the body from a stream
// (else it is built node by node); SHARED=1 adds a block sum in shared memory to the body; TRIAL=1
// captures and drops the body once before the loop, as record_loop does; DESTROY_EARLY=1 destroys the
// loop's graph once instantiated (the exec alone is kept, as cuda::Graph does); REDUCE=N puts N
// one-launch grid sums in the body (each block's partial, a fence and a count, the last block adds the
// partials: the pattern of miniapp's CG kernels).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "check.cuh"

__global__ void count_down(int* left, int* runs, cudaGraphConditionalHandle handle) {
  *runs += 1;
  *left -= 1;
  cudaGraphSetConditional(handle, *left > 0 ? 1u : 0u);
}

// A block sum through shared memory, what racecheck instruments (the kernels of a PCG body have them).
__global__ void block_sums(const double* x, double* out) {
  __shared__ double partial[256];
  partial[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

// One-launch grid sum of x into *sum: the last block to count adds the block partials.
__global__ void grid_sum(const double* x, double* partial, unsigned* done, double* sum) {
  __shared__ double shared[256];
  __shared__ bool last;
  shared[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) shared[threadIdx.x] += shared[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = shared[0];
    __threadfence();
    last = atomicAdd(done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  if (threadIdx.x == 0) {
    double s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) s += partial[b];
    *sum = s;
    *done = 0;
  }
}

bool env(const char* name) { return std::getenv(name) != nullptr; }

int main() {
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 2 * sizeof(int)));
  double *x = nullptr, *sums = nullptr;
  CHECK(cudaMalloc(&x, 64 * 256 * sizeof(double)));
  CHECK(cudaMalloc(&sums, 64 * sizeof(double)));
  CHECK(cudaMemset(x, 0, 64 * 256 * sizeof(double)));
  const bool shared = env("SHARED");
  const int reduce = env("REDUCE") ? std::atoi(std::getenv("REDUCE")) : 0;
  double *partial = nullptr, *total = nullptr;
  unsigned* done = nullptr;
  CHECK(cudaMalloc(&partial, 64 * sizeof(double)));
  CHECK(cudaMalloc(&total, sizeof(double)));
  CHECK(cudaMalloc(&done, sizeof(unsigned)));
  CHECK(cudaMemset(done, 0, sizeof(unsigned)));
  if (env("TRIAL")) {  // the body alone, captured and dropped (no condition to set: handle 0 is not used)
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    if (shared) block_sums<<<64, 256, 0, stream>>>(x, sums);
    cudaGraph_t trial = nullptr;
    CHECK(cudaStreamEndCapture(stream, &trial));
    CHECK(cudaGraphDestroy(trial));
  }
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle handle;
  CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams params{};
  params.type = cudaGraphNodeTypeConditional;
  params.conditional.handle = handle;
  params.conditional.type = cudaGraphCondTypeWhile;
  params.conditional.size = 1;
  cudaGraphNode_t node;
  const bool captured = env("CAPTURE_BODY") || shared || reduce > 0;  // as miniapp: the body by stream capture
#if CUDART_VERSION >= 13000
  CHECK(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &params));
#else
  CHECK(cudaGraphAddNode(&node, graph, nullptr, 0, &params));
#endif
  cudaGraph_t body = params.conditional.phGraph_out[0];
  if (captured) {
    CHECK(cudaStreamBeginCaptureToGraph(stream, body, nullptr, nullptr, 0, cudaStreamCaptureModeThreadLocal));
    if (shared) block_sums<<<64, 256, 0, stream>>>(x, sums);
    for (int k = 0; k < reduce; ++k) grid_sum<<<64, 256, 0, stream>>>(x, partial, done, total);
    count_down<<<1, 1, 0, stream>>>(d, d + 1, handle);
    cudaGraph_t same;
    CHECK(cudaStreamEndCapture(stream, &same));
  } else {
    cudaKernelNodeParams k{};
    void* args[] = {&d, nullptr, &handle};
    int* runs = d + 1;
    args[1] = &runs;
    k.func = (void*)count_down;
    k.gridDim = dim3(1);
    k.blockDim = dim3(1);
    k.kernelParams = args;
    cudaGraphNode_t kernel;
    CHECK(cudaGraphAddKernelNode(&kernel, body, nullptr, 0, &k));
  }
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  if (env("DESTROY_EARLY")) {
    CHECK(cudaGraphDestroy(graph));
    graph = nullptr;
  }
  int want = 0;
  for (const int left : {5, 3}) {
    const int h[2] = {left, 0};
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    int back[2];
    CHECK(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost));
    std::printf("body %s: %d runs for %d (left %d)\n", captured ? "captured" : "built", back[1], left, back[0]);
    want += back[1] == left ? 0 : 1;
  }
  CHECK(cudaGraphExecDestroy(exec));
  if (graph) CHECK(cudaGraphDestroy(graph));
  CHECK(cudaFree(d));
  CHECK(cudaFree(x));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(partial));
  CHECK(cudaFree(total));
  CHECK(cudaFree(done));
  std::printf(want == 0 ? "ok\n" : "WRONG run counts\n");
  return want;
}
