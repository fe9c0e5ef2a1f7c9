// First touch of fresh anonymous memory by 2 threads, huge-page advice as miniapp gives it.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
int main(int argc, char** argv) {
  size_t bytes = (size_t)(atof(argv[1]) * 1e9);
  int huge = atoi(argv[2]);
  double t0 = omp_get_wtime();
  char* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  madvise(p, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < bytes; i += 4096) p[i] = 1;
  double t = omp_get_wtime() - t0;
  printf("%s: %.2f GB in %.3f s = %.2f GB/s\n", huge ? "huge" : "4k", bytes / 1e9, t, bytes / 1e9 / t);
  return 0;
}
