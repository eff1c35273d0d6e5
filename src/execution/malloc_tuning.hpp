// glibc malloc settings for query execution, applied once per process.
//
// Operators allocate and free buffers of a few hundred kB to a few MB all the
// time (hash tables and aggregate states growing by doubling, build-side
// collections, chunk buffers). glibc serves those with mmap and returns them
// with munmap by default, so each reuse faults fresh zeroed pages in again:
// on virtual machines that was up to half of a TPC-H query's time (Q18 at
// SF 1: 2.7 s against 1.3 s). Below 32 MB, blocks now come from malloc's heap
// and stay there for the next operator (the role jemalloc plays in DuckDB);
// up to 256 MB of free heap is kept before it is returned to the system.
// Peak memory is unchanged; memory a finished query freed stays with the
// process (up to that limit) instead of going back to the system.
//
// A process that sets MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_ or
// GLIBC_TUNABLES keeps its own settings; LAKESTREAM_MALLOC_DEFAULTS=1 keeps
// glibc's defaults. No-op on other C libraries.
#pragma once

namespace lakestream {

void TuneMallocOnce();

}  // namespace lakestream
