// Streaming (non-temporal) stores for large outputs (lower/StreamingStores):
// results against plain C++ with streaming forced on (LOOM_STREAMING_STORES=1)
// and off (0), on output memory that is 64-byte aligned (the streaming loops
// run) and misaligned by 4, 8 or 16 bytes (the fallback loops run); which
// stores the lowered code marks; the MOVNT instructions in the assembly; the
// no_streaming_stores target feature; the runtime's threshold setting.

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "Loom.h"
#include "common/ScopedEnv.h"
#include "common/ScratchFile.h"
#include "runtime/RuntimeFunctions.h"

using namespace loom;
using Catch::Contains;

namespace {

using loom_test::read_text;
using loom_test::ScratchFile;

using loom_test::ScopedEnv;

/** LOOM_STREAMING_STORES for its lifetime; the runtime caches the threshold,
 * so it is reset on the way in and out. */
struct StreamingSetting {
    ScopedEnv env;
    explicit StreamingSetting(const char *value) : env("LOOM_STREAMING_STORES", value) {
        loom_reset_streaming_store_threshold();
    }
    ~StreamingSetting() { loom_reset_streaming_store_threshold(); }
};

/** n values of T starting `offset` bytes past a 64-byte boundary. */
template <typename T> struct OffsetMemory {
    struct Free {
        void operator()(unsigned char *p) const { std::free(p); }
    };
    std::unique_ptr<unsigned char, Free> raw;
    T *data;
    OffsetMemory(size_t n, size_t offset) {
        size_t bytes = (n * sizeof(T) + offset + 64 + 63) / 64 * 64;
        raw.reset(static_cast<unsigned char *>(std::aligned_alloc(64, bytes)));
        std::memset(raw.get(), 0xCD, bytes);
        data = reinterpret_cast<T *>(raw.get() + offset);
    }
};

const size_t offsets[] = {0, 4, 8, 16};
const char *settings[] = {"1", "0"};

/** Realizes a 2-D output of T into memory at each offset, with streaming forced
 * on and off, and compares every element with expected(x, y). make builds a
 * fresh pipeline (the threshold is read when the pipeline runs, but fresh
 * Funcs keep the cases independent). */
template <typename T>
void check_output(const std::function<Func()> &make, int w, int h,
                  const std::function<T(int, int)> &expected) {
    for (const char *setting : settings) {
        StreamingSetting streaming(setting);
        Func f = make();
        for (size_t offset : offsets) {
            OffsetMemory<T> memory(size_t(w) * size_t(h), offset);
            Buffer<T> out(memory.data, {w, h});
            f.realize(out);
            int wrong = 0;
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    T e = expected(x, y), g = out(x, y);
                    if (e != g && wrong++ < 3) {
                        INFO("LOOM_STREAMING_STORES=" << setting << ", offset " << offset
                                                      << " bytes, at (" << x << ", " << y
                                                      << "): got " << +g << ", expected " << +e);
                        CHECK(e == g);
                    }
                }
            CHECK(wrong == 0);
        }
    }
}

float float_input(int x, int y) {
    return float((x * 7 + y * 13) % 101) * 0.25f - 3.0f;
}

uint16_t u16_input(int x, int y) {
    return uint16_t((x * 2654435761u + y * 40503u) >> 3);
}

Buffer<float> float_image(int w, int h) {
    Buffer<float> b(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) b(x, y) = float_input(x, y);
    return b;
}

Buffer<uint16_t> u16_image(int w, int h) {
    Buffer<uint16_t> b(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) b(x, y) = u16_input(x, y);
    return b;
}

// out(x, y) = 2 * in(x, y) - x: pointwise, float.
Func pointwise_float(const Buffer<float> &in, int vector, TailStrategy tail, bool parallel) {
    Var x("x"), y("y"), xo("xo"), xi("xi"), yo("yo"), yi("yi");
    Func f("pointwise_out");
    f(x, y) = 2.0f * in(x, y) - cast<float>(x);
    f.split(x, xo, xi, vector, tail).vectorize(xi);
    if (parallel) f.split(y, yo, yi, 4).parallel(yo);
    return f;
}

float pointwise_expected(int x, int y) {
    return 2.0f * float_input(x, y) - float(x);
}

// Halide's blur: blur_x (an internal allocation) computed per x tile of blur_y.
Func blur_u16(const Buffer<uint16_t> &in, int vector, bool parallel) {
    Var x("x"), y("y"), yi("yi");
    Func bx("blur_x_tmp"), by("blur_out");
    bx(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3;
    by(x, y) = (bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3;
    by.split(y, y, yi, 4).vectorize(x, vector);
    if (parallel) by.parallel(y);
    bx.store_at(by, y).compute_at(by, x).vectorize(x, vector);
    return by;
}

uint16_t blur_expected(int x, int y) {
    auto bx = [](int x, int y) {
        return uint16_t(uint16_t(u16_input(x, y) + u16_input(x + 1, y) + u16_input(x + 2, y)) / 3);
    };
    return uint16_t(uint16_t(bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3);
}

std::string lowered_text(Func f, const Target &t, const std::string &name) {
    ScratchFile file("streaming_stores", name + ".stmt");
    f.compile_to_lowered_stmt(file.path, {}, StmtOutputFormat::Text, t);
    return read_text(file.path);
}

std::string assembly_text(Func f, const Target &t, const std::string &name) {
    ScratchFile file("streaming_stores", name + ".s");
    f.compile_to_assembly(file.path, {}, "streaming_" + name, t);
    return read_text(file.path);
}

/** The lines of text containing `what`. */
std::vector<std::string> lines_with(const std::string &text, const std::string &what) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.find(what) != std::string::npos) lines.push_back(line);
    return lines;
}

} // namespace

TEST_CASE("streaming stores: float pointwise outputs match C++", "[correctness][streaming]") {
    const int h = 6;
    Buffer<float> in = float_image(70, h);
    for (int vector : {16, 8}) {
        for (int w : {64, 45, 70}) {
            INFO("vectorize " << vector << ", width " << w);
            check_output<float>(
                [&] { return pointwise_float(in, vector, TailStrategy::Auto, false); }, w, h,
                pointwise_expected);
        }
    }
}

TEST_CASE("streaming stores: GuardWithIf and parallel schedules match C++",
          "[correctness][streaming]") {
    const int h = 9;
    Buffer<float> in = float_image(70, h);
    for (TailStrategy tail : {TailStrategy::GuardWithIf, TailStrategy::ShiftInwards}) {
        for (bool parallel : {false, true}) {
            INFO("tail " << int(tail) << ", parallel " << parallel);
            check_output<float>([&] { return pointwise_float(in, 16, tail, parallel); }, 53, h,
                                pointwise_expected);
        }
    }
}

TEST_CASE("streaming stores: a uint16 stencil with an internal stage matches C++",
          "[correctness][streaming]") {
    const int w = 61, h = 12;
    Buffer<uint16_t> in = u16_image(64 + 2, h + 2);
    for (int vector : {16, 32}) {
        for (bool parallel : {false, true}) {
            INFO("vectorize " << vector << ", parallel " << parallel);
            check_output<uint16_t>([&] { return blur_u16(in, vector, parallel); }, w, h,
                                   blur_expected);
            check_output<uint16_t>([&] { return blur_u16(in, vector, parallel); }, 64, h,
                                   blur_expected);
        }
    }
}

TEST_CASE("streaming stores: Tuple outputs match C++", "[correctness][streaming]") {
    const int w = 37, h = 5;
    Buffer<float> in = float_image(w, h);
    for (const char *setting : settings) {
        StreamingSetting streaming(setting);
        for (size_t offset : offsets) {
            Var x("x"), y("y");
            Func f("tuple_out");
            f(x, y) = Tuple(in(x, y) * 3.0f, cast<uint16_t>(x + y * 100));
            f.vectorize(x, 16);
            OffsetMemory<float> m0(size_t(w) * h, offset);
            OffsetMemory<uint16_t> m1(size_t(w) * h, offset);
            Buffer<float> out0(m0.data, {w, h});
            Buffer<uint16_t> out1(m1.data, {w, h});
            f.realize(Realization({Buffer<>(out0), Buffer<>(out1)}));
            int wrong = 0;
            for (int yy = 0; yy < h; yy++)
                for (int xx = 0; xx < w; xx++) {
                    if (out0(xx, yy) != float_input(xx, yy) * 3.0f) wrong++;
                    if (out1(xx, yy) != uint16_t(xx + yy * 100)) wrong++;
                }
            INFO("LOOM_STREAMING_STORES=" << setting << ", offset " << offset);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("streaming stores: the C backend runs them as ordinary stores",
          "[correctness][streaming]") {
    ScopedEnv backend("LOOM_JIT_BACKEND", "c");
    Buffer<float> in = float_image(45, 4);
    check_output<float>([&] { return pointwise_float(in, 8, TailStrategy::Auto, true); }, 45, 4,
                        pointwise_expected);
}

TEST_CASE("streaming stores: lowered code streams outputs only", "[correctness][streaming]") {
    Target t("x86-64-linux-avx-avx2-fma");
    Buffer<uint16_t> in = u16_image(66, 34);
    std::string text = lowered_text(blur_u16(in, 16, true), t, "blur");
    std::vector<std::string> streamed = lines_with(text, "(streaming)");
    REQUIRE_FALSE(streamed.empty());
    for (const std::string &line : streamed) CHECK_THAT(line, Contains("blur_out["));
    int internal_stores = 0;
    for (const std::string &line : lines_with(text, "blur_x_tmp[ramp")) {
        // Stores into the internal allocation start with its name.
        if (line.compare(line.find_first_not_of(' '), 11, "blur_x_tmp[") != 0) continue;
        internal_stores++;
        CHECK_THAT(line, !Contains("(streaming)"));
    }
    CHECK(internal_stores > 0);
    CHECK_THAT(text, Contains("loom_streaming_store_threshold"));
    CHECK_THAT(text, Contains("memory_fence()"));

    std::string off =
        lowered_text(blur_u16(in, 16, true), t.with_feature(Target::NoStreamingStores), "blur_off");
    CHECK_THAT(off, !Contains("(streaming)"));
    CHECK_THAT(off, !Contains("memory_fence"));

    // 64-byte vectors are wider than AVX2's: no streaming.
    std::string wide = lowered_text(blur_u16(in, 32, true), t, "blur_wide");
    CHECK_THAT(wide, !Contains("(streaming)"));
}

TEST_CASE("streaming stores: an output the pipeline reads back is not streamed",
          "[correctness][streaming]") {
    Var x("x"), y("y");
    Func f("updated_out");
    f(x, y) = cast<float>(x + y);
    f(x, y) += 1.0f;
    f.vectorize(x, 16);
    f.update().vectorize(x, 16);
    std::string text = lowered_text(f, Target("x86-64-linux-avx512_skylake"), "update");
    CHECK_THAT(text, !Contains("(streaming)"));

    StreamingSetting streaming("1");
    OffsetMemory<float> m(40 * 3, 0);
    Buffer<float> out(m.data, {40, 3});
    f.realize(out);
    CHECK(out(17, 2) == 20.0f);
}

TEST_CASE("streaming stores: the assembly uses MOVNT unless no_streaming_stores",
          "[correctness][streaming]") {
    Buffer<float> in = float_image(64, 4);
    Buffer<uint16_t> in16 = u16_image(66, 34);
    Target avx512("x86-64-linux-avx2-fma-avx512_skylake"), avx2("x86-64-linux-avx-avx2-fma");

    std::string zmm =
        assembly_text(pointwise_float(in, 16, TailStrategy::Auto, false), avx512, "zmm");
    CHECK_THAT(zmm, Contains("vmovntps\t%zmm"));
    std::string ymm = assembly_text(blur_u16(in16, 16, true), avx2, "ymm");
    CHECK((ymm.find("vmovntdq\t%ymm") != std::string::npos ||
           ymm.find("vmovntps\t%ymm") != std::string::npos));
    std::string none = assembly_text(pointwise_float(in, 16, TailStrategy::Auto, false),
                                     avx512.with_feature(Target::NoStreamingStores), "none");
    CHECK_THAT(none, !Contains("vmovnt"));
    CHECK_THAT(none, !Contains("mfence"));

    Target host = get_host_target();
    if (host.arch == Target::X86 &&
        (host.has_feature(Target::AVX2) || host.has_feature(Target::AVX512_Skylake))) {
        std::string native =
            assembly_text(pointwise_float(in, 8, TailStrategy::Auto, false), host, "host");
        CHECK_THAT(native, Contains("vmovnt"));
    } else {
        WARN("host has neither AVX2 nor AVX-512: the host assembly check is skipped");
    }
}

TEST_CASE("streaming stores: target strings round-trip no_streaming_stores", "[streaming]") {
    Target t("x86-64-linux-avx2-no_streaming_stores");
    CHECK(t.has_feature(Target::NoStreamingStores));
    CHECK(t.to_string() == "x86-64-linux-avx2-no_streaming_stores");
    CHECK(Target(t.to_string()) == t);
    CHECK(Target::validate_target_string("host-no_streaming_stores"));
}

TEST_CASE("streaming stores: LOOM_STREAMING_STORES sets the threshold", "[streaming]") {
    struct Case {
        const char *value;
        int64_t threshold;
    };
    const Case cases[] = {{"0", INT64_MAX}, {"off", INT64_MAX}, {"OFF", INT64_MAX}, {"1", 1},
                          {"on", 1},        {"always", 1},      {"4096", 4096},     {"64k", 65536},
                          {"3M", 3 << 20},  {"1g", 1 << 30}};
    for (const Case &c : cases) {
        StreamingSetting setting(c.value);
        INFO("LOOM_STREAMING_STORES=" << c.value);
        CHECK(loom_streaming_store_threshold(nullptr) == c.threshold);
    }
    int64_t by_default;
    {
        StreamingSetting unset(nullptr);
        by_default = loom_streaming_store_threshold(nullptr);
        CHECK(by_default > 0);
        CHECK(by_default < INT64_MAX);
    }
    {
        StreamingSetting junk("lots");
        CHECK(loom_streaming_store_threshold(nullptr) == by_default);
    }
    {
        // Cached: a later change of the environment is not seen until a reset.
        StreamingSetting on("1");
        CHECK(loom_streaming_store_threshold(nullptr) == 1);
        setenv("LOOM_STREAMING_STORES", "0", 1);
        CHECK(loom_streaming_store_threshold(nullptr) == 1);
    }
}
