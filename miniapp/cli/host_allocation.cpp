// How the binary allocates host memory: glibc's malloc kept from returning freed memory, and a
// replacement of the global operator new (a replaceable function of the standard) that puts large
// blocks on transparent huge pages and records the size of a request that fails, so that an
// out-of-memory message can say how much was asked for.
#include "miniapp/cli/host_allocation.hpp"

#include <malloc.h>
#include <omp.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "core/host_memory.hpp"
#include "core/parallel_exceptions.hpp"

namespace {
std::atomic<std::size_t> failed_bytes{0};
}

void* operator new(std::size_t bytes) {
  if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) {
    miniapp::advise_huge_pages(p, bytes);
    return p;
  }
  failed_bytes.store(bytes, std::memory_order_relaxed);
  // An exception may not leave an OpenMP region (it would end the process with std::terminate and a
  // core dump, also from a team of one thread): outside the work of a ParallelExceptions guard, which
  // rethrows it after the region, the message is written here, without allocating, and the process
  // ends (on several ranks mpirun then ends the others).
  if (omp_get_level() > 0 && !miniapp::ParallelExceptions::guarding()) {
    std::fprintf(stderr,
                 "miniapp: error: out of host memory: an allocation of %zu bytes failed in a parallel loop; use a "
                 "coarser mesh, more ranks on more nodes, or a machine with more memory\n",
                 bytes);
    std::_Exit(1);
  }
  throw std::bad_alloc();
}

// The array and nothrow forms too, although the library's own would come to the two above: under
// AddressSanitizer they are its own (std::stable_sort's nothrow buffer was freed here with free(), a
// mismatch it reports), so every form is the same malloc and free. A nothrow request that fails is
// not recorded: its caller copes (a smaller buffer).
void* operator new[](std::size_t bytes) { return ::operator new(bytes); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept { return std::malloc(bytes == 0 ? 1 : bytes); }
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept { return std::malloc(bytes == 0 ? 1 : bytes); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace miniapp::cli {

std::size_t last_failed_allocation_bytes() { return failed_bytes.load(std::memory_order_relaxed); }

// Large blocks from the heap rather than their own mappings (which free() unmaps), and the heap's top
// never trimmed: a freed block is reused as it is, already faulted in.
void keep_freed_host_memory() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
}

}  // namespace miniapp::cli
