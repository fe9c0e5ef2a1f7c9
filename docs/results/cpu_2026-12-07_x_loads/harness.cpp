// A/B harness: sELL (slice height 8) SpMV y = A x, A a 7-point lattice Laplacian with float or double
// values, x gathered either by AVX2 vgatherdpd or by scalar loads into a vector; the same FMAs, so
// the results must agree bit for bit. Medians of `reps` calls; GB/s of 8 (float) or 12 (double) bytes
// per stored entry plus x read and y written once.
#include <immintrin.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
template <class V> struct S { long rows, slices; std::vector<int> ptr, col; std::vector<V> val; };
template <class V> S<V> build(int n) {
  S<V> a; a.rows = (long)n * n * n; a.slices = (a.rows + 7) / 8; a.ptr.reserve(a.slices + 1); a.ptr.push_back(0);
  a.col.reserve(a.slices * 56); a.val.reserve(a.slices * 56);
  int nb[7]; V vv[7];
  auto row_of = [&](long r, int& m) {
    int i = r % n, j = (r / n) % n, k = r / ((long)n * n); m = 0;
    auto add = [&](int ii, int jj, int kk, V v) { if (ii<0||jj<0||kk<0||ii>=n||jj>=n||kk>=n) return; nb[m] = ii + n*(jj+n*kk); vv[m++] = v; };
    add(i,j,k-1,-1); add(i,j-1,k,-1); add(i-1,j,k,-1); add(i,j,k,6); add(i+1,j,k,-1); add(i,j+1,k,-1); add(i,j,k+1,-1);
  };
  int cols[8][7]; V vals[8][7]; int len[8];
  for (long s = 0; s < a.slices; ++s) {
    int w = 0;
    for (int r = 0; r < 8; ++r) { long row = s*8+r; len[r] = 0; if (row < a.rows) { row_of(row, len[r]); std::memcpy(cols[r], nb, sizeof nb); std::memcpy(vals[r], vv, sizeof vv);} w = std::max(w, len[r]); }
    for (int e = 0; e < w; ++e) for (int r = 0; r < 8; ++r) {
      long row = s*8+r; bool live = row < a.rows && e < len[r];
      a.col.push_back(live ? cols[r][e] : (row < a.rows ? (int)row : 0)); a.val.push_back(live ? vals[r][e] : V(0));
    }
    a.ptr.push_back(a.col.size());
  }
  return a;
}
template <class V> __attribute__((target("avx2,fma"))) inline __m256d widen(const V* v) {
  if constexpr (sizeof(V) == 4) return _mm256_cvtps_pd(_mm_loadu_ps((const float*)v)); else return _mm256_loadu_pd((const double*)v);
}
template <class V> __attribute__((target("avx2,fma"))) void gathered(const S<V>& a, const double* x, double* y) {
  const __m256d all = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  for (long s = 0; s < a.slices; ++s) {
    int b = a.ptr[s], w = (a.ptr[s+1]-b)/8; __m256d lo = _mm256_setzero_pd(), hi = lo;
    for (int e = 0; e < w; ++e) {
      const V* v = a.val.data()+b+8*e; const int* c = a.col.data()+b+8*e;
      __m128i c0 = _mm_loadu_si128((const __m128i*)c), c1 = _mm_loadu_si128((const __m128i*)(c+4));
      lo = _mm256_fmadd_pd(widen(v), _mm256_mask_i32gather_pd(_mm256_setzero_pd(), x, c0, all, 8), lo);
      hi = _mm256_fmadd_pd(widen(v+4), _mm256_mask_i32gather_pd(_mm256_setzero_pd(), x, c1, all, 8), hi);
    }
    _mm256_storeu_pd(y+8*s, lo); _mm256_storeu_pd(y+8*s+4, hi);
  }
}
template <class V> __attribute__((target("avx2,fma"))) void loaded(const S<V>& a, const double* x, double* y) {
  for (long s = 0; s < a.slices; ++s) {
    int b = a.ptr[s], w = (a.ptr[s+1]-b)/8; __m256d lo = _mm256_setzero_pd(), hi = lo;
    for (int e = 0; e < w; ++e) {
      const V* v = a.val.data()+b+8*e; const int* c = a.col.data()+b+8*e;
      lo = _mm256_fmadd_pd(widen(v), _mm256_set_pd(x[c[3]], x[c[2]], x[c[1]], x[c[0]]), lo);
      hi = _mm256_fmadd_pd(widen(v+4), _mm256_set_pd(x[c[7]], x[c[6]], x[c[5]], x[c[4]]), hi);
    }
    _mm256_storeu_pd(y+8*s, lo); _mm256_storeu_pd(y+8*s+4, hi);
  }
}
template <class F> double median_time(F f, int reps) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) { auto t0 = std::chrono::steady_clock::now(); f(); t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now()-t0).count()); }
  std::sort(t.begin(), t.end()); return t[t.size()/2];
}
template <class V> void run(int n, int reps, const char* type) {
  S<V> a = build<V>(n); std::vector<double> x(a.rows), y1(a.slices*8), y2(a.slices*8);
  for (long i = 0; i < a.rows; ++i) x[i] = std::sin(0.001*i) + 1.5;
  double bytes = a.col.size()*(4.0 + sizeof(V)) + a.rows*16.0;
  gathered(a, x.data(), y1.data()); loaded(a, x.data(), y2.data());
  bool same = std::memcmp(y1.data(), y2.data(), a.rows*8) == 0;
  for (int round = 0; round < 3; ++round) {
    double tg = median_time([&]{ gathered(a, x.data(), y1.data()); }, reps);
    double tl = median_time([&]{ loaded(a, x.data(), y2.data()); }, reps);
    printf("%s n=%3d rows %9ld (%7.1f MB): gathers %8.3f ms %5.1f GB/s | scalar loads %8.3f ms %5.1f GB/s | loads/gathers time %.3f | bitwise %s\n",
           type, n, a.rows, bytes/1e6, tg*1e3, bytes/tg/1e9, tl*1e3, bytes/tl/1e9, tl/tg, same ? "same" : "DIFFERENT");
  }
}
int main(int argc, char** argv) {
  char model[256] = "?"; if (FILE* f = fopen("/proc/cpuinfo", "r")) { char l[512]; while (fgets(l, sizeof l, f)) if (!strncmp(l, "model name", 10)) { strncpy(model, strchr(l, ':') + 2, 255); break; } fclose(f); }
  printf("cpu: %s", model);
  for (int i = 1; i < argc; ++i) { int n = atoi(argv[i]); int reps = n <= 48 ? 200 : n <= 100 ? 20 : 7; run<float>(n, reps, "float "); run<double>(n, reps, "double"); }
}
