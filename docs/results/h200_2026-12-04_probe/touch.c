// First touch of N MB by T OpenMP threads (memset in parallel), twice in one process with a free between.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
static double touch(size_t n) {
  char* p = aligned_alloc(1 << 21, n);
  madvise(p, n, MADV_HUGEPAGE);
  double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i += 4096) memset(p + i, 1, 4096);
  double t = omp_get_wtime() - t0;
  volatile char c = p[n / 2]; (void)c;
  free(p);
  return t;
}
int main(int argc, char** argv) {
  size_t n = (size_t)atol(argv[1]) << 20;
  double a = touch(n), b = touch(n);
  printf("%s MB, %d threads: first touch %.3f s (%.2f GB/s), again after free %.3f s\n", argv[1], omp_get_max_threads(), a, n / a * 1e-9, b);
  return 0;
}
