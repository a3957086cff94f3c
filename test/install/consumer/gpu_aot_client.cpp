// Calls GPU pipelines made ahead of time by add_loom_library (TARGETS
// host-opencl, host-cuda) from a program that links only the generated
// libraries and Loom::Runtime. One check per command-line mode:
//   opencl          gpu_blur on the OpenCL device against a C++ reference
//   c_source        the same pipeline compiled from its C source (c_source output)
//   two_libraries   gpu_blur's result, left on the device, fed to gpu_scale:
//                   one context, two programs
//   no_device       with no OpenCL device: an error code and a message, no abort
//   cuda_no_driver  the host-cuda library on a machine without libcuda
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include <LoomBuffer.h>

#include "gpu_blur.h"
#include "gpu_blur_c.h"
#include "gpu_scale.h"
#ifdef LOOM_CONSUMER_CUDA
#include "gpu_scale_cuda.h"
#endif

// A testing hook of Loom::Runtime (src/runtime/RuntimeFunctions.h).
extern "C" void loom_device_program_stats(int32_t device_api, int64_t *built_from_source,
                                          int64_t *loaded_from_cache);

namespace {

using Image = loom::Runtime::Buffer<float, 2>;
const int width = 37, height = 19; // not multiples of the tiles

Image make_input() {
    Image in(width + 2, height + 2);
    for (int y = 0; y < height + 2; y++)
        for (int x = 0; x < width + 2; x++) in(x, y) = float((x * 13 + y * 7) % 17) * 0.25f;
    return in;
}

float reference_blur(const Image &in, int x, int y) {
    auto blur_x = [&](int i, int j) { return (in(i, j) + in(i + 1, j) + in(i + 2, j)) / 3.0f; };
    return (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3.0f;
}

bool close_to(float got, float want) {
    return std::fabs(got - want) <= 1e-5f * std::fmax(1.0f, std::fabs(want));
}

bool check_blur(const char *what, const Image &in, const Image &out) {
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            if (!close_to(out(x, y), reference_blur(in, x, y))) {
                std::printf("%s: out(%d, %d) = %g, expected %g\n", what, x, y, out(x, y),
                            reference_blur(in, x, y));
                return false;
            }
    return true;
}

int64_t opencl_programs() {
    int64_t built = 0, loaded = 0;
    loom_device_program_stats(loom_device_api_opencl, &built, &loaded);
    return built + loaded;
}

// Collects the messages of one call.
struct Messages {
    loom_call_context_t context{handler, this, nullptr, nullptr, nullptr, nullptr, nullptr};
    std::string text;
    static void handler(loom_call_context_t *c, const char *message) {
        static_cast<Messages *>(c->user_data)->text += message;
    }
};

int run_opencl() {
    {
        Image in = make_input(), out(width, height);
        for (int run = 0; run < 2; run++) {
            if (int r = gpu_blur(in, out)) return std::printf("gpu_blur failed: %d\n", r), 1;
            if (!out.device_dirty()) return std::printf("the result is not on the device\n"), 1;
            if (out.copy_to_host() != 0) return 1;
            if (!check_blur("gpu_blur", in, out)) return 1;
        }
        // A copy shares the host and the device memory (as in Halide) and is
        // device-dirty too; copy() is a deep host copy of the device's data.
        out.fill(0.0f);
        out.set_host_dirty();
        if (int r = gpu_blur(in, out)) return std::printf("gpu_blur failed: %d\n", r), 1;
        const int64_t live = loom_device_live_allocations();
        Image shared = out;
        if (!shared.device_dirty() || shared.raw_buffer()->device != out.raw_buffer()->device)
            return std::printf("a copy of a device-dirty Buffer: wrong device state\n"), 1;
        Image snapshot = out.copy();
        if (out.device_dirty() || snapshot.has_device_allocation())
            return std::printf("copy() of a device-dirty Buffer: wrong device state\n"), 1;
        if (!check_blur("copy() of gpu_blur's result", in, snapshot)) return 1;
        if (shared.copy_to_host() != 0 || !check_blur("a copy of gpu_blur's result", in, shared))
            return 1;
        out = Image(); // the copy keeps the device memory
        if (loom_device_live_allocations() != live || !shared.has_device_allocation())
            return std::printf("the last copy did not keep the device memory\n"), 1;
        if (opencl_programs() != 1)
            return std::printf("expected 1 OpenCL program, got %lld\n",
                               (long long)opencl_programs()),
                   1;
    }
    // The Buffers freed their device memory as they went.
    if (loom_device_live_allocations() != 0)
        return std::printf("%lld device allocations left\n",
                           (long long)loom_device_live_allocations()),
               1;
    std::printf("opencl: ok\n");
    return 0;
}

int run_c_source() {
    Image in = make_input(), out(width, height);
    if (int r = gpu_blur_c(in, out)) return std::printf("gpu_blur_c failed: %d\n", r), 1;
    if (out.copy_to_host() != 0 || !check_blur("gpu_blur_c", in, out)) return 1;
    std::printf("c_source: ok\n");
    return 0;
}

int run_two_libraries() {
    Image in = make_input(), blurred(width, height), scaled(width, height);
    if (int r = gpu_blur(in, blurred)) return std::printf("gpu_blur failed: %d\n", r), 1;
    // Still on the device: gpu_scale's kernel reads it there (same context).
    if (int r = gpu_scale(blurred, 2.0f, scaled))
        return std::printf("gpu_scale failed: %d\n", r), 1;
    if (!blurred.device_dirty()) return std::printf("blurred was copied back\n"), 1;
    if (scaled.copy_to_host() != 0) return 1;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            float want = reference_blur(in, x, y) * 2.0f + float(x);
            if (!close_to(scaled(x, y), want))
                return std::printf("two_libraries: scaled(%d, %d) = %g, expected %g\n", x, y,
                                   scaled(x, y), want),
                       1;
        }
    if (opencl_programs() != 2)
        return std::printf("expected 2 OpenCL programs, got %lld\n", (long long)opencl_programs()),
               1;
    std::printf("two_libraries: ok\n");
    return 0;
}

int expect_device_error(const char *what, int result, const std::string &message,
                        const char *must_mention) {
    if (result != loom_error_code_device)
        return std::printf("%s: expected loom_error_code_device, got %d (%s)\n", what, result,
                           message.c_str()),
               1;
    if (message.find(must_mention) == std::string::npos)
        return std::printf("%s: the message does not mention %s: %s\n", what, must_mention,
                           message.c_str()),
               1;
    std::printf("%s: ok (%s)\n", what, message.c_str());
    return 0;
}

int run_no_device() {
    Image in = make_input(), out(width, height);
    Messages m;
    int r = gpu_blur_with_context(&m.context, in, out);
    return expect_device_error("no_device", r, m.text, "OpenCL");
}

int run_cuda_no_driver() {
#ifdef LOOM_CONSUMER_CUDA
    Image in = make_input(), out(width, height);
    Messages m;
    int r = gpu_scale_cuda_with_context(&m.context, in, 2.0f, out);
    return expect_device_error("cuda_no_driver", r, m.text, "libcuda");
#else
    std::printf("cuda_no_driver: the consumer was configured without CUDA\n");
    return 1;
#endif
}

} // namespace

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "opencl") return run_opencl();
    if (mode == "c_source") return run_c_source();
    if (mode == "two_libraries") return run_two_libraries();
    if (mode == "no_device") return run_no_device();
    if (mode == "cuda_no_driver") return run_cuda_no_driver();
    std::printf("usage: gpu_aot_client opencl|c_source|two_libraries|no_device|cuda_no_driver\n");
    return 2;
}
