#pragma once
// glibc serves an allocation above its mmap threshold with a fresh mapping
// and unmaps it on free, so a buffer of that size costs page faults on every
// use.  The threshold adapts upwards only to chunks freed later, in whatever
// order they come: with a million pending jobs every policy decision built its
// 8-40 MB queue views from fresh pages (376 ms a decision instead of 62 ms).
// burstd and burstsim rebuild such buffers every cycle, so they keep them in
// the heap, and keep the freed heap for the next cycle instead of trimming it.

namespace burst {

void keep_cycle_buffers_in_heap();

} // namespace burst
