// Lesson 12: using the GPU.
//
// One pipeline, two schedules: a tone curve (a 256-entry lookup table) and a
// 3x3 binomial blur of an RGB image, scheduled once for the CPU (threads and
// SIMD) and once for OpenCL (GPU blocks and threads, the blur's first pass
// staged in the GPU's shared memory). A schedule never changes the result,
// so the two runs must agree bit for bit; this lesson checks that on the
// tutorial image and on a larger generated one.
//
// On the way: the target that turns GPU schedules on, the OpenCL C Loom
// generates, where each buffer lives (host or device) and when it moves,
// and a rough timing of both schedules. Last, the same GPU schedule for a
// CUDA target: its CUDA C is printed, and it runs where a CUDA driver is. With PoCL (OpenCL on the
// CPU, what CI runs) the "GPU" is this same CPU, so the timings tell nothing about a real GPU; they
// are printed, never compared.

#include <Loom.h>
#include <loom_image_io.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace {

// The algorithm, with fresh Funcs each time it is built, so that the CPU and
// the GPU versions carry their own schedules. The input is an ImageParam:
// one compiled pipeline runs on any image bound to it.
struct ToneBlur {
    loom::ImageParam input{loom::UInt(8), 3, "input"};
    loom::Var x{"x"}, y{"y"}, c{"c"}, v{"v"};
    loom::Func curve{"curve"}, toned{"toned"}, blur_x{"blur_x"}, out{"out"};

    ToneBlur() {
        // The tone curve lifts the mid-tones and keeps 0 and 255 where they
        // are: 128 becomes 191. Integer arithmetic only, so that any device
        // computes exactly the same values.
        curve(v) = loom::cast<uint16_t>(v + v * (255 - v) / 255);

        // Each pixel looks its new value up in the table (a data-dependent
        // read). The edges repeat in x and y, so the blur may read one pixel
        // outside; c never leaves the image, so it is left unbounded
        // ({Expr(), Expr()}) rather than clamped for nothing.
        loom::Func clamped = loom::BoundaryConditions::repeat_edge(
            input, {{input.dim(0).min(), input.dim(0).extent()},
                    {input.dim(1).min(), input.dim(1).extent()},
                    {loom::Expr(), loom::Expr()}});
        toned(x, y, c) = curve(loom::cast<int>(clamped(x, y, c)));

        // A 1-2-1 blur in x, then in y, in uint16 (at most 16 * 255, no
        // overflow), rounded back to uint8.
        blur_x(x, y, c) = toned(x - 1, y, c) + 2 * toned(x, y, c) + toned(x + 1, y, c);
        loom::Expr sum = blur_x(x, y - 1, c) + 2 * blur_x(x, y, c) + blur_x(x, y + 1, c);
        out(x, y, c) = loom::cast<uint8_t>((sum + 8) / 16);
    }

    loom::Buffer<uint8_t> make_output(const loom::Buffer<uint8_t> &image) const {
        return loom::Buffer<uint8_t>(image.width(), image.height(), image.channels());
    }
};

// The CPU schedule (lesson 8's ideas): strips of 16 rows in parallel, the
// blur's first pass computed one row at a time into a sliding window that
// lives for a strip, both vectorized by 16 lanes; the table first, at root.
void schedule_for_cpu(ToneBlur &p) {
    loom::Var yo("yo"), yi("yi");
    p.curve.compute_root();
    p.out.split(p.y, yo, yi, 16).parallel(yo).vectorize(p.x, 16);
    p.blur_x.store_at(p.out, yo).compute_at(p.out, yi).vectorize(p.x, 16);
}

// The GPU schedule. A GPU runs a *kernel* over a grid of *blocks*; each
// block is a group of *threads* that run at the same time, share a small
// fast memory (OpenCL's __local, CUDA's __shared__) and can wait for each
// other at barriers. In Loom a loop becomes a grid dimension with
// gpu_blocks() and a block dimension with gpu_threads(); gpu_tile() splits
// loops into both at once.
void schedule_for_gpu(ToneBlur &p) {
    loom::Var vo("vo"), vi("vi"), xo("xo"), yo("yo"), xi("xi"), yi("yi");

    // The table is its own kernel: 4 blocks of 64 threads, one per entry.
    // Only kernels read it, so it lives on the device alone: no host memory,
    // no copies.
    p.curve.compute_root().gpu_tile(p.v, vo, vi, 64);

    // The output: 16x16 tiles, one block each, a thread per pixel. The
    // channel loop becomes a third grid dimension, so all of the image is
    // one kernel launch:
    //   gpu_block c:  gpu_block yo:  gpu_block xo:  gpu_thread yi:  gpu_thread xi:
    p.out.gpu_tile(p.x, p.y, xo, yo, xi, yi, 16, 16).gpu_blocks(xo, yo, p.c);

    // blur_x at the block loop: each block first computes the 16x18 region
    // of blur_x its tile needs, into shared memory, one thread per point
    // (gpu_threads), then waits at a barrier before the output threads read
    // it. Each blur_x value is read by three output threads but computed
    // once; without this line blur_x would be inlined into the output and
    // computed three times. (toned() stays inlined: three table lookups per
    // blur_x value.) The block has 16x18 threads, as many as its largest
    // stage needs; for the output, the threads past row 16 skip their turn.
    p.blur_x.compute_at(p.out, xo).gpu_threads(p.x, p.y);
}

// The same computation in plain C++, for the tutorial image.
uint8_t reference(const loom::Buffer<uint8_t> &in, int x, int y, int c) {
    auto toned = [&](int i, int j) {
        int v = in(std::clamp(i, 0, in.width() - 1), std::clamp(j, 0, in.height() - 1), c);
        return v + v * (255 - v) / 255;
    };
    auto bx = [&](int i, int j) { return toned(i - 1, j) + 2 * toned(i, j) + toned(i + 1, j); };
    return uint8_t((bx(x, y - 1) + 2 * bx(x, y) + bx(x, y + 1) + 8) / 16);
}

// Compares two images element by element; reads through const references,
// which never mark a buffer host-dirty (see "The memory model" below).
bool same(const loom::Buffer<uint8_t> &a, const loom::Buffer<uint8_t> &b, const char *what) {
    for (int c = 0; c < a.channels(); c++)
        for (int y = 0; y < a.height(); y++)
            for (int x = 0; x < a.width(); x++)
                if (a(x, y, c) != b(x, y, c)) {
                    std::printf("%s: (%d, %d, %d) is %d on the CPU and %d on the GPU\n", what, x, y,
                                c, a(x, y, c), b(x, y, c));
                    return false;
                }
    std::printf("%s: CPU and GPU outputs are identical (%d x %d x %d)\n", what, a.width(),
                a.height(), a.channels());
    return true;
}

double median_ms(int runs, const std::function<void()> &run) {
    std::vector<double> times;
    for (int i = 0; i < runs; i++) {
        auto t0 = std::chrono::steady_clock::now();
        run();
        times.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

const char *yes_no(bool b) {
    return b ? "yes" : "no";
}

void print_flags(const char *name, const loom::Buffer<uint8_t> &b) {
    std::printf("  %-8s device memory: %-3s  host-dirty: %-3s  device-dirty: %s\n", name,
                yes_no(b.has_device_allocation()), yes_no(b.host_dirty()),
                yes_no(b.device_dirty()));
}

} // namespace

// The same GPU schedule for CUDA: a target with "cuda" prints the kernels as
// CUDA C (compiled with NVRTC when the pipeline first runs). Printing needs
// no GPU; running needs the CUDA driver (libcuda.so.1, loaded at run time),
// so without one this says so and skips the run. Returns false on a wrong
// result.
bool show_cuda(const loom::Buffer<uint8_t> &photo, const loom::Buffer<uint8_t> &cpu_out) {
    loom::Target cuda_target = loom::get_host_target().with_feature(loom::Target::CUDA);
    std::printf("\nCUDA target: %s\n", cuda_target.to_string().c_str());
    ToneBlur gpu;
    schedule_for_gpu(gpu);
    gpu.input.set(photo);
    // Look for: extern "C" __global__ kernels with __launch_bounds__(288)
    // (the 16x18 block), blockIdx/threadIdx for the block and thread loops,
    // the __shared__ array for blur_x and __syncthreads() after it.
    loom::Pipeline pipeline(gpu.out);
    pipeline.compile_to_device_source("lesson_12_kernels.cu", {}, cuda_target);
    std::string source = pipeline.device_source({}, cuda_target);
    std::printf("\n==== CUDA C (also in lesson_12_kernels.cu)\n%s====\n\n", source.c_str());

    try {
        loom::Buffer<int> probe(1);
        probe.copy_to_device(loom::DeviceAPI::CUDA);
    } catch (const loom::RuntimeError &e) {
        std::printf("Skipped running on CUDA: no CUDA driver found (printing needs none):\n%s\n",
                    e.what());
        return true;
    }
    loom::Buffer<uint8_t> cuda_out = gpu.make_output(photo);
    gpu.out.realize(cuda_out, cuda_target);
    return same(cpu_out, cuda_out, "rgb.png on CUDA");
}

int main() {
    const char *data = std::getenv("LOOM_TUTORIAL_DATA");
    std::string dir = data ? data : "images";
    loom::Buffer<uint8_t> photo = loom::image_io::load_png<uint8_t>(dir + "/rgb.png");

    // ---- The CPU version, checked against plain C++.
    ToneBlur cpu;
    schedule_for_cpu(cpu);
    cpu.input.set(photo);
    loom::Buffer<uint8_t> cpu_out = cpu.make_output(photo);
    cpu.out.realize(cpu_out);
    for (int c = 0; c < photo.channels(); c++)
        for (int y = 0; y < photo.height(); y++)
            for (int x = 0; x < photo.width(); x++)
                if (cpu_out(x, y, c) != reference(photo, x, y, c)) {
                    std::printf("CPU: out(%d, %d, %d) = %d instead of %d\n", x, y, c,
                                cpu_out(x, y, c), reference(photo, x, y, c));
                    return 1;
                }
    std::printf("CPU schedule matches the C++ reference\n");

    // ---- The target. GPU loops need a target with a GPU feature: "opencl"
    // added to the host's (Target("host-opencl") names the same target).
    // CPU-only targets reject GPU schedules with a CompileError. The host
    // part of the pipeline (launches, copies, CPU stages) is still compiled
    // with LLVM for the host CPU.
    loom::Target gpu_target = loom::get_host_target().with_feature(loom::Target::OpenCL);
    std::printf("\nGPU target: %s\n", gpu_target.to_string().c_str());

    // Is there an OpenCL device at all? Loom loads libOpenCL at run time
    // (dlopen), so a machine without one still runs every CPU pipeline; a
    // GPU pipeline there fails with a RuntimeError that says what is missing.
    // Copying a tiny buffer to the device is the cheapest way to find out.
    try {
        loom::Buffer<int> probe(1);
        probe.copy_to_device(loom::DeviceAPI::OpenCL);
    } catch (const loom::RuntimeError &e) {
        std::printf("No OpenCL device here, so no OpenCL part:\n%s\n", e.what());
        return show_cuda(photo, cpu_out) ? 0 : 1;
    }

    ToneBlur gpu;
    schedule_for_gpu(gpu);
    gpu.input.set(photo);

    // The loop nest shows which loops run where.
    gpu.out.print_loop_nest();

    // ---- The kernels. Pipeline::device_source gives the OpenCL C of all of
    // the pipeline's kernels: the program the runtime hands to the OpenCL
    // driver (compile_to_device_source writes the same text to a file).
    // Look for: one __kernel per GPU stage (the table and the output),
    // get_group_id/get_local_id for the block and thread loops, the
    // __local (shared) array for blur_x and the barrier between it and the
    // output's threads.
    loom::Pipeline gpu_pipeline(gpu.out);
    gpu_pipeline.compile_to_device_source("lesson_12_kernels.cl", {}, gpu_target);
    std::string source = gpu_pipeline.device_source({}, gpu_target);
    std::printf("\n==== OpenCL C (also in lesson_12_kernels.cl)\n%s====\n\n", source.c_str());
    // compile_to_lowered_stmt shows the host side: the launches with their
    // grid and block sizes, the copies, and the kernels' bodies as loop IR.
    // Here are its device calls: before each launch, the buffers the kernel
    // reads are made current on the device (prepare_device_input) and those
    // it writes get device memory (prepare_device_output); loom_device_run
    // names the kernel, the grid (blocks in x, y, z), the block (threads in
    // x, y, z: 16x18 for out, the size of the blur_x tile) and the dynamic
    // shared bytes; afterwards what it wrote is marked device-dirty.
    gpu_pipeline.compile_to_lowered_stmt("lesson_12_gpu.stmt", {}, loom::StmtOutputFormat::Text,
                                         gpu_target);
    std::printf("==== Device calls in lesson_12_gpu.stmt\n");
    std::ifstream stmt("lesson_12_gpu.stmt");
    for (std::string line; std::getline(stmt, line);)
        for (const char *call : {"loom_buffer_prepare_device", "loom_device_run",
                                 "loom_buffer_set_device_dirty", "loom_device_buffer_"})
            if (line.find(call) != std::string::npos) {
                std::printf("%s\n", line.substr(line.find_first_not_of(' ')).c_str());
                break;
            }
    std::printf("====\n\n");

    // ---- Running it. realize() with the GPU target compiles the host code,
    // and the first launch builds the OpenCL program (up to a second or two
    // on PoCL; the binary is then cached in memory and on disk, see
    // docs/guide/gpu.md).
    loom::Buffer<uint8_t> gpu_out = gpu.make_output(photo);
    gpu.out.realize(gpu_out, gpu_target);

    // ---- The memory model. A Buffer has host memory and, once a GPU
    // pipeline used it, device memory too, with two flags saying which copy
    // is newer (Halide's model):
    //  - the input was copied to the device before the first kernel read it;
    //    its host copy is unchanged, so both are clean, and the next run
    //    does not copy it again;
    //  - the output was written by a kernel and is *device-dirty*: its host
    //    memory is stale, and nothing was copied back yet;
    //  - the table (curve) and blur_x never exist on the host at all.
    std::printf("After the GPU run:\n");
    print_flags("photo", photo);
    print_flags("gpu_out", gpu_out);

    // Reading a device-dirty Buffer on the host copies it back first
    // (element access, data(), copy(), for_each_value ... and copy_to_host(),
    // which does just that). So results are never stale, and a result that
    // the host never reads is never copied: feed gpu_out to another GPU
    // pipeline and it stays on the device. Reading through a *const* Buffer
    // leaves it clean; element access through a non-const Buffer (as Halide's)
    // also marks it host-dirty, since it may be a write, and the next GPU
    // run would copy it to the device again.
    const loom::Buffer<uint8_t> &view = gpu_out;
    std::printf("gpu_out(0, 0, 0) read on the host: %d\n", view(0, 0, 0));
    print_flags("gpu_out", gpu_out);
    loom::image_io::save_png(gpu_out, "lesson_12_out.png");

    // Changing the input on the host marks it host-dirty (non-const element
    // access), so the next GPU run copies it to the device again.
    photo(0, 0, 0) = uint8_t(255 - photo(0, 0, 0));
    print_flags("photo", photo);
    gpu.out.realize(gpu_out, gpu_target);
    cpu.out.realize(cpu_out);
    std::printf("After changing one pixel and running both again:\n");
    print_flags("photo", photo);
    if (!same(cpu_out, gpu_out, "rgb.png")) return 1;
    if (!show_cuda(photo, cpu_out)) return 1;

    // ---- Timing, on a larger generated image. Each GPU run here includes
    // the copy of the output back to the host (copy_to_host), so both
    // schedules deliver the same thing; the input is already on the device
    // after the first run. Only medians of a few runs, printed: never
    // conclude anything from one machine, and nothing from PoCL about GPUs.
    loom::Buffer<uint8_t> big(1536, 1024, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < big.height(); y++)
            for (int x = 0; x < big.width(); x++)
                big(x, y, c) = uint8_t((x * 7 + y * 13 + c * 50 + (x * y) % 31) & 255);
    cpu.input.set(big);
    gpu.input.set(big);
    loom::Buffer<uint8_t> big_cpu = cpu.make_output(big), big_gpu = gpu.make_output(big);
    cpu.out.realize(big_cpu);             // compiled once already: runs at once
    gpu.out.realize(big_gpu, gpu_target); // the input goes to the device here
    if (!same(big_cpu, big_gpu, "generated 1536x1024")) return 1;

    const int runs = 5;
    double cpu_ms = median_ms(runs, [&] { cpu.out.realize(big_cpu); });
    double gpu_ms = median_ms(runs, [&] {
        gpu.out.realize(big_gpu, gpu_target);
        big_gpu.copy_to_host();
    });
    double kernel_ms = median_ms(runs, [&] {
        gpu.out.realize(big_gpu, gpu_target);
        big_gpu.device_sync(); // wait for the kernels, leave the result on the device
    });
    std::printf("Median of %d runs on 1536x1024x3:\n", runs);
    std::printf("  CPU schedule:                       %8.2f ms\n", cpu_ms);
    std::printf("  OpenCL schedule, result to host:    %8.2f ms\n", gpu_ms);
    std::printf("  OpenCL schedule, result on device:  %8.2f ms\n", kernel_ms);
    std::printf("(On PoCL the OpenCL device is this CPU; times vary from run to run.)\n");

    std::printf("Success!\n");
    return 0;
}
