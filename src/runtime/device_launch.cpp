// Checks and messages of kernel launches that every device API makes the
// same way (loom_device_run for OpenCL and CUDA): the grid's and block's
// shapes, the dynamic shared memory argument, and argument kinds the API
// does not know. Each API adds its own kernel and device limits.

#include "device_internal.h"

namespace loom_rt {

std::string launch_dims_text(const int32_t v[3]) {
    return std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]);
}

int check_launch_dims(void *uc, const std::string &who, const int32_t blocks[3],
                      const int32_t threads[3]) {
    for (int i = 0; i < 3; i++) {
        if (threads[i] < 1 || blocks[i] < 0)
            return device_error(uc, who + "launched with " + launch_dims_text(blocks) +
                                        " blocks of " + launch_dims_text(threads) +
                                        " threads; threads must be >= 1 and blocks >= 0");
    }
    return 0;
}

int launch_dynamic_shared(void *uc, const std::string &who, int32_t shared_bytes,
                          const char *arg_kinds, size_t count, int64_t *dynamic_shared) {
    bool has_shared = count > 0 && arg_kinds[count - 1] == 's';
    if (shared_bytes < 0 || (shared_bytes > 0 && !has_shared))
        return device_error(
            uc, who + "launched with " + std::to_string(shared_bytes) +
                    " bytes of dynamic shared memory but " +
                    (shared_bytes < 0 ? "that is negative" : "no 's' argument to pass them in"));
    *dynamic_shared = has_shared ? shared_bytes : 0;
    return 0;
}

int shared_arg_not_last_error(void *uc, const std::string &who, const char *arg_kinds) {
    return device_error(uc, who +
                                "the 's' (dynamic shared memory) argument must be "
                                "the last one; argument kinds \"" +
                                std::string(arg_kinds) + "\"");
}

int unknown_arg_kind_error(void *uc, const std::string &who, size_t index, char kind) {
    return device_error(uc, who + "argument " + std::to_string(index) + " has the unknown kind '" +
                                std::string(1, kind) + "' (use b, 1, 2, 4, 8 or a final s)");
}

} // namespace loom_rt
