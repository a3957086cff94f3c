// Ahead-of-time outputs embed the concrete Buffers a pipeline reads (lookup
// tables and the like) instead of taking them as arguments, and take every
// Argument listed with a known shape, read or not, in the listed order.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "Loom.h"
#include "aot_test_util.h"

#ifndef LOOM_TEST_LINK_FLAGS // the runtime's link flags (test/CMakeLists.txt)
#define LOOM_TEST_LINK_FLAGS ""
#endif

using namespace loom;
using Catch::Contains;

namespace {

using aot_test::read_file;
using aot_test::TempDir;

void write_file(const std::string &name, const std::string &text) {
    std::ofstream out(name);
    out << text;
}

// Compiles client.cpp in dir against the generated library prefix.a and the
// runtime, runs it, and returns its exit status; log gets the output.
int build_and_run_client(const TempDir &dir, const std::string &library, std::string &log) {
    std::string exe = dir.file("client");
    std::string out = dir.file("client.log");
    std::string compile = std::string("'") + LOOM_TEST_CXX + "' -std=c++17 -O1 -o '" + exe + "' '" +
                          dir.file("client.cpp") + "' -I'" + dir.path.string() + "' -I'" +
                          LOOM_TEST_INCLUDE_DIR + "' '" + library + "' '" + LOOM_TEST_RUNTIME_LIB +
                          "' " + LOOM_TEST_LINK_FLAGS + " -lpthread -ldl > '" + out + "' 2>&1";
    int rc = std::system(compile.c_str());
    log = read_file(out);
    if (rc != 0) {
        log = "compiling the client failed:\n" + compile + "\n" + log;
        return -1;
    }
    rc = std::system(("'" + exe + "' > '" + out + "' 2>&1").c_str());
    log = read_file(out);
    return rc;
}

// A lookup table, a 3x2 weight table laid out with a negative stride and a
// nonzero min, one read ImageParam and Param, and one Param nobody reads.
struct LookUp {
    ImageParam in{UInt(8), 2, "in"};
    Param<int> unused{"unused"};
    Param<float> gain{"gain"};
    std::vector<float> weight_memory{1.5f, -2.0f, 0.25f, 3.0f, 0.5f, -1.0f};
    Buffer<int32_t> lut{std::vector<int>{256}, "lut"};
    // weights(c, r) = weight_memory[2 - (c + 1) + 3 * r] for c in [-1, 1], r in [0, 1].
    Buffer<float> weights{
        Float(32), weight_memory.data() + 2, {{-1, 3, -1, 0}, {0, 2, 3, 0}}, "weights"};
    Var x{"x"}, y{"y"};
    Func f{"look_up"};
    LookUp() {
        for (int i = 0; i < 256; i++) lut(i) = i * i - 5 * i;
        f(x, y) = cast<float>(lut(cast<int>(in(x, y)))) * weights(x % 3 - 1, y % 2) * gain;
        f.vectorize(x, 8).parallel(y);
    }
};

const char *look_up_client = R"(
#include <cmath>
#include <cstdio>
#include <cstring>
#include "LoomBuffer.h"
#include "look_up_lib.h"

int main() {
    const int w = 21, h = 5;
    loom::Runtime::Buffer<uint8_t> in(w, h);
    loom::Runtime::Buffer<float> out(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) in(x, y) = uint8_t((x * 37 + y * 11 + 200) % 256);
    int rc = look_up_lib(in, 12345, 0.5f, out);
    if (rc != 0) { std::printf("look_up_lib returned %d\n", rc); return 1; }
    const float weights[6] = {1.5f, -2.0f, 0.25f, 3.0f, 0.5f, -1.0f};
    int bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = in(x, y);
            float want = float(v * v - 5 * v) * weights[2 - x % 3 + 3 * (y % 2)] * 0.5f;
            if (std::fabs(out(x, y) - want) > 1e-5f * std::fabs(want)) {
                if (bad++ < 5) std::printf("out(%d, %d) = %g, want %g\n", x, y, out(x, y), want);
            }
        }
    const loom_pipeline_metadata_t *m = look_up_lib_metadata();
    const char *names[] = {"in", "unused", "gain", "look_up"};
    const int kinds[] = {loom_argument_kind_input_buffer, loom_argument_kind_input_scalar,
                         loom_argument_kind_input_scalar, loom_argument_kind_output_buffer};
    if (m->num_arguments != 4) { std::printf("%d arguments\n", m->num_arguments); return 1; }
    for (int i = 0; i < 4; i++) {
        if (std::strcmp(m->arguments[i].name, names[i]) != 0 || m->arguments[i].kind != kinds[i]) {
            std::printf("argument %d is %s\n", i, m->arguments[i].name);
            bad++;
        }
    }
    if (m->arguments[1].type.code != loom_type_int || m->arguments[1].type.bits != 32) bad++;
    // The argv entry point takes the same list.
    int32_t unused = 7;
    float gain = 0.5f;
    void *argv[] = {nullptr, (loom_buffer_t *)in, &unused, &gain, (loom_buffer_t *)out};
    if (look_up_lib_argv(argv) != 0) bad++;
    std::printf("%d mismatches\n", bad);
    return bad == 0 ? 0 : 1;
}
)";

} // namespace

TEST_CASE("aot: concrete Buffers are embedded in a static library, not arguments", "[aot]") {
    TempDir dir("embed_library");
    LookUp p;
    std::string prefix = dir.file("look_up_lib");
    p.f.compile_to_static_library(prefix, {p.in, p.unused, p.gain}, "look_up_lib",
                                  get_host_target());
    std::string header = read_file(prefix + ".h");
    CHECK_THAT(header, !Contains("lut"));
    CHECK_THAT(header, !Contains("weights"));
    CHECK_THAT(header,
               Contains("int look_up_lib(\n"
                        "    loom_buffer_t *in, /* input buffer in: uint8, 2 dimensions */\n"
                        "    int32_t unused, /* scalar input unused: int32 */\n"
                        "    float gain, /* scalar input gain: float32 */\n"
                        "    loom_buffer_t *look_up /* output buffer look_up: float32, 2 "
                        "dimensions */);"));

    write_file(dir.file("client.cpp"), look_up_client);
    std::string log;
    int rc = build_and_run_client(dir, prefix + ".a", log);
    INFO(log);
    REQUIRE(rc == 0);
}

TEST_CASE("aot: the JIT still runs a pipeline reading concrete Buffers", "[aot]") {
    LookUp p;
    Buffer<uint8_t> in({19, 4}, "in_data");
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 19; x++) in(x, y) = uint8_t((x * 53 + y * 7) % 256);
    p.in.set(in);
    p.gain.set(2.0f);
    Buffer<float> out = p.f.realize({19, 4});
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 19; x++) {
            int v = in(x, y);
            float want =
                float(v * v - 5 * v) * p.weight_memory[size_t(2 - x % 3 + 3 * (y % 2))] * 2.0f;
            CHECK(out(x, y) == Approx(want));
        }
}

TEST_CASE("aot: Argument carries kind, type and dimensions", "[aot]") {
    ImageParam img(Float(32), 3, "img");
    Param<uint16_t> k("k");
    Argument a = img, b = k, c = "by_name", d = std::string("also_by_name");
    CHECK(a.name == "img");
    CHECK(a.kind == Argument::InputBuffer);
    CHECK(a.is_buffer());
    CHECK(a.type == Float(32));
    CHECK(a.dimensions == 3);
    CHECK(!a.name_only);
    CHECK(b.kind == Argument::InputScalar);
    CHECK(b.type == UInt(16));
    CHECK(b.dimensions == 0);
    CHECK(c.name_only);
    CHECK(c.name == "by_name");
    CHECK(d.name == "also_by_name");
    Argument e("explicit", Argument::InputBuffer, Int(16), 2);
    CHECK(e.dimensions == 2);
    CHECK(e.is_input());
}

TEST_CASE("aot: listed arguments the pipeline does not read keep their place", "[aot]") {
    TempDir dir("embed_unread");
    ImageParam in(UInt(8), 1, "in"), spare(Int(16), 2, "spare");
    Param<double> ignored("ignored");
    Var x("x");
    Func f("plus_one");
    f(x) = in(x) + 1;
    Target t("x86-64-linux");
    f.compile_to_header(dir.file("a.h"),
                        {ignored, in, spare, "never_seen", f.output_buffer(),
                         Argument("extra", Argument::InputScalar, Int(8), 0)},
                        "", t);
    CHECK_THAT(read_file(dir.file("a.h")),
               Contains("int plus_one(\n"
                        "    double ignored, /* scalar input ignored: float64 */\n"
                        "    loom_buffer_t *in, /* input buffer in: uint8, 1 dimension */\n"
                        "    loom_buffer_t *spare, /* input buffer spare: int16, 2 dimensions */\n"
                        "    int8_t extra, /* scalar input extra: int8 */\n"
                        "    loom_buffer_t *plus_one /* output buffer plus_one: uint8, 1 "
                        "dimension */);"));
    // Without a list, only what the pipeline reads.
    f.compile_to_header(dir.file("b.h"), {}, "", t);
    CHECK_THAT(read_file(dir.file("b.h")), !Contains("ignored"));
    // The object builds with the unread arguments too.
    f.compile_to_object(dir.file("a.o"), {ignored, in, spare}, "", t);
    CHECK(!read_file(dir.file("a.o")).empty());
    // So do the C source, the LLVM assembly and the lowered statement.
    f.compile_to_c(dir.file("a.c"), {ignored, in, spare}, "", t);
    CHECK_THAT(read_file(dir.file("a.c")), Contains("spare"));
    f.compile_to_llvm_assembly(dir.file("a.ll"), {ignored, in, spare}, "", t);
    CHECK_THAT(read_file(dir.file("a.ll")), Contains("double %ignored"));
    f.compile_to_lowered_stmt(dir.file("a.stmt"), {ignored, in, spare}, StmtOutputFormat::Text, t);
    CHECK(!read_file(dir.file("a.stmt")).empty());
}

TEST_CASE("aot: a listed Argument that disagrees with the pipeline is an error", "[aot]") {
    ImageParam in(UInt(8), 1, "in");
    Var x("x");
    Func f("g");
    f(x) = in(x) + 1;
    Target t("x86-64-linux");
    TempDir dir("embed_mismatch");
    try {
        f.compile_to_header(dir.file("g.h"), {Argument("in", Argument::InputScalar, Int(32), 0)},
                            "", t);
        FAIL("no error for a scalar Argument naming a buffer");
    } catch (const CompileError &e) {
        CHECK_THAT(std::string(e.what()),
                   Contains("Argument in is listed as a scalar of type int32, "
                            "but the pipeline reads it as a 1-dimensional "
                            "buffer of uint8"));
    }
    try {
        f.compile_to_header(dir.file("g.h"), {Argument("out2", Argument::OutputBuffer, Int(32), 1)},
                            "", t);
        FAIL("no error for an output Argument no Func writes");
    } catch (const CompileError &e) {
        CHECK_THAT(std::string(e.what()), Contains("out2 is listed as an output buffer"));
    }
}
