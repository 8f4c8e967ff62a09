#pragma once
// glibc's allocator hands blocks back to the kernel between slider moves (it trims the heap and
// serves large blocks with fresh pages), so the next move faults the same memory in again: on
// the largest preset about 110,000 page faults in 200 moves, and moves of 16-27 ms among moves
// of 5 ms (tests/benchmarks/bench_gui: p99 20-27 ms). With the heap kept (mmap threshold 32 MiB,
// trim threshold 256 MiB) the same run takes 8,000 faults and p99 8-10 ms. mallopt() at run time
// did not get there (measured: 110,000 faults), the same settings as glibc tunables at process
// start do — so the app sets GLIBC_TUNABLES and re-executes itself once, before anything else.

namespace parascope::ui {

// The tunables the app runs with (also set by tests/benchmarks and tests/perf for the same
// allocator behaviour).
inline constexpr const char* kAllocatorTunables
    = "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456";

// Call first in main(): where the C library is glibc and GLIBC_TUNABLES does not already set
// the trim threshold, sets it (keeping the user's other tunables) and re-executes the program
// with the same arguments; returns (untuned) if that fails, or elsewhere.
void tuneAllocatorForRedraws(char** argv);

} // namespace parascope::ui
