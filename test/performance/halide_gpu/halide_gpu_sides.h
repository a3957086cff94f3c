// perf_gpu's Halide 14 side: the pipelines written by halide_gpu_generate
// (Halide's AOT path, target host-opencl) run on perf_gpu's inputs through
// Halide's own runtime and Halide::Runtime::Buffer. This header includes
// neither Halide's nor Loom's headers, so that perf_gpu's Loom code and
// Halide's buffer types stay in separate translation units.

#ifndef LOOM_TEST_PERFORMANCE_HALIDE_GPU_SIDES_H
#define LOOM_TEST_PERFORMANCE_HALIDE_GPU_SIDES_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace halide_gpu {

enum class Kind { BlurShared, BlurInline, MatMul };

/** The matmul size the Halide pipeline was compiled for (its reduction
 *  extent is a constant, as in Loom's). */
int compiled_matmul_size();

/** Host data of perf_gpu's inputs, dense, x fastest; not copied. */
struct Inputs {
    const uint16_t *blur_in = nullptr;
    int blur_in_width = 0, blur_in_height = 0;
    const float *a = nullptr, *b = nullptr; // matmul_n x matmul_n each
    int matmul_n = 0;
};

/** Sends Halide's OpenCL runtime to the platform and device type that Loom
 *  chose (as HL_OCL_PLATFORM_NAME and HL_OCL_DEVICE_TYPE would), unless
 *  those variables are set. */
void choose_device(const std::string &platform_name, const std::string &device_type);

/** Creates Halide's OpenCL context (through a one-value device allocation)
 *  and returns what `describe` says of that allocation's cl_mem. Throws
 *  std::runtime_error with Halide's message on failure. */
std::string init_opencl(const std::function<std::string(uint64_t cl_mem)> &describe);

/** Drops every program and the context Halide's OpenCL runtime made
 *  (halide_device_release); free every Runner's device memory first. */
void release_opencl();

/** One Halide pipeline bound to its inputs and an output buffer of the
 *  output's size (wrapping `output_host`). The inputs reach the device on the
 *  first run (host-dirty), as Loom's do. */
class Runner {
public:
    Runner(Kind kind, const Inputs &in, void *output_host, int out_width, int out_height);
    ~Runner();
    Runner(const Runner &) = delete;
    Runner &operator=(const Runner &) = delete;

    /** One call of the pipeline; the output stays on the device. Throws
     *  std::runtime_error with Halide's error text. */
    void run();
    void copy_to_host();
    void device_sync();
    /** Frees the inputs' and the output's device memory (host data kept;
     *  the inputs are marked host-dirty again). */
    void device_free();
    /** The output's cl_mem (0 if none). */
    uint64_t output_cl_mem() const;

private:
    struct State;
    std::unique_ptr<State> state;
};

} // namespace halide_gpu

#endif
