// perf_gpu: GPU schedules run through Loom's OpenCL backend (PoCL in CI:
// OpenCL on this CPU) against the same algorithms with good CPU schedules on
// Loom's LLVM backend, all in one run:
//  - blur: Halide's 3x3 box blur of uint16 (2048x2048 output from a 2050x2050
//    input). CPU: Halide's schedule (perf_scheduling's BlurPipeline). GPU:
//    32x8 tiles, one block each, with blur_x staged in shared memory per
//    block, and the same tiles with blur_x inlined.
//  - matmul: float, 1024x1024 (argv[3] changes the size). CPU: Halide's and
//    Loom's tuned schedules (perf_reductions' MatMul, MatMulTuned). GPU:
//    16x16 output tiles, one block each; for each step of 16 along k the
//    16x16 slices of A and B are staged in shared memory and the product is
//    accumulated in shared memory.
// Each GPU side runs twice: with the result copied to the host after every
// run (realize + copy_to_host: what the CPU side delivers) and left on the
// device (realize + device_sync). Inputs reach the device once, on the first
// run. Runs of all sides of a benchmark alternate (bench::time_runs), so all
// see the same machine load; medians of N runs (argv[1], default 10) and the
// GPU/CPU ratios of this run are printed. Outputs are checked: CPU against
// plain C++, GPU against CPU (exactly: matmul's inputs make every partial
// sum exact in float, so the order of the sum does not matter).
//
// First-realize latency: the GPU pipelines' JIT compile (lowering, the
// OpenCL C, LLVM for the host code) and their first realize (OpenCL program
// build or load, then one run), three ways:
//  - cold: LOOM_KERNEL_CACHE_DIR and POCL_CACHE_DIR are set at start-up to
//    fresh empty folders under /tmp (removed at exit), before any OpenCL use;
//    a trivial GPU pipeline runs first, so that the OpenCL compiler's own
//    start-up in the process (printed apart) is no pipeline's;
//  - warm, same process: the same compiled pipelines run again after the
//    OpenCL device interface's release() dropped every program and kernel
//    from memory (the programs come from Loom's disk cache, PoCL's compiled
//    kernels from its own);
//  - warm, second process: this program started again (--latency-child)
//    with the same cache folders; it compiles the same pipelines in the same
//    order, so that their OpenCL C is the same text.
// A fourth line compiles a fresh pipeline of each algorithm in the same
// process: its program is found in memory only if its OpenCL C is the same
// text as the first one's (today some generated names are numbered per
// process, so it is built again).
// `perf_gpu RUNS [blur|matmul] [MATMUL_SIZE]`; LOOM_OCL_DEVICE_TYPE and
// LOOM_OCL_PLATFORM_NAME choose the OpenCL device. Prints the CPU model,
// Loom's host target (its vector features) and the OpenCL device. Run on
// demand; asserts nothing about time. Exit code 1 on a wrong output or a
// failed side.
//
// With LOOM_WITH_HALIDE, Halide 14's OpenCL runs the same GPU pipelines
// (same algorithms and schedules) beside Loom's, through Halide's AOT path:
// halide_gpu/generate.cpp, built and run at build time, compiles them for
// host-opencl into static libraries (no runtime in them, and one standalone
// Halide runtime beside them), which link into this program. libHalide is
// not linked here: with its LLVM 14 loaded, PoCL's clang 15 calls into it
// while building a kernel and crashes. Halide's pipelines run on the same
// input data (Halide::Runtime::Buffers over the same host memory, copied to
// the device by Halide's runtime on the first run), on the device Loom chose
// (Halide's runtime is told its platform and type unless
// HL_OCL_PLATFORM_NAME / HL_OCL_DEVICE_TYPE are set), as the same two sides
// (to host, on device), checked against the CPU's output, with Loom/Halide
// ratios. If Halide's runtime fails, its error text is printed instead of
// its times. Its first-realize latency has no compile (AOT): cold is the
// first run in this process (the program built from source by the driver,
// PoCL's cache empty); warm, same process, is after halide_device_release()
// (a new context, the program built from source again, PoCL's cache warm);
// the second process runs them too. Halide's matmul is compiled for one size
// (LOOM_HALIDE_GPU_MATMUL_SIZE, 1024).

#include <Loom.h>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "bench_util.h"
#ifdef LOOM_WITH_HALIDE
#include "halide_gpu/halide_gpu_sides.h"
#endif
#include "runtime/RuntimeFunctions.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace loom_side {
namespace L = loom;
#include "reductions_pipelines.inc"
#include "scheduling_pipelines.inc"
} // namespace loom_side

namespace {

using bench::Clock;
using bench::ms_since;
using bench::Side;
using bench::time_runs;

int failures = 0;

loom::Target cpu_target() {
    return loom::get_host_target();
}
loom::Target gpu_target() {
    return loom::get_host_target().with_feature(loom::Target::OpenCL);
}

// ------------------------------------------------------------ the machine

std::string cpu_model() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("model name", 0) == 0) {
            size_t colon = line.find(':');
            if (colon != std::string::npos) return line.substr(colon + 2);
        }
    return "(unknown)";
}

/** An OpenCL device as the benchmark prints it and as Halide's runtime is
 *  told to choose it (platform name and device type). */
struct ClDevice {
    std::string description, platform, type;
};

// The OpenCL device of a cl_mem (memory -> context -> device), through
// libOpenCL loaded here with dlopen (Loom's and Halide's runtimes load the
// same library).
ClDevice opencl_device(uint64_t handle) {
    ClDevice unknown{"(unknown)", "", ""};
    void *lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return {"(libOpenCL not loadable here)", "", ""};
    auto mem_info =
        reinterpret_cast<decltype(&clGetMemObjectInfo)>(dlsym(lib, "clGetMemObjectInfo"));
    auto context_info =
        reinterpret_cast<decltype(&clGetContextInfo)>(dlsym(lib, "clGetContextInfo"));
    auto device_info = reinterpret_cast<decltype(&clGetDeviceInfo)>(dlsym(lib, "clGetDeviceInfo"));
    auto platform_info =
        reinterpret_cast<decltype(&clGetPlatformInfo)>(dlsym(lib, "clGetPlatformInfo"));
    if (!mem_info || !context_info || !device_info || !platform_info) return unknown;
    cl_context context = nullptr;
    cl_device_id device = nullptr;
    cl_platform_id platform = nullptr;
    if (mem_info(reinterpret_cast<cl_mem>(handle), CL_MEM_CONTEXT, sizeof(context), &context,
                 nullptr) != CL_SUCCESS ||
        context_info(context, CL_CONTEXT_DEVICES, sizeof(device), &device, nullptr) != CL_SUCCESS)
        return unknown;
    char name[256] = {0}, version[256] = {0}, driver[256] = {0}, pname[256] = {0};
    cl_uint units = 0;
    cl_device_type type = 0;
    device_info(device, CL_DEVICE_NAME, sizeof(name) - 1, name, nullptr);
    device_info(device, CL_DEVICE_VERSION, sizeof(version) - 1, version, nullptr);
    device_info(device, CL_DRIVER_VERSION, sizeof(driver) - 1, driver, nullptr);
    device_info(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units, nullptr);
    device_info(device, CL_DEVICE_TYPE, sizeof(type), &type, nullptr);
    device_info(device, CL_DEVICE_PLATFORM, sizeof(platform), &platform, nullptr);
    platform_info(platform, CL_PLATFORM_NAME, sizeof(pname) - 1, pname, nullptr);
    ClDevice d;
    d.description = std::string(name) + " (" + version + ", driver " + driver + ", " +
                    std::to_string(units) + " compute units) on platform \"" + pname + "\"";
    d.platform = pname;
    // The names HL_OCL_DEVICE_TYPE takes.
    d.type = (type & CL_DEVICE_TYPE_GPU)           ? "gpu"
             : (type & CL_DEVICE_TYPE_CPU)         ? "cpu"
             : (type & CL_DEVICE_TYPE_ACCELERATOR) ? "acc"
                                                   : "";
    return d;
}

// Loads the OpenCL driver, chooses the device and creates the context (all
// lazily done by the first device buffer); returns the device.
ClDevice init_opencl(double *ms) {
    auto t0 = Clock::now();
    loom::Buffer<int> probe(1);
    probe.copy_to_device(loom::DeviceAPI::OpenCL);
    *ms = ms_since(t0);
    return opencl_device(probe.raw_buffer()->device);
}

struct ProgramStats {
    int64_t built = 0, loaded = 0;
};
ProgramStats program_stats() {
    ProgramStats s;
    loom_device_program_stats(loom_device_api_opencl, &s.built, &s.loaded);
    return s;
}

// -------------------------------------------------------------- pipelines

const int blur_w = 2048, blur_h = 2048;
int matmul_n = 1024;

// The blur of perf_scheduling with GPU schedules: 32x8 tiles of blur_y, one
// GPU block each and a thread per pixel; blur_x per block in shared memory
// (34x10 values, a thread each) or inlined (9 loads per output pixel).
struct BlurGPU {
    loom::ImageParam input{loom::UInt(16), 2, "input"};
    loom::Func blur_x{"blur_x"}, blur_y{"blur_y"};
    loom::Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};

    explicit BlurGPU(bool shared) {
        blur_x(x, y) = (input(x, y) + input(x + 1, y) + input(x + 2, y)) / 3;
        blur_y(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3;
        blur_y.gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        if (shared) blur_x.compute_at(blur_y, xo).gpu_threads(x, y);
    }
    loom::Func output() const { return blur_y; }
};

// Matrix multiply out = A * B (A(k, y), B(x, k)) with the textbook GPU
// schedule: a 16x16 block of threads per 16x16 output tile; the tile's
// product accumulates in shared memory over steps of 16 along k, and at each
// step the block first copies the 16x16 slices of A and B it needs into
// shared memory (a thread per element), so that each element read from
// global memory is used 16 times.
struct MatMulGPU {
    loom::ImageParam A{loom::Float(32), 2, "mm_a"}, B{loom::Float(32), 2, "mm_b"};
    loom::Func a_tile{"a_tile"}, b_tile{"b_tile"}, prod{"prod"}, out{"out"};

    explicit MatMulGPU(int n) {
        const int t = 16;
        loom::Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
        loom::RVar ko("ko"), ki("ki");
        loom::RDom k(0, n);
        a_tile(x, y) = A(x, y);
        b_tile(x, y) = B(x, y);
        prod(x, y) = 0.0f;
        prod(x, y) += a_tile(k, y) * b_tile(x, k);
        out(x, y) = prod(x, y);

        out.gpu_tile(x, y, xo, yo, xi, yi, t, t);
        prod.compute_at(out, xo).gpu_threads(x, y);
        prod.update().split(k, ko, ki, t).reorder(ki, x, y, ko).gpu_threads(x, y);
        a_tile.compute_at(prod, ko).gpu_threads(x, y);
        b_tile.compute_at(prod, ko).gpu_threads(x, y);
    }
    loom::Func output() const { return out; }
};

// ------------------------------------------------------------- the data

struct Data {
    loom::Buffer<uint16_t> blur_in{blur_w + 2, blur_h + 2};
    loom::Buffer<float> a{matmul_n, matmul_n}, b{matmul_n, matmul_n};
    Data() {
        std::mt19937 rng(1);
        blur_in.for_each_value([&](uint16_t &v) { v = uint16_t(rng() & 0xffff); });
        // Multiples of 1/64 in [-1.56, 1.55]: every product and partial sum
        // of a dot product up to 1024 long is exact in float.
        a.for_each_value([&](float &v) { v = float(int(rng() % 200) - 100) / 64.0f; });
        b.for_each_value([&](float &v) { v = float(int(rng() % 200) - 100) / 64.0f; });
    }
};

// ------------------------------------------------------- GPU pipelines

enum class GpuKind { BlurShared, BlurInline, MatMul };

const char *kind_name(GpuKind k) {
    switch (k) {
    case GpuKind::BlurShared:
        return "blur, shared memory";
    case GpuKind::BlurInline:
        return "blur, blur_x inlined";
    case GpuKind::MatMul:
        return "matmul, shared tiles";
    }
    return "";
}

/** A fresh GPU pipeline bound to its inputs, and an output buffer for it. */
struct GpuPipeline {
    std::shared_ptr<void> algorithm; // keeps the ImageParams alive
    loom::Func f;
    loom::Buffer<> out;
};

GpuPipeline make_gpu(GpuKind k, const Data &d) {
    GpuPipeline g;
    if (k == GpuKind::MatMul) {
        auto p = std::make_shared<MatMulGPU>(matmul_n);
        p->A.set(d.a);
        p->B.set(d.b);
        g.f = p->output();
        g.algorithm = p;
        g.out = loom::Buffer<float>(matmul_n, matmul_n);
    } else {
        auto p = std::make_shared<BlurGPU>(k == GpuKind::BlurShared);
        p->input.set(d.blur_in);
        g.f = p->output();
        g.algorithm = p;
        g.out = loom::Buffer<uint16_t>(blur_w, blur_h);
    }
    return g;
}

/** What a GPU pipeline's first use cost. */
struct FirstRealize {
    double compile_ms = 0, first_ms = 0;
    ProgramStats before, after;
};

// Compiles g and runs it once, to the end of its kernels.
FirstRealize first_use(GpuPipeline &g) {
    FirstRealize r;
    r.before = program_stats();
    auto t0 = Clock::now();
    g.f.compile_jit(gpu_target());
    r.compile_ms = ms_since(t0);
    t0 = Clock::now();
    g.f.realize(g.out, gpu_target());
    g.out.device_sync();
    r.first_ms = ms_since(t0);
    r.after = program_stats();
    return r;
}

// One line of the latency report; with the steady run time (>= 0) also the
// first realize's excess over it (mostly the program build or load).
void print_first(GpuKind k, const FirstRealize &f, double steady_ms) {
    std::printf("    %-22s jit compile %6.1f ms   first realize %8.1f ms", kind_name(k),
                f.compile_ms, f.first_ms);
    if (steady_ms >= 0) std::printf(" (%8.1f over a steady run)", f.first_ms - steady_ms);
    std::printf("   programs built %lld, loaded from disk %lld\n",
                (long long)(f.after.built - f.before.built),
                (long long)(f.after.loaded - f.before.loaded));
}

// ------------------------------------------------------------ the sides

// A CPU side: the pipeline compiled for the host and run once (warm-up).
template <typename Pipe, typename Bind>
Side cpu_side(const std::string &name, Bind bind, loom::Buffer<> out) {
    Side s;
    s.name = name;
    try {
        auto p = std::make_shared<Pipe>();
        bind(*p);
        loom::Func f = p->output();
        auto t0 = Clock::now();
        f.compile_jit(cpu_target());
        s.compile_ms = ms_since(t0);
        f.realize(out, cpu_target());
        s.run = [p, f, out]() mutable { f.realize(out, cpu_target()); };
        s.ok = true;
    } catch (const std::exception &e) {
        s.error = e.what();
    }
    return s;
}

/** The two sides of one GPU pipeline: the result copied to the host after
 * each run, or left on the device. */
struct GpuSides {
    GpuKind kind;
    GpuPipeline g;
    FirstRealize cold;
    Side to_host, on_device;
};

std::unique_ptr<GpuSides> gpu_sides(GpuKind k, const Data &d) {
    auto s = std::make_unique<GpuSides>();
    s->kind = k;
    s->to_host.name = std::string("gpu ") + kind_name(k) + " (to host)";
    s->on_device.name = std::string("gpu ") + kind_name(k) + " (on device)";
    try {
        s->g = make_gpu(k, d);
        s->cold = first_use(s->g);
        s->to_host.compile_ms = s->on_device.compile_ms = s->cold.compile_ms;
        loom::Func f = s->g.f;
        loom::Buffer<> out = s->g.out;
        s->to_host.run = [f, out]() mutable {
            f.realize(out, gpu_target());
            out.copy_to_host();
        };
        s->on_device.run = [f, out]() mutable {
            f.realize(out, gpu_target());
            out.device_sync();
        };
        s->to_host.ok = s->on_device.ok = true;
    } catch (const std::exception &e) {
        s->to_host.error = s->on_device.error = e.what();
    }
    return s;
}

// ------------------------------------------- Halide 14's OpenCL (AOT)

/** The two sides of one pipeline through Halide 14's OpenCL: the pipeline
 *  that halide_gpu_generate compiled at build time (host-opencl), run on the
 *  same inputs by Halide's runtime, its output in `out`'s host memory. */
struct HalideSides {
    GpuKind kind;
    loom::Buffer<> out;
    double first_ms = 0; // the first run: program build, input upload, one run
    Side to_host, on_device;
#ifdef LOOM_WITH_HALIDE
    std::unique_ptr<halide_gpu::Runner> runner;
#endif
};

// Why Halide's sides are missing, when they are (printed with the results).
std::string halide_missing =
#ifdef LOOM_WITH_HALIDE
    "";
#else
    "not built (configure with -DLOOM_WITH_HALIDE=ON)";
#endif

#ifdef LOOM_WITH_HALIDE
// Halide's OpenCL runtime on the device Loom's chose; returns its start-up
// time, or -1 after recording why it failed in halide_missing.
double init_halide_opencl(const ClDevice &loom_device, std::string *halide_device) {
    try {
        halide_gpu::choose_device(loom_device.platform, loom_device.type);
        auto t0 = Clock::now();
        *halide_device =
            halide_gpu::init_opencl([](uint64_t mem) { return opencl_device(mem).description; });
        return ms_since(t0);
    } catch (const std::exception &e) {
        halide_missing = e.what();
        failures++;
        return -1;
    }
}

// The first run of a Halide pipeline, to the end of its kernels.
double halide_first_run(halide_gpu::Runner &r) {
    auto t0 = Clock::now();
    r.run();
    r.device_sync();
    return ms_since(t0);
}

std::unique_ptr<HalideSides> halide_sides(GpuKind k, const Data &d) {
    if (!halide_missing.empty()) return nullptr;
    if (k == GpuKind::MatMul && matmul_n != halide_gpu::compiled_matmul_size()) return nullptr;
    auto s = std::make_unique<HalideSides>();
    s->kind = k;
    s->to_host.name = std::string("halide14 ") + kind_name(k) + " (to host)";
    s->on_device.name = std::string("halide14 ") + kind_name(k) + " (on device)";
    try {
        halide_gpu::Inputs in;
        in.blur_in = d.blur_in.data();
        in.blur_in_width = d.blur_in.width();
        in.blur_in_height = d.blur_in.height();
        in.a = d.a.data();
        in.b = d.b.data();
        in.matmul_n = matmul_n;
        int w = blur_w, h = blur_h;
        halide_gpu::Kind hk = halide_gpu::Kind::MatMul;
        if (k == GpuKind::MatMul) {
            s->out = loom::Buffer<float>(matmul_n, matmul_n);
            w = h = matmul_n;
        } else {
            s->out = loom::Buffer<uint16_t>(blur_w, blur_h);
            hk = k == GpuKind::BlurShared ? halide_gpu::Kind::BlurShared
                                          : halide_gpu::Kind::BlurInline;
        }
        s->runner = std::make_unique<halide_gpu::Runner>(hk, in, s->out.raw_buffer()->host, w, h);
        s->first_ms = halide_first_run(*s->runner);
        halide_gpu::Runner *r = s->runner.get();
        s->to_host.run = [r]() {
            r->run();
            r->copy_to_host();
        };
        s->on_device.run = [r]() {
            r->run();
            r->device_sync();
        };
        s->to_host.ok = s->on_device.ok = true;
    } catch (const std::exception &e) {
        s->to_host.error = s->on_device.error = e.what();
    }
    return s;
}
#else
double init_halide_opencl(const ClDevice &, std::string *) {
    return -1;
}
std::unique_ptr<HalideSides> halide_sides(GpuKind, const Data &) {
    return nullptr;
}
#endif

// Why a benchmark has no Halide side (empty when it has one).
std::string halide_absent_reason(GpuKind k) {
    if (!halide_missing.empty()) return halide_missing;
#ifdef LOOM_WITH_HALIDE
    if (k == GpuKind::MatMul && matmul_n != halide_gpu::compiled_matmul_size())
        return "compiled for " + std::to_string(halide_gpu::compiled_matmul_size()) + "x" +
               std::to_string(halide_gpu::compiled_matmul_size()) +
               " at build time (LOOM_HALIDE_GPU_MATMUL_SIZE), not " + std::to_string(matmul_n);
#endif
    (void)k;
    return "";
}

void print_side(const Side &s, const std::string &check) {
    if (!s.ok) {
        std::printf("  %-42s FAILED: %s\n", s.name.c_str(), s.error.c_str());
        failures++;
        return;
    }
    std::printf("  %-42s median %9.3f ms (min %9.3f, process cpu %9.3f)  %s\n", s.name.c_str(),
                s.median_ms(), s.min_ms(), s.median_cpu_ms(), check.c_str());
}

// The ratio of two sides' medians (above 1: `side` is slower than `reference`).
void print_ratio(const Side &side, const Side &reference) {
    if (!side.ok || !reference.ok) return;
    std::printf("  %-36s / %-42s %6.2fx\n", side.name.c_str(), reference.name.c_str(),
                side.median_ms() / reference.median_ms());
}

// ----------------------------------------------------------- the checks

// The same values as the CPU's; reads through const Buffers (no host-dirty).
template <typename T> std::string same_as(const loom::Buffer<T> &want, const loom::Buffer<T> &got) {
    for (int y = 0; y < want.height(); y++)
        for (int x = 0; x < want.width(); x++)
            if (!(got(x, y) == want(x, y))) {
                failures++;
                return "WRONG at (" + std::to_string(x) + ", " + std::to_string(y) +
                       "): " + std::to_string(+got(x, y)) + " instead of " +
                       std::to_string(+want(x, y)) + " (the CPU's)";
            }
    return "same as the CPU's";
}

std::string check_blur(const loom::Buffer<uint16_t> &in, const loom::Buffer<uint16_t> &out) {
    auto bx = [&](int x, int y) {
        return uint16_t(uint16_t(in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3);
    };
    for (int y = 0; y < out.height(); y++)
        for (int x = 0; x < out.width(); x++) {
            uint16_t e = uint16_t(uint16_t(bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3);
            if (out(x, y) != e) {
                failures++;
                return "WRONG at (" + std::to_string(x) + ", " + std::to_string(y) + ")";
            }
        }
    return "matches C++";
}

std::string check_matmul(const loom::Buffer<float> &a, const loom::Buffer<float> &b,
                         const loom::Buffer<float> &out) {
    // Rows 0 and n-1 and 64 random points, in double (exact here).
    std::mt19937 rng(7);
    std::vector<std::pair<int, int>> points;
    for (int x = 0; x < matmul_n; x++) {
        points.push_back({x, 0});
        points.push_back({x, matmul_n - 1});
    }
    for (int i = 0; i < 64; i++)
        points.push_back({int(rng() % unsigned(matmul_n)), int(rng() % unsigned(matmul_n))});
    for (auto [x, y] : points) {
        double e = 0;
        for (int k = 0; k < matmul_n; k++) e += double(a(k, y)) * double(b(x, k));
        if (double(out(x, y)) != e) {
            failures++;
            return "WRONG at (" + std::to_string(x) + ", " + std::to_string(y) + ")";
        }
    }
    return "matches C++ (" + std::to_string(points.size()) + " points)";
}

// Runs every side `runs` times (alternating), then checks each side's output
// after a run of its own and prints times, checks, the GPU/CPU ratios and
// the Loom/Halide ratios of the same GPU pipeline.
void time_and_report(std::vector<Side *> cpus, std::vector<GpuSides *> gpus,
                     std::vector<HalideSides *> halides, int runs,
                     const std::function<std::string(const Side &)> &check_cpu,
                     const std::function<std::string(const loom::Buffer<> &)> &check_gpu) {
    std::vector<Side *> all = cpus;
    for (GpuSides *g : gpus) {
        all.push_back(&g->to_host);
        all.push_back(&g->on_device);
    }
    for (HalideSides *h : halides) {
        all.push_back(&h->to_host);
        all.push_back(&h->on_device);
    }
    time_runs(all, runs);
    for (Side *c : cpus) {
        if (c->ok) c->run();
        print_side(*c, c->ok ? check_cpu(*c) : "");
    }
    for (GpuSides *g : gpus) {
        std::string check;
        if (g->to_host.ok) {
            g->to_host.run();
            check = check_gpu(g->g.out);
        }
        print_side(g->to_host, check);
        print_side(g->on_device, "");
    }
    for (HalideSides *h : halides) {
        std::string check;
        if (h->to_host.ok) {
            try {
                h->to_host.run();
                check = check_gpu(h->out);
            } catch (const std::exception &e) {
                h->to_host.ok = false;
                h->to_host.error = e.what();
            }
        }
        print_side(h->to_host, check);
        print_side(h->on_device, "");
    }
    for (GpuSides *g : gpus)
        for (Side *c : cpus) {
            print_ratio(g->to_host, *c);
            print_ratio(g->on_device, *c);
        }
    for (GpuSides *g : gpus)
        for (HalideSides *h : halides)
            if (h->kind == g->kind) {
                print_ratio(g->to_host, h->to_host);
                print_ratio(g->on_device, h->on_device);
            }
}

// ------------------------------------------------------------ benchmarks

// Every side of the benchmarks asked for, compiled and run once, in a fixed
// order (a second process builds them in the same order: see the file comment).
struct Benchmarks {
    bool blur, matmul;
    loom::Buffer<uint16_t> blur_cpu_out{blur_w, blur_h};
    loom::Buffer<float> mm_halide_out{matmul_n, matmul_n}, mm_tuned_out{matmul_n, matmul_n};
    Side blur_cpu, mm_halide, mm_tuned;
    std::unique_ptr<GpuSides> blur_shared, blur_inline, mm_gpu;
    // Halide 14's OpenCL (null where it is not built or not run).
    std::unique_ptr<HalideSides> h_blur_shared, h_blur_inline, h_mm;

    Benchmarks(const Data &d, bool blur, bool matmul) : blur(blur), matmul(matmul) {
        if (blur) {
            blur_cpu = cpu_side<loom_side::BlurPipeline>(
                "cpu Halide's schedule",
                [&](loom_side::BlurPipeline &p) { p.input.set(d.blur_in); }, blur_cpu_out);
            blur_shared = gpu_sides(GpuKind::BlurShared, d);
            blur_inline = gpu_sides(GpuKind::BlurInline, d);
            h_blur_shared = halide_sides(GpuKind::BlurShared, d);
            h_blur_inline = halide_sides(GpuKind::BlurInline, d);
        }
        if (matmul) {
            auto bind = [&](auto &p) {
                p.A.set(d.a);
                p.B.set(d.b);
            };
            mm_halide = cpu_side<loom_side::MatMul>("cpu Halide's schedule", bind, mm_halide_out);
            mm_tuned =
                cpu_side<loom_side::MatMulTuned>("cpu Loom's tuned schedule", bind, mm_tuned_out);
            mm_gpu = gpu_sides(GpuKind::MatMul, d);
            h_mm = halide_sides(GpuKind::MatMul, d);
        }
    }

    std::vector<GpuSides *> gpus() const {
        std::vector<GpuSides *> v;
        for (GpuSides *g : {blur_shared.get(), blur_inline.get(), mm_gpu.get()})
            if (g) v.push_back(g);
        return v;
    }
    std::vector<HalideSides *> halides() const {
        std::vector<HalideSides *> v;
        for (HalideSides *h : {h_blur_shared.get(), h_blur_inline.get(), h_mm.get()})
            if (h) v.push_back(h);
        return v;
    }

    void run(const Data &d, int runs) {
        if (blur) {
            std::printf("\nblur: 3x3 box, uint16, %dx%d output, %d runs\n", blur_w, blur_h, runs);
            print_halide_absent(GpuKind::BlurShared);
            std::vector<HalideSides *> h;
            for (HalideSides *s : {h_blur_shared.get(), h_blur_inline.get()})
                if (s) h.push_back(s);
            time_and_report(
                {&blur_cpu}, {blur_shared.get(), blur_inline.get()}, h, runs,
                [&](const Side &) { return check_blur(d.blur_in, blur_cpu_out); },
                [&](const loom::Buffer<> &out) {
                    return same_as<uint16_t>(blur_cpu_out, loom::Buffer<uint16_t>(out));
                });
        }
        if (matmul) {
            std::printf("\nmatmul: float %dx%d times %dx%d, %d runs\n", matmul_n, matmul_n,
                        matmul_n, matmul_n, runs);
            print_halide_absent(GpuKind::MatMul);
            std::vector<HalideSides *> h;
            if (h_mm) h.push_back(h_mm.get());
            time_and_report(
                {&mm_halide, &mm_tuned}, {mm_gpu.get()}, h, runs,
                [&](const Side &s) {
                    return check_matmul(d.a, d.b, &s == &mm_halide ? mm_halide_out : mm_tuned_out);
                },
                [&](const loom::Buffer<> &out) {
                    return same_as<float>(mm_halide_out, loom::Buffer<float>(out));
                });
            double flops = 2.0 * double(matmul_n) * matmul_n * matmul_n;
            std::vector<const Side *> sides = {&mm_halide, &mm_tuned, &mm_gpu->to_host,
                                               &mm_gpu->on_device};
            if (h_mm) {
                sides.push_back(&h_mm->to_host);
                sides.push_back(&h_mm->on_device);
            }
            for (const Side *s : sides)
                if (s->ok)
                    std::printf("  %-42s %7.1f GFLOP/s\n", s->name.c_str(),
                                flops / (s->median_ms() * 1e6));
        }
    }

    static void print_halide_absent(GpuKind k) {
        std::string why = halide_absent_reason(k);
        if (!why.empty()) std::printf("  halide 14 opencl: not run: %s\n", why.c_str());
    }
};

// -------------------------------------------------------- first realize

std::string self_path() {
    std::vector<char> buf(4096);
    ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    return n > 0 ? std::string(buf.data(), size_t(n)) : "";
}

// One latency line of a Halide pipeline (built ahead of time: no compile).
void print_halide_first(GpuKind k, double first_ms, double steady_ms) {
    std::printf("    halide14 %-20s aot, no compile  first realize %8.1f ms", kind_name(k),
                first_ms);
    if (steady_ms >= 0) std::printf(" (%8.1f over a steady run)", first_ms - steady_ms);
    std::printf("\n");
}

/** OpenCL start-up times (driver, platform, context), ms; -1: not done. */
struct StartUp {
    double loom_ms = -1, halide_ms = -1;
    double compiler_ms = -1; // a trivial GPU pipeline: compile and first realize
};

void print_start_up(const char *indent, const char *what, const StartUp &t) {
    std::printf("%s(%s: Loom %.1f ms", indent, what, t.loom_ms);
    if (t.halide_ms >= 0)
        std::printf(", then Halide's runtime, its own context on the loaded driver, %.1f ms",
                    t.halide_ms);
    std::printf(";\n%s then a trivial GPU pipeline, so that the OpenCL compiler's start-up in "
                "the process is counted there: %.1f ms)\n",
                indent, t.compiler_ms);
}

// The OpenCL compiler (PoCL's LLVM) starts up on the first program build in
// a process, about a second here: a trivial Loom GPU pipeline pays for it
// before the benchmarks, so that each pipeline's cold line, Loom's or
// Halide's, shows its own build whichever runs first. Returns the ms.
double warm_up_opencl_compiler() {
    auto t0 = Clock::now();
    loom::Var x("x"), xo("xo"), xi("xi");
    loom::Func trivial("trivial");
    trivial(x) = x;
    trivial.gpu_tile(x, xo, xi, 8);
    loom::Buffer<int> out(8);
    trivial.realize(out, gpu_target());
    out.copy_to_host();
    return ms_since(t0);
}

#ifdef LOOM_WITH_HALIDE
// Halide's pipelines once more after halide_device_release() dropped its
// programs and its context: a new context, and each program built again
// from source (Halide's runtime keeps no binaries; PoCL's cache is warm).
void halide_warm_same_process(const Benchmarks &b) {
    std::vector<HalideSides *> halides = b.halides();
    if (halides.empty()) return;
    for (HalideSides *h : halides)
        if (h->runner) h->runner->device_free();
    halide_gpu::release_opencl();
    try {
        auto t0 = Clock::now();
        halide_gpu::init_opencl([](uint64_t) { return std::string(); });
        std::printf("    (halide14: after halide_device_release(), a new context: %.1f ms)\n",
                    ms_since(t0));
    } catch (const std::exception &e) {
        std::printf("    halide14: FAILED to make a new context: %s\n", e.what());
        failures++;
        return;
    }
    for (HalideSides *h : halides) {
        if (!h->to_host.ok) continue;
        try {
            print_halide_first(h->kind, halide_first_run(*h->runner),
                               h->on_device.ok ? h->on_device.median_ms() : -1);
        } catch (const std::exception &e) {
            std::printf("    halide14 %-22s FAILED: %s\n", kind_name(h->kind), e.what());
            failures++;
        }
    }
}
#endif

void report_latency(const Benchmarks &b, const Data &d, const StartUp &start_up,
                    const std::string &child_args) {
    std::printf("\nfirst-realize latency of the GPU pipelines: jit compile = lowering, OpenCL C "
                "and LLVM host code;\nfirst realize = OpenCL program build (or load), input "
                "upload, first launch, one run\n(steady runs: the 'on device' medians above)\n");
    std::printf("  cold: empty kernel caches\n");
    print_start_up("    ", "OpenCL driver and context start-up before", start_up);
    std::string steady_list; // for the second process: Loom's, then Halide's
    auto add_steady = [&](double ms) {
        steady_list += (steady_list.empty() ? "" : ",") + std::to_string(ms);
    };
    for (GpuSides *g : b.gpus()) {
        double steady = g->on_device.ok ? g->on_device.median_ms() : -1;
        print_first(g->kind, g->cold, steady);
        add_steady(steady);
    }
    for (HalideSides *h : b.halides()) {
        double steady = h->on_device.ok ? h->on_device.median_ms() : -1;
        if (h->first_ms > 0)
            print_halide_first(h->kind, h->first_ms, steady);
        else
            std::printf("    halide14 %-22s no first run: %s\n", kind_name(h->kind),
                        h->to_host.error.c_str());
        add_steady(steady);
    }

    // The same compiled pipelines once more after release() dropped every
    // program and kernel: the programs come from the disk caches.
    std::printf("  warm, same process: the same pipelines after the OpenCL interface's "
                "release() (disk caches)\n");
    loom_opencl_device_interface()->release(nullptr);
    for (GpuSides *g : b.gpus()) {
        if (!g->to_host.ok) continue;
        FirstRealize r;
        r.before = program_stats();
        auto t0 = Clock::now();
        g->g.f.realize(g->g.out, gpu_target());
        g->g.out.device_sync();
        r.first_ms = ms_since(t0);
        r.after = program_stats();
        print_first(g->kind, r, g->on_device.ok ? g->on_device.median_ms() : -1);
    }
#ifdef LOOM_WITH_HALIDE
    halide_warm_same_process(b);
#endif

    // A fresh pipeline of each algorithm: compiled again; its program is
    // found in memory only where its OpenCL C is the same text.
    std::printf("  same process, a fresh pipeline of the same algorithm\n");
    for (GpuSides *g : b.gpus()) {
        try {
            GpuPipeline fresh = make_gpu(g->kind, d);
            print_first(g->kind, first_use(fresh), g->on_device.ok ? g->on_device.median_ms() : -1);
        } catch (const std::exception &e) {
            std::printf("    %-22s FAILED: %s\n", kind_name(g->kind), e.what());
            failures++;
        }
    }

    std::printf("  warm, second process: this program again with the same cache folders\n");
    std::fflush(stdout);
    std::string exe = self_path();
    FILE *child =
        exe.empty()
            ? nullptr
            : popen(("'" + exe + "' --latency-child" + child_args + " " + steady_list).c_str(),
                    "r");
    if (!child) {
        std::printf("    could not start %s\n", exe.c_str());
        failures++;
        return;
    }
    char line[1024];
    while (std::fgets(line, sizeof(line), child)) std::fputs(line, stdout);
    if (pclose(child) != 0) {
        std::printf("    the second process failed\n");
        failures++;
    }
}

// The second process's report: every pipeline's first use, with warm caches.
int report_child(const Benchmarks &b, const StartUp &start_up, const std::vector<double> &steady) {
    print_start_up("    ", "OpenCL driver and context start-up", start_up);
    auto steady_at = [&](size_t i) { return i < steady.size() ? steady[i] : -1; };
    std::vector<GpuSides *> gpus = b.gpus();
    for (size_t i = 0; i < gpus.size(); i++) {
        if (gpus[i]->to_host.ok) {
            print_first(gpus[i]->kind, gpus[i]->cold, steady_at(i));
        } else {
            std::printf("    %-22s FAILED: %s\n", kind_name(gpus[i]->kind),
                        gpus[i]->to_host.error.c_str());
            failures++;
        }
    }
    std::vector<HalideSides *> halides = b.halides();
    for (size_t i = 0; i < halides.size(); i++) {
        if (halides[i]->to_host.ok) {
            print_halide_first(halides[i]->kind, halides[i]->first_ms, steady_at(gpus.size() + i));
        } else {
            std::printf("    halide14 %-22s FAILED: %s\n", kind_name(halides[i]->kind),
                        halides[i]->to_host.error.c_str());
            failures++;
        }
    }
    return failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    bool child = !args.empty() && args[0] == "--latency-child";
    if (child) args.erase(args.begin());
    int runs = args.size() > 0 ? std::max(1, std::atoi(args[0].c_str())) : 10;
    std::string only = args.size() > 1 ? args[1] : "";
    if (args.size() > 2) matmul_n = std::max(16, std::atoi(args[2].c_str()));
    // The second process gets the first one's steady run times, comma-separated.
    std::vector<double> steady;
    if (child && args.size() > 3)
        for (size_t i = 0; i < args[3].size(); i = args[3].find(',', i) + 1) {
            steady.push_back(std::atof(args[3].c_str() + i));
            if (args[3].find(',', i) == std::string::npos) break;
        }
    bool blur = only.empty() || only == "blur", matmul = only.empty() || only == "matmul";
    if (!blur && !matmul) {
        std::printf("usage: perf_gpu [RUNS] [blur|matmul] [MATMUL_SIZE]\n");
        return 1;
    }
    std::string child_args =
        " " + std::to_string(runs) + " '" + only + "' " + std::to_string(matmul_n);

    // Empty kernel caches for the cold start, set before any OpenCL use; the
    // second process inherits them.
    std::string cache_root;
    if (!child) {
        char pattern[] = "/tmp/loom_perf_gpu_XXXXXX";
        if (!mkdtemp(pattern)) {
            std::perror("mkdtemp");
            return 1;
        }
        cache_root = pattern;
        setenv("LOOM_KERNEL_CACHE_DIR", (cache_root + "/loom").c_str(), 1);
        setenv("POCL_CACHE_DIR", (cache_root + "/pocl").c_str(), 1);
    }

    StartUp start_up;
    ClDevice device;
    try {
        device = init_opencl(&start_up.loom_ms);
    } catch (const std::exception &e) {
        std::printf("no OpenCL device: %s\n", e.what());
        return 1;
    }
    // Halide's runtime on the same device, after Loom's (the driver is loaded).
    std::string halide_device;
    start_up.halide_ms = init_halide_opencl(device, &halide_device);
    if (!child) {
        std::printf("CPU: %s, %u hardware threads; Loom host target: %s\n", cpu_model().c_str(),
                    std::thread::hardware_concurrency(), cpu_target().to_string().c_str());
        const char *lt = std::getenv("LOOM_NUM_THREADS");
        std::printf("LOOM_NUM_THREADS=%s\n", lt ? lt : "(unset: core count)");
        std::printf("OpenCL device: %s\n", device.description.c_str());
        if (halide_missing.empty())
            std::printf("Halide 14 (AOT, host-opencl) runs on: %s%s\n", halide_device.c_str(),
                        halide_device == device.description ? " (the same device)"
                                                            : " (NOT the same device)");
        else
            std::printf("Halide 14's OpenCL: not run: %s\n", halide_missing.c_str());
        std::printf("kernel caches (fresh, removed at exit): %s/{loom,pocl}\n", cache_root.c_str());
        std::printf("sides: cpu = Loom's LLVM backend (the schedule named), gpu = Loom's "
                    "OpenCL, halide14 = Halide 14's OpenCL (AOT)\n");
    }

    // One throwaway CPU compile, so that LLVM's start-up in this process is
    // not counted as any pipeline's.
    {
        loom::Var x;
        loom::Func warm;
        warm(x) = x;
        warm.compile_jit(cpu_target());
    }
    try {
        start_up.compiler_ms = warm_up_opencl_compiler();
    } catch (const std::exception &e) {
        std::printf("a trivial GPU pipeline failed: %s\n", e.what());
        return 1;
    }

    Data d;
    Benchmarks b(d, blur, matmul);
    if (child) return report_child(b, start_up, steady);
    b.run(d, runs);
    report_latency(b, d, start_up, child_args);

    std::error_code ignored;
    std::filesystem::remove_all(cache_root, ignored);
    return failures ? 1 : 0;
}
