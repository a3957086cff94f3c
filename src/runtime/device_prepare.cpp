// What generated code calls before a kernel touches a buffer: device memory
// of the kernel's API, and a host -> device copy when the device copy is stale.

#include "RuntimeFunctions.h"

namespace {

int prepare(void *uc, loom_buffer_t *b, int32_t device_api, bool reads) {
    const loom_device_interface_t *iface = loom_device_interface_for(device_api);
    if (!iface) return loom_error_message(uc, "no runtime for the device API of a GPU kernel");
    if (b->device && b->device_interface != iface) {
        // Device memory of another API: bring the data home and let go of it.
        int r = loom_copy_to_host(uc, b);
        if (r == 0) r = loom_device_free(uc, b);
        if (r != 0) return r;
    }
    if (!b->device) {
        int r = loom_device_malloc(uc, b, iface);
        if (r != 0) return r;
        if (reads && b->host) b->flags |= loom_buffer_flag_host_dirty;
    }
    if (b->flags & loom_buffer_flag_host_dirty) return loom_copy_to_device(uc, b, iface);
    return 0;
}

} // namespace

extern "C" int loom_buffer_prepare_device_input(void *uc, loom_buffer_t *b, int32_t device_api) {
    return prepare(uc, b, device_api, true);
}

extern "C" int loom_buffer_prepare_device_output(void *uc, loom_buffer_t *b, int32_t device_api) {
    return prepare(uc, b, device_api, false);
}
