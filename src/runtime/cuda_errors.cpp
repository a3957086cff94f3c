// CUDA errors in words: every failure names the driver call, the error's
// name and text from cuGetErrorName/cuGetErrorString (so it says
// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)" rather than 2), and what the
// call was for.

#include "cuda_internal.h"

namespace loom_rt {

std::string cu_error_text(const cu::DriverApi *api, CUresult err) {
    const char *name = nullptr, *text = nullptr;
    if (api && api->cuGetErrorName(err, &name) != cu::CUDA_SUCCESS) name = nullptr;
    if (api && api->cuGetErrorString(err, &text) != cu::CUDA_SUCCESS) text = nullptr;
    std::string s = name ? name : "unknown CUDA error " + std::to_string(err);
    if (text) s += std::string(" (") + text + ")";
    return s;
}

int cu_fail(void *uc, CUresult err, const char *call, const std::string &context) {
    std::string message =
        std::string("CUDA: ") + call + " failed with " + cu_error_text(cuda_state().api, err);
    if (!context.empty()) message += " (" + context + ")";
    return device_error(uc, message);
}

} // namespace loom_rt
