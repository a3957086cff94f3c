// perf_gpu's Halide 14 side (see halide_gpu_sides.h): calls the pipelines
// that halide_gpu_generate wrote, through Halide::Runtime::Buffer and the one
// standalone copy of Halide's runtime linked beside them.

#include "halide_gpu_sides.h"

#include "halide_gpu_blur_inline.h"
#include "halide_gpu_blur_shared.h"
#include "halide_gpu_matmul.h"

#include <HalideBuffer.h>
#include <HalideRuntimeOpenCL.h>

#include <cstdlib>
#include <stdexcept>

namespace halide_gpu {

namespace {

// Halide's runtime reports errors through one global handler, sometimes
// several for one failure (the cause, then the call that gave up); the
// pipelines run on one thread, so all messages since the last check belong
// to the failed call.
std::string errors_since_check;

void capture_error(void *, const char *message) {
    std::string m = message ? message : "";
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    if (m.empty()) return;
    errors_since_check += (errors_since_check.empty() ? "" : " | ") + m;
}

void install_error_handler() {
    static bool installed = false;
    if (!installed) halide_set_error_handler(capture_error);
    installed = true;
}

void check(int result, const char *what) {
    std::string message;
    message.swap(errors_since_check);
    if (result == 0) return;
    throw std::runtime_error(std::string("Halide ") + what + " failed (error " +
                             std::to_string(result) +
                             "): " + (message.empty() ? "(no message)" : message));
}

} // namespace

int compiled_matmul_size() {
    return LOOM_HALIDE_GPU_MATMUL_SIZE;
}

void choose_device(const std::string &platform_name, const std::string &device_type) {
    if (!std::getenv("HL_OCL_PLATFORM_NAME") && !platform_name.empty())
        halide_opencl_set_platform_name(platform_name.c_str());
    if (!std::getenv("HL_OCL_DEVICE_TYPE") && !device_type.empty())
        halide_opencl_set_device_type(device_type.c_str());
}

std::string init_opencl(const std::function<std::string(uint64_t cl_mem)> &describe) {
    install_error_handler();
    Halide::Runtime::Buffer<int> probe(1);
    check(probe.device_malloc(halide_opencl_device_interface()), "OpenCL start-up");
    std::string description = describe(halide_opencl_get_cl_mem(nullptr, probe.raw_buffer()));
    // The context stays; only the probe's memory goes.
    check(probe.device_free(), "device_free");
    return description;
}

void release_opencl() {
    halide_device_release(nullptr, halide_opencl_device_interface());
}

struct Runner::State {
    Kind kind;
    Halide::Runtime::Buffer<const uint16_t> blur_in;
    Halide::Runtime::Buffer<const float> a, b;
    Halide::Runtime::Buffer<uint16_t> blur_out;
    Halide::Runtime::Buffer<float> mm_out;

    halide_buffer_t *output() {
        return kind == Kind::MatMul ? mm_out.raw_buffer() : blur_out.raw_buffer();
    }
};

Runner::Runner(Kind kind, const Inputs &in, void *output_host, int out_width, int out_height)
    : state(std::make_unique<State>()) {
    install_error_handler();
    State &s = *state;
    s.kind = kind;
    if (kind == Kind::MatMul) {
        s.a = Halide::Runtime::Buffer<const float>(in.a, in.matmul_n, in.matmul_n);
        s.b = Halide::Runtime::Buffer<const float>(in.b, in.matmul_n, in.matmul_n);
        s.a.set_host_dirty();
        s.b.set_host_dirty();
        s.mm_out = Halide::Runtime::Buffer<float>(static_cast<float *>(output_host), out_width,
                                                  out_height);
    } else {
        s.blur_in = Halide::Runtime::Buffer<const uint16_t>(in.blur_in, in.blur_in_width,
                                                            in.blur_in_height);
        s.blur_in.set_host_dirty();
        s.blur_out = Halide::Runtime::Buffer<uint16_t>(static_cast<uint16_t *>(output_host),
                                                       out_width, out_height);
    }
}

Runner::~Runner() {
    // Device memory the pipeline allocated is not owned by the Buffer
    // objects; free it while the context exists.
    device_free();
}

void Runner::run() {
    State &s = *state;
    switch (s.kind) {
    case Kind::BlurShared:
        check(halide_gpu_blur_shared(s.blur_in.raw_buffer(), s.blur_out.raw_buffer()),
              "blur (shared)");
        break;
    case Kind::BlurInline:
        check(halide_gpu_blur_inline(s.blur_in.raw_buffer(), s.blur_out.raw_buffer()),
              "blur (inline)");
        break;
    case Kind::MatMul:
        check(halide_gpu_matmul(s.a.raw_buffer(), s.b.raw_buffer(), s.mm_out.raw_buffer()),
              "matmul");
        break;
    }
}

void Runner::copy_to_host() {
    halide_buffer_t *out = state->output();
    check(halide_copy_to_host(nullptr, out), "copy_to_host");
}

void Runner::device_sync() {
    check(halide_device_sync(nullptr, state->output()), "device_sync");
}

void Runner::device_free() {
    State &s = *state;
    for (halide_buffer_t *b : {s.blur_in.raw_buffer(), s.a.raw_buffer(), s.b.raw_buffer(),
                               s.blur_out.raw_buffer(), s.mm_out.raw_buffer()}) {
        if (!b || !b->device) continue;
        // An input's host data is still the truth: upload it again next run.
        bool input = b == s.blur_in.raw_buffer() || b == s.a.raw_buffer() || b == s.b.raw_buffer();
        halide_device_free(nullptr, b);
        if (input) b->set_host_dirty(true);
    }
}

uint64_t Runner::output_cl_mem() const {
    halide_buffer_t *out = state->output();
    return out->device ? halide_opencl_get_cl_mem(nullptr, out) : 0;
}

} // namespace halide_gpu
