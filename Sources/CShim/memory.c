#include <malloc.h>

#include "cshim.h"

size_t cshim_allocated_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    // Large blocks are mapped on their own, outside the arena's count.
    return info.uordblks + info.hblkhd;
}
