#ifndef LOOM_GPU_APP_H
#define LOOM_GPU_APP_H

// For the apps' GPU drivers, which call a library generated for host-opencl
// or host-cuda: the messages of one call, and what a failed call means. A
// host-cuda library on a machine without the CUDA driver fails cleanly (an
// error code and a message saying so); the drivers report that as "no CUDA
// driver found" and exit with kNoDriverExit, so that a test can tell it from
// a real failure.

#include <LoomRuntime.h>

#include <cstdio>
#include <string>

namespace loom_apps {

/** The exit code of a GPU driver that found no driver for its API. */
constexpr int kNoDriverExit = 3;

/** Collects the error messages of the calls it is passed to. */
struct CallMessages {
    loom_call_context_t context{handler, this, nullptr, nullptr, nullptr, nullptr, nullptr};
    std::string text;
    static void handler(loom_call_context_t *c, const char *message) {
        static_cast<CallMessages *>(c->user_data)->text += message;
    }
};

/** Reports a failed call of `what` and returns the driver's exit code:
 * kNoDriverExit when the device runtime says its driver is missing (a clean
 * failure), else 1. */
inline int report_gpu_failure(const char *what, int result, const std::string &message) {
    bool no_driver = result == loom_error_code_device &&
                     (message.find("no CUDA driver found") != std::string::npos ||
                      message.find("could not load the OpenCL library") != std::string::npos);
    if (no_driver) {
        std::printf("%s: skipped running: no GPU driver found (%s)\n", what, message.c_str());
        return kNoDriverExit;
    }
    std::printf("%s failed with error %d: %s\n", what, result, message.c_str());
    return 1;
}

} // namespace loom_apps

#endif
