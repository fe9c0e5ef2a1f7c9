#pragma once
#include <cstddef>

namespace miniapp::cli {

// The size of the last allocation through operator new that failed (std::bad_alloc carries none),
// 0 when none has.
std::size_t last_failed_allocation_bytes();

// Makes the process keep the host memory it frees for its next allocations rather than return it to
// the system: the set-up frees large temporaries and allocates as many again, and memory returned and
// taken back is faulted in and zeroed by the kernel page by page each time (a large part of the
// set-up's time). Call once, first thing in main.
void keep_freed_host_memory();

}  // namespace miniapp::cli
