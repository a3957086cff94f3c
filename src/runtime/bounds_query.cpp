// Bounds-query mode: generated code answers a call whose buffer arguments
// have no host memory by writing the region it needs into those buffers.

#include "RuntimeFunctions.h"

extern "C" {

int loom_bounds_query_set_dim(void *, loom_buffer_t *b, int32_t dim, int32_t min, int32_t extent) {
    loom_dimension_t &d = b->dim[dim];
    d.min = min;
    d.extent = extent;
    // Dense, dimension 0 innermost: dimensions are answered in order.
    d.stride = dim == 0 ? 1 : b->dim[dim - 1].stride * b->dim[dim - 1].extent;
    return 0;
}

} // extern "C"
