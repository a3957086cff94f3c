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
// failed side. Halide 14's OpenCL is not compared (it would need its AOT
// path; LOOM_WITH_HALIDE does not change this program).

#include <Loom.h>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "bench_util.h"
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

// The OpenCL device that Loom's runtime chose, found from the cl_mem of a
// buffer it copied there (memory -> context -> device), through libOpenCL
// loaded here with dlopen (Loom's runtime loads the same library).
std::string opencl_device(uint64_t handle) {
    void *lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return "(libOpenCL not loadable here)";
    auto mem_info =
        reinterpret_cast<decltype(&clGetMemObjectInfo)>(dlsym(lib, "clGetMemObjectInfo"));
    auto context_info =
        reinterpret_cast<decltype(&clGetContextInfo)>(dlsym(lib, "clGetContextInfo"));
    auto device_info = reinterpret_cast<decltype(&clGetDeviceInfo)>(dlsym(lib, "clGetDeviceInfo"));
    auto platform_info =
        reinterpret_cast<decltype(&clGetPlatformInfo)>(dlsym(lib, "clGetPlatformInfo"));
    if (!mem_info || !context_info || !device_info || !platform_info) return "(unknown)";
    cl_context context = nullptr;
    cl_device_id device = nullptr;
    cl_platform_id platform = nullptr;
    if (mem_info(reinterpret_cast<cl_mem>(handle), CL_MEM_CONTEXT, sizeof(context), &context,
                 nullptr) != CL_SUCCESS ||
        context_info(context, CL_CONTEXT_DEVICES, sizeof(device), &device, nullptr) != CL_SUCCESS)
        return "(unknown)";
    char name[256] = {0}, version[256] = {0}, driver[256] = {0}, pname[256] = {0};
    cl_uint units = 0;
    device_info(device, CL_DEVICE_NAME, sizeof(name) - 1, name, nullptr);
    device_info(device, CL_DEVICE_VERSION, sizeof(version) - 1, version, nullptr);
    device_info(device, CL_DRIVER_VERSION, sizeof(driver) - 1, driver, nullptr);
    device_info(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units, nullptr);
    device_info(device, CL_DEVICE_PLATFORM, sizeof(platform), &platform, nullptr);
    platform_info(platform, CL_PLATFORM_NAME, sizeof(pname) - 1, pname, nullptr);
    return std::string(name) + " (" + version + ", driver " + driver + ", " +
           std::to_string(units) + " compute units) on platform \"" + pname + "\"";
}

// Loads the OpenCL driver, chooses the device and creates the context (all
// lazily done by the first device buffer); returns the device's description.
std::string init_opencl(double *ms) {
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

void print_side(const Side &s, const std::string &check) {
    if (!s.ok) {
        std::printf("  %-36s FAILED: %s\n", s.name.c_str(), s.error.c_str());
        failures++;
        return;
    }
    std::printf("  %-36s median %9.3f ms (min %9.3f, process cpu %9.3f)  %s\n", s.name.c_str(),
                s.median_ms(), s.min_ms(), s.median_cpu_ms(), check.c_str());
}

void print_ratio(const Side &gpu, const Side &cpu) {
    if (!gpu.ok || !cpu.ok) return;
    std::printf("  %-36s / %-28s %6.2fx\n", gpu.name.c_str(), cpu.name.c_str(),
                gpu.median_ms() / cpu.median_ms());
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
// after a run of its own and prints times, checks and ratios to cpus[0].
void time_and_report(std::vector<Side *> cpus, std::vector<GpuSides *> gpus, int runs,
                     const std::function<std::string(const Side &)> &check_cpu,
                     const std::function<std::string(const GpuSides &)> &check_gpu) {
    std::vector<Side *> all = cpus;
    for (GpuSides *g : gpus) {
        all.push_back(&g->to_host);
        all.push_back(&g->on_device);
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
            check = check_gpu(*g);
        }
        print_side(g->to_host, check);
        print_side(g->on_device, "");
    }
    for (GpuSides *g : gpus)
        for (Side *c : cpus) {
            print_ratio(g->to_host, *c);
            print_ratio(g->on_device, *c);
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

    Benchmarks(const Data &d, bool blur, bool matmul) : blur(blur), matmul(matmul) {
        if (blur) {
            blur_cpu = cpu_side<loom_side::BlurPipeline>(
                "cpu Halide's schedule",
                [&](loom_side::BlurPipeline &p) { p.input.set(d.blur_in); }, blur_cpu_out);
            blur_shared = gpu_sides(GpuKind::BlurShared, d);
            blur_inline = gpu_sides(GpuKind::BlurInline, d);
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
        }
    }

    std::vector<GpuSides *> gpus() const {
        std::vector<GpuSides *> v;
        for (GpuSides *g : {blur_shared.get(), blur_inline.get(), mm_gpu.get()})
            if (g) v.push_back(g);
        return v;
    }

    void run(const Data &d, int runs) {
        if (blur) {
            std::printf("\nblur: 3x3 box, uint16, %dx%d output, %d runs\n", blur_w, blur_h, runs);
            time_and_report(
                {&blur_cpu}, {blur_shared.get(), blur_inline.get()}, runs,
                [&](const Side &) { return check_blur(d.blur_in, blur_cpu_out); },
                [&](const GpuSides &g) {
                    return same_as<uint16_t>(blur_cpu_out, loom::Buffer<uint16_t>(g.g.out));
                });
        }
        if (matmul) {
            std::printf("\nmatmul: float %dx%d times %dx%d, %d runs\n", matmul_n, matmul_n,
                        matmul_n, matmul_n, runs);
            time_and_report(
                {&mm_halide, &mm_tuned}, {mm_gpu.get()}, runs,
                [&](const Side &s) {
                    return check_matmul(d.a, d.b, &s == &mm_halide ? mm_halide_out : mm_tuned_out);
                },
                [&](const GpuSides &g) {
                    return same_as<float>(mm_halide_out, loom::Buffer<float>(g.g.out));
                });
            double flops = 2.0 * double(matmul_n) * matmul_n * matmul_n;
            for (const Side *s : {&mm_halide, &mm_tuned, &mm_gpu->to_host, &mm_gpu->on_device})
                if (s->ok)
                    std::printf("  %-36s %7.1f GFLOP/s\n", s->name.c_str(),
                                flops / (s->median_ms() * 1e6));
        }
    }
};

// -------------------------------------------------------- first realize

std::string self_path() {
    std::vector<char> buf(4096);
    ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    return n > 0 ? std::string(buf.data(), size_t(n)) : "";
}

void report_latency(const Benchmarks &b, const Data &d, double init_ms,
                    const std::string &child_args) {
    std::printf("\nfirst-realize latency of the GPU pipelines: jit compile = lowering, OpenCL C "
                "and LLVM host code;\nfirst realize = OpenCL program build (or load), input "
                "upload, first launch, one run\n(steady runs: the 'on device' medians above)\n");
    std::printf("  cold: empty kernel caches (OpenCL driver and context start-up before: "
                "%.1f ms)\n",
                init_ms);
    std::string steady_list; // for the second process
    for (GpuSides *g : b.gpus()) {
        double steady = g->on_device.ok ? g->on_device.median_ms() : -1;
        print_first(g->kind, g->cold, steady);
        steady_list += (steady_list.empty() ? "" : ",") + std::to_string(steady);
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

    double init_ms = 0;
    std::string device;
    try {
        device = init_opencl(&init_ms);
    } catch (const std::exception &e) {
        std::printf("no OpenCL device: %s\n", e.what());
        return 1;
    }
    if (!child) {
        std::printf("CPU: %s, %u hardware threads; Loom host target: %s\n", cpu_model().c_str(),
                    std::thread::hardware_concurrency(), cpu_target().to_string().c_str());
        const char *lt = std::getenv("LOOM_NUM_THREADS");
        std::printf("LOOM_NUM_THREADS=%s\n", lt ? lt : "(unset: core count)");
        std::printf("OpenCL device: %s\n", device.c_str());
        std::printf("kernel caches (fresh, removed at exit): %s/{loom,pocl}\n", cache_root.c_str());
    }

    // One throwaway CPU compile, so that LLVM's start-up in this process is
    // not counted as any pipeline's.
    {
        loom::Var x;
        loom::Func warm;
        warm(x) = x;
        warm.compile_jit(cpu_target());
    }

    Data d;
    Benchmarks b(d, blur, matmul);
    if (child) {
        std::printf("    (OpenCL driver and context start-up: %.1f ms)\n", init_ms);
        std::vector<GpuSides *> gpus = b.gpus();
        for (size_t i = 0; i < gpus.size(); i++) {
            if (gpus[i]->to_host.ok) {
                print_first(gpus[i]->kind, gpus[i]->cold, i < steady.size() ? steady[i] : -1);
            } else {
                std::printf("    %-22s FAILED: %s\n", kind_name(gpus[i]->kind),
                            gpus[i]->to_host.error.c_str());
                failures++;
            }
        }
        return failures ? 1 : 0;
    }
    b.run(d, runs);
    report_latency(b, d, init_ms, child_args);

    std::error_code ignored;
    std::filesystem::remove_all(cache_root, ignored);
    return failures ? 1 : 0;
}
