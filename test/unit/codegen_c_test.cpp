// The C source backend: its output compiles warning-free as C99, two
// generated files link into one program, and it computes exactly what the
// LLVM backend computes (run through the C-source JIT, LOOM_JIT_BACKEND=c).

#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "Loom.h"
#include "aot/AOTOutputs.h"
#include "codegen/c/CodeGen_C.h"
#include "lower/Lower.h"

#ifndef LOOM_TEST_LINK_FLAGS // the runtime's link flags (test/CMakeLists.txt)
#define LOOM_TEST_LINK_FLAGS ""
#endif

using namespace loom;
using namespace loom::Internal;

namespace {

std::string include_dir() {
#ifdef LOOM_TEST_INCLUDE_DIR
    return LOOM_TEST_INCLUDE_DIR;
#else
    std::string here = __FILE__; // <root>/test/unit/codegen_c_test.cpp
    for (int i = 0; i < 3; i++) here = here.substr(0, here.find_last_of('/'));
    return here + "/include";
#endif
}

std::string c_compiler() {
    const char *cc = std::getenv("CC");
    return cc && *cc ? cc : "cc";
}

struct TempDir {
    std::string path;
    TempDir() {
        char pattern[] = "/tmp/loom_c_test_XXXXXX";
        REQUIRE(mkdtemp(pattern));
        path = pattern;
    }
    ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
    std::string write(const std::string &name, const std::string &text) const {
        std::string file = path + "/" + name;
        std::ofstream(file) << text;
        return file;
    }
};

/** Runs a shell command; returns its exit status and puts its output in *log. */
int run(const std::string &command, const TempDir &dir, std::string *log) {
    std::string log_file = dir.path + "/log.txt";
    int status = std::system((command + " > '" + log_file + "' 2>&1").c_str());
    std::ifstream in(log_file);
    std::stringstream ss;
    ss << in.rdbuf();
    *log = ss.str();
    return status;
}

std::string c_source(const Func &f, const std::string &name) {
    return codegen_c(lower({f.function()}, name, get_host_target()), get_host_target());
}

/** Sets LOOM_JIT_BACKEND for its lifetime. */
struct JITBackend {
    std::string saved;
    bool had = false;
    explicit JITBackend(const char *backend) {
        if (const char *old = std::getenv("LOOM_JIT_BACKEND")) had = true, saved = old;
        if (backend)
            setenv("LOOM_JIT_BACKEND", backend, 1);
        else
            unsetenv("LOOM_JIT_BACKEND");
    }
    ~JITBackend() {
        if (had)
            setenv("LOOM_JIT_BACKEND", saved.c_str(), 1);
        else
            unsetenv("LOOM_JIT_BACKEND");
    }
};

/** Builds the pipeline twice (Funcs cache their compiled code), realizes it
 * with the LLVM backend and with the C backend, and compares every element.
 * Both run strict_float: by default each compiler may fuse multiply-adds in
 * its own places, so only strict results are comparable bit for bit. */
template <typename T>
void check_same_as_llvm(const std::function<Func()> &make, std::vector<int> sizes) {
    Buffer<T> llvm_out, c_out;
    Target strict = get_jit_target_from_environment().with_feature(Target::StrictFloat);
    {
        JITBackend b(nullptr);
        llvm_out = make().realize(sizes, strict);
    }
    {
        JITBackend b("c");
        c_out = make().realize(sizes, strict);
    }
    REQUIRE(llvm_out.dimensions() == c_out.dimensions());
    int mismatches = 0;
    llvm_out.for_each_element([&](const std::vector<int> &pos) {
        T a = llvm_out(pos), b = c_out(pos);
        bool same = std::memcmp(&a, &b, sizeof(T)) == 0;
        if (!same && mismatches++ < 5) {
            std::ostringstream where;
            for (size_t d = 0; d < pos.size(); d++) where << (d ? ", " : "") << pos[d];
            INFO("at (" << where.str() << "): llvm " << +a << ", c " << +b);
            CHECK(same);
        }
    });
    REQUIRE(mismatches == 0);
}

template <typename T> Buffer<T> ramp_input(int n, int scale, int offset, const char *name) {
    Buffer<T> b(n);
    b.set_name(name);
    for (int i = 0; i < n; i++) b(i) = T(i * scale + offset);
    return b;
}

Func schedule_vector_parallel(Func f, Var x, int vec) {
    Var xo("xo"), xi("xi");
    f.split(x, xo, xi, vec * 2).vectorize(xi, vec).parallel(xo);
    return f;
}

} // namespace

TEST_CASE("C backend: generated C compiles with -Wall -Werror -std=c99", "[codegen_c]") {
    Var x("x"), y("y");
    std::vector<std::pair<std::string, std::string>> sources;
    {
        // Scalar arithmetic on narrow types, a scalar Param, Euclidean / and %.
        ImageParam in(UInt(8), 1, "in");
        Param<int> k("k");
        Func f("narrow");
        f(x) = cast<uint8_t>(in(x)*3 + 200) + cast<uint8_t>((x - 7) / k % 5);
        sources.push_back({"narrow", c_source(f, "narrow")});
    }
    {
        // Vectors, unrolling, a parallel loop and a boundary condition.
        ImageParam in(Float(32), 2, "img");
        Func bnd = BoundaryConditions::repeat_edge(in);
        Func blur("blur");
        blur(x, y) = (bnd(x - 1, y) + bnd(x, y) * 2.0f + bnd(x + 1, y)) * 0.25f;
        Var xo("xo"), xi("xi");
        blur.split(x, xo, xi, 8).vectorize(xi).unroll(xo, 2).parallel(y);
        sources.push_back({"blur", c_source(blur, "blur")});
    }
    {
        // A stage computed per row into a (heap) allocation, math and selects.
        ImageParam in(Int(16), 2, "in16");
        Func g("g"), h("h");
        g(x, y) = cast<float>(in(x, y)) * 0.5f;
        h(x, y) = select(g(x, y) > 3.0f, sqrt(g(x, y)), floor(g(x, y) - 1.0f)) + g(x + 1, y);
        g.compute_at(h, y).vectorize(x, 4);
        h.vectorize(x, 8).parallel(y);
        sources.push_back({"rows", c_source(h, "rows")});
    }
    TempDir dir;
    for (const auto &[name, source] : sources) {
        std::string file = dir.write(name + ".c", source);
        for (std::string cc : {c_compiler(), std::string("clang")}) {
            if (cc == "clang" && std::system("clang --version > /dev/null 2>&1") != 0) continue;
            std::string log;
            int status = run(cc + " -std=c99 -Wall -Werror -O1 -c -I'" + include_dir() + "' '" +
                                 file + "' -o '" + dir.path + "/" + name + ".o'",
                             dir, &log);
            INFO(cc << " on " << name << ":\n" << log << "\n" << source);
            CHECK(status == 0);
        }
    }
}

TEST_CASE("C backend: two generated files link into one program", "[codegen_c]") {
    Var x("x");
    // Both use the same helpers (Euclidean division) and a parallel loop, so
    // their static functions would clash if they were not static.
    auto make = [&](const std::string &name, int k) {
        Func f(name);
        f(x) = (x - 50) / k + (x - 50) % k;
        schedule_vector_parallel(f, x, 4);
        return f;
    };
    TempDir dir;
    std::string a = dir.write("first.c", c_source(make("first", 3), "first"));
    std::string b = dir.write("second.c", c_source(make("second", -7), "second"));
    std::string so = dir.path + "/both.so";
    std::string log;
    int status = run(c_compiler() + " -std=c99 -O2 -shared -fPIC -I'" + include_dir() + "' '" + a +
                         "' '" + b + "' -o '" + so + "' -lm",
                     dir, &log);
    INFO(log);
    REQUIRE(status == 0);
    // Load it into this process: its runtime calls bind to libloom's runtime.
    void *lib = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    INFO((lib ? "" : dlerror()));
    REQUIRE(lib);
    using Entry = int (*)(loom_buffer_t *);
    auto first = reinterpret_cast<Entry>(dlsym(lib, "first"));
    auto second = reinterpret_cast<Entry>(dlsym(lib, "second"));
    using Metadata = const loom_pipeline_metadata_t *(*)();
    auto second_metadata = reinterpret_cast<Metadata>(dlsym(lib, "second_metadata"));
    REQUIRE(first);
    REQUIRE(second);
    REQUIRE(second_metadata);
    CHECK(std::string(second_metadata()->name) == "second");
    CHECK(second_metadata()->num_arguments == 1);
    auto floor_div = [](int a, int k) {
        int q = a / k, r = a % k;
        if (r < 0) q += k > 0 ? -1 : 1;
        return q;
    };
    auto euclid_mod = [](int a, int k) {
        int r = a % k;
        return r < 0 ? r + (k < 0 ? -k : k) : r;
    };
    Buffer<int> out1(101), out2(101);
    REQUIRE(first(out1.raw_buffer()) == 0);
    REQUIRE(second(out2.raw_buffer()) == 0);
    for (int i = 0; i < 101; i++) {
        REQUIRE(out1(i) == floor_div(i - 50, 3) + euclid_mod(i - 50, 3));
        REQUIRE(out2(i) == floor_div(i - 50, -7) + euclid_mod(i - 50, -7));
    }
    dlclose(lib);

#if defined(LOOM_TEST_RUNTIME_LIB) && defined(LOOM_TEST_CXX)
    // And as a plain C program linked with the static runtime (no LLVM).
    std::string main_c = dir.write("main.c", R"(
#include <stdio.h>
#include "LoomRuntime.h"
int first(loom_buffer_t *);
int second(loom_buffer_t *);
int main(void) {
    int32_t a[10], b[10];
    loom_dimension_t da = {0, 10, 1, 0}, db = {0, 10, 1, 0};
    loom_buffer_t ba = {0, NULL, (uint8_t *)a, 0, {loom_type_int, 32, 1}, 1, &da, NULL};
    loom_buffer_t bb = {0, NULL, (uint8_t *)b, 0, {loom_type_int, 32, 1}, 1, &db, NULL};
    if (first(&ba) != 0 || second(&bb) != 0) return 1;
    printf("%d %d\n", a[0], b[9]);
    return 0;
}
)");
    std::string exe = dir.path + "/program";
    std::string objects;
    for (const std::string &c : {main_c, a, b}) {
        std::string o = c + ".o";
        status = run(c_compiler() + " -std=c99 -O1 -c -I'" + include_dir() + "' '" + c + "' -o '" +
                         o + "'",
                     dir, &log);
        INFO(log);
        REQUIRE(status == 0);
        objects += " '" + o + "'";
    }
    status = run(std::string(LOOM_TEST_CXX) + objects + " '" + LOOM_TEST_RUNTIME_LIB + "' -o '" +
                     exe + "' " + LOOM_TEST_LINK_FLAGS + " -lpthread -ldl -lm",
                 dir, &log);
    INFO(log);
    REQUIRE(status == 0);
    status = run("'" + exe + "'", dir, &log);
    REQUIRE(status == 0);
    // first(0) = floor(-50 / 3) + (-50 mod 3) = -17 + 1; second(9) = floor(-41 / -7) + 1 = 6 + 1.
    CHECK(log == "-16 7\n");
#endif
}

TEST_CASE("C backend: an entry point reports a too-small input as the LLVM backend does",
          "[codegen_c]") {
    Buffer<int> small(5);
    small.set_name("small");
    auto message = [&](const char *backend) {
        JITBackend b(backend);
        Var x("x");
        Func f("reads_small");
        f(x) = small(x) + 1;
        try {
            f.realize({10});
        } catch (const RuntimeError &e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    std::string from_llvm = message(nullptr);
    CHECK_THAT(from_llvm, Catch::Contains("small") && Catch::Contains("reads_small"));
    CHECK(message("c") == from_llvm);
}

TEST_CASE("C backend matches LLVM: uint8 wraparound, vectorized with a tail", "[codegen_c]") {
    auto in = ramp_input<uint8_t>(203, 7, 3, "in8");
    check_same_as_llvm<uint8_t>(
        [&] {
            Var x("x");
            Func f("wrap8");
            f(x) = in(x)*uint8_t(3) + uint8_t(200) - (in(x) >> 2) * in(x);
            f.vectorize(x, 16);
            return f;
        },
        {203});
}

TEST_CASE("C backend matches LLVM: int16 multiply, shifts and absd", "[codegen_c]") {
    auto in = ramp_input<int16_t>(157, 613, -30000, "in16");
    check_same_as_llvm<int16_t>(
        [&] {
            Var x("x");
            Func f("mul16");
            f(x) = in(x)*in(x + 1) + (in(x) << 3) + cast<int16_t>(absd(in(x), in(x + 2)));
            f.vectorize(x, 8, TailStrategy::GuardWithIf);
            return f;
        },
        {150});
}

TEST_CASE("C backend matches LLVM: Euclidean division and modulo of negatives", "[codegen_c]") {
    auto num = ramp_input<int32_t>(120, 1, -60, "num");
    auto den = ramp_input<int32_t>(120, 1, -9, "den"); // crosses zero
    check_same_as_llvm<int32_t>(
        [&] {
            Var x("x");
            Func f("euclid32");
            Expr a = num(x), b = den(x % 19);
            f(x) = a / b * 1000 + a % b * 100 + a / 3 * 10 + a % -3 + a / -4 + a % 8;
            f.vectorize(x, 8);
            return f;
        },
        {120});
    auto num8 = ramp_input<int8_t>(256, 1, -128, "num8");
    check_same_as_llvm<int8_t>(
        [&] {
            Var x("x");
            Func f("euclid8");
            Expr a = num8(x), b = cast<int8_t>(x % 7 - 3);
            f(x) = a / b + a % b + a / int8_t(-1);
            return f;
        },
        {256});
    auto num64 = ramp_input<int64_t>(100, 977, -50000, "num64");
    check_same_as_llvm<int64_t>(
        [&] {
            Var x("x");
            Func f("euclid64");
            Expr a = num64(x), b = cast<int64_t>(x % 11 - 5);
            f(x) = a / b + a % b * 7;
            f.vectorize(x, 4);
            return f;
        },
        {100});
    auto unum = ramp_input<uint16_t>(100, 1311, 0, "unum");
    check_same_as_llvm<uint16_t>(
        [&] {
            Var x("x");
            Func f("euclid_u16");
            Expr a = unum(x), b = cast<uint16_t>(x % 5);
            f(x) = a / b + a % b + a / uint16_t(7);
            return f;
        },
        {100});
}

TEST_CASE("C backend matches LLVM: float to int casts and math", "[codegen_c]") {
    Buffer<float> in(200);
    in.set_name("fin");
    for (int i = 0; i < 200; i++) in(i) = (i - 100) * 1.37f + 0.25f;
    check_same_as_llvm<int32_t>(
        [&] {
            Var x("x");
            Func f("f2i");
            f(x) = cast<int32_t>(in(x)*3.3f) + cast<int32_t>(cast<int16_t>(in(x))) +
                   cast<int32_t>(cast<uint8_t>(clamp(in(x), 0.0f, 255.0f))) +
                   cast<int32_t>(round(in(x))) * 3 + cast<int32_t>(floor(in(x) / 7.0f));
            f.vectorize(x, 8);
            return f;
        },
        {200});
    check_same_as_llvm<float>(
        [&] {
            Var x("x");
            Func f("fmath");
            Expr v = in(x);
            f(x) = sqrt(abs(v)) + exp(v * 0.01f) + log(abs(v) + 1.0f) + pow(abs(v), 0.3f) +
                   sin(v) * cos(v) + atan2(v, 3.0f) + min(v, 5.0f) - max(v, -5.0f) + v % 7.5f +
                   tanh(v * 0.1f);
            f.vectorize(x, 4);
            return f;
        },
        {200});
    check_same_as_llvm<double>(
        [&] {
            Var x("x");
            Func f("dmath");
            Expr v = cast<double>(in(x));
            f(x) = sqrt(abs(v)) + floor(v * 0.3) + ceil(v) + trunc(v / 3.0) + v % 2.5;
            return f;
        },
        {200});
}

TEST_CASE("C backend matches LLVM: every scalar type", "[codegen_c]") {
    auto check_type = [](auto zero, const char *name) {
        using T = decltype(zero);
        auto in = ramp_input<T>(97, 37, -20, name);
        check_same_as_llvm<T>(
            [&] {
                Var x("x");
                Func f(std::string("types_") + name);
                Expr v = in(x), w = in((x * 5) % 97);
                f(x) = select(v < w, v * T(3) - w, max(v, w) / T(2)) + min(v, T(9));
                f.vectorize(x, 8);
                return f;
            },
            {97});
    };
    check_type(int8_t(0), "i8");
    check_type(int16_t(0), "i16");
    check_type(int32_t(0), "i32");
    check_type(int64_t(0), "i64");
    check_type(uint8_t(0), "u8");
    check_type(uint16_t(0), "u16");
    check_type(uint32_t(0), "u32");
    check_type(uint64_t(0), "u64");
    check_type(float(0), "f32");
    check_type(double(0), "f64");
}

TEST_CASE("C backend matches LLVM: tiles, parallel, unroll, boundary conditions, allocations",
          "[codegen_c]") {
    Buffer<uint16_t> img(37, 29);
    img.set_name("img");
    for (int y = 0; y < 29; y++)
        for (int x = 0; x < 37; x++) img(x, y) = uint16_t((x * 131 + y * 71) % 1000);
    check_same_as_llvm<uint16_t>(
        [&] {
            Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
            Func bnd = BoundaryConditions::mirror_image(img);
            Func bx("bx"), by("by");
            bx(x, y) = bnd(x - 1, y) + bnd(x, y) + bnd(x + 1, y);
            by(x, y) = (bx(x, y - 1) + bx(x, y) * 2 + bx(x, y + 1)) / 4;
            by.tile(x, y, xo, yo, xi, yi, 8, 4).vectorize(xi, 4).unroll(yi).parallel(yo);
            bx.compute_at(by, xo).vectorize(x, 4);
            return by;
        },
        {41, 30});
    check_same_as_llvm<uint16_t>(
        [&] {
            Var x("x"), y("y");
            Func bnd = BoundaryConditions::constant_exterior(img, uint16_t(7));
            Func big("big"), out("out");
            big(x, y) = bnd(x, y) * 3;
            out(x, y) = big(x, y) + big(x + 5, y) + big(x, y + 2);
            big.compute_root().parallel(y);
            out.parallel(y).vectorize(x, 8, TailStrategy::ShiftInwards);
            return out;
        },
        {45, 33});
}

TEST_CASE("C backend: concrete Buffers embedded in the source", "[codegen_c]") {
    Buffer<int16_t> table(7, 3);
    table.set_name("table");
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 7; x++) table(x, y) = int16_t(x * 10 - y * 100);
    Var x("x"), y("y");
    Func f("embeds");
    f(x, y) = table(x % 7, y % 3) * 2;
    LoweredFunc lowered =
        embed_concrete_buffers(lower({f.function()}, "embeds", get_host_target()));
    REQUIRE(lowered.embedded_buffers.size() == 1);
    REQUIRE(lowered.args.size() == 1); // only the output is left to pass
    TempDir dir;
    std::string c = dir.write("embeds.c", codegen_c(lowered, get_host_target()));
    std::string so = dir.path + "/embeds.so", log;
    int status = run(c_compiler() + " -std=c99 -Wall -Werror -O2 -shared -fPIC -I'" +
                         include_dir() + "' '" + c + "' -o '" + so + "' -lm",
                     dir, &log);
    INFO(log);
    REQUIRE(status == 0);
    void *lib = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    REQUIRE(lib);
    auto entry = reinterpret_cast<int (*)(loom_buffer_t *)>(dlsym(lib, "embeds"));
    REQUIRE(entry);
    Buffer<int16_t> out(9, 5);
    REQUIRE(entry(out.raw_buffer()) == 0);
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 9; i++) REQUIRE(out(i, j) == int16_t(table(i % 7, j % 3) * 2));
    dlclose(lib);
}
