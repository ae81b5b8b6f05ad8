#include "app/heap_tuning.hpp"

#include <malloc.h>

namespace burst {

void keep_cycle_buffers_in_heap()
{
    // Above any view of a 1M-job queue; a fixed value also stops the
    // threshold from adapting.
    constexpr int kMmapThreshold = 256 << 20;
    mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
    mallopt(M_TRIM_THRESHOLD, 2 * kMmapThreshold);
}

} // namespace burst
