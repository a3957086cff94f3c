// Runs the blur generated with gpu=true (for host-opencl or host-cuda: one
// program per library, see CMakeLists.txt) on a generated image and checks
// it against plain C++. Links only the generated library and Loom::Runtime.
// Where the library's GPU driver is missing it says so and exits with
// loom_apps::kNoDriverExit.
//
//   blur_gpu_app_opencl [width height]      (likewise blur_gpu_app_cuda)

#include <cstdio>
#include <cstdlib>

#include <LoomBuffer.h>

#include LOOM_APP_GPU_HEADER
#include "blur_reference.h"
#include "gpu_app.h"

using Image = loom::Runtime::Buffer<uint16_t, 2>;

int main(int argc, char **argv) {
    // The GPU schedule needs outputs of at least one 256x8 tile.
    int width = argc > 2 ? std::atoi(argv[1]) : 611, height = argc > 2 ? std::atoi(argv[2]) : 83;
    if (width < 256 || height < 8) {
        std::printf("blur_gpu_app: the output must be at least 256x8\n");
        return 2;
    }
    Image in(width + 2, height + 2), out(width, height);
    uint32_t seed = 12345;
    for (int y = 0; y < in.height(); y++)
        for (int x = 0; x < in.width(); x++) {
            seed = seed * 1664525u + 1013904223u;
            in(x, y) = uint16_t((seed >> 8) % 60000); // sums of 3 may wrap, as in Loom
        }
    loom_apps::CallMessages messages;
    if (int r = blur_gpu_with_context(&messages.context, in, out))
        return loom_apps::report_gpu_failure(LOOM_APP_GPU_NAME, r, messages.text);
    // The result stays on the device until asked for.
    if (int r = out.copy_to_host()) {
        std::printf("%s: copy_to_host failed with error %d\n", LOOM_APP_GPU_NAME, r);
        return 1;
    }
    if (int failures = loom_apps::check_blur(in, out)) {
        std::printf("%s: %d mismatches\n", LOOM_APP_GPU_NAME, failures);
        return 1;
    }
    std::printf("%s: %dx%d ok\n", LOOM_APP_GPU_NAME, width, height);
    return 0;
}
