// Trace files as Halide writes them: with LOOM_TRACE_FILE (or Halide's
// HL_TRACE_FILE) set, the default trace handler appends binary packets in
// the layout of halide_trace_packet_t instead of printing lines, from JIT
// and AOT code; every traced Func and input gets a func_type_and_dim tag.
// Each file is read back and compared with events built by plain C++.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "common/ScratchFile.h"
#include "compat/CompatCommon.h"
#include "compat/TraceFileReader.h"

#ifndef LOOM_TEST_LINK_FLAGS // the runtime's link flags (test/CMakeLists.txt)
#define LOOM_TEST_LINK_FLAGS ""
#endif

using namespace Halide;
using Catch::Matchers::Contains;
using compat::TracePacket;

namespace {

/** A packet as text, without id and parent (checked apart); pipeline
 * events without their func (the compiled function's name). */
std::string describe(const TracePacket &p) {
    bool pipeline = p.event == loom_trace_begin_pipeline || p.event == loom_trace_end_pipeline;
    std::string s = std::to_string(p.event) + " " + (pipeline ? "" : p.func) + "." +
                    std::to_string(p.value_index) + "(";
    for (size_t i = 0; i < p.coordinates.size(); i++)
        s += (i ? ", " : "") + std::to_string(p.coordinates[i]);
    s += ")";
    if (p.event == loom_trace_load || p.event == loom_trace_store)
        s += " = " + std::to_string(p.int32_value());
    if (!p.tag.empty()) s += " tag " + p.tag;
    return s;
}

std::string event(int code, const std::string &func, std::vector<int> coordinates, int value = 0,
                  const std::string &tag = "") {
    TracePacket p;
    p.event = code;
    p.func = func;
    p.coordinates = std::move(coordinates);
    p.tag = tag;
    p.value.resize(4);
    std::memcpy(p.value.data(), &value, 4);
    return describe(p);
}

std::vector<std::string> describe_all(const std::vector<TracePacket> &packets) {
    std::vector<std::string> d;
    for (const TracePacket &p : packets) d.push_back(describe(p));
    return d;
}

int f_value(int x, int y) {
    return x * 3 + y * 5;
}

/** f (compute_root, all three traced, one tag) feeding g (stores traced). */
struct TwoStage {
    Var x{"x"}, y{"y"};
    Func f{"f"}, g{"g"};
    TwoStage() {
        f(x, y) = x * 3 + y * 5;
        g(x, y) = f(x, y) + f(x + 1, y);
        f.compute_root().trace_loads().trace_stores().trace_realizations();
        f.add_trace_tag("first");
        g.trace_stores();
    }

    /** What Halide writes for g.realize({w, h}). */
    static std::vector<std::string> expected(int w, int h) {
        std::vector<int> f_region{0, w + 1, 0, h};
        std::vector<std::string> e{event(loom_trace_begin_pipeline, "", {}),
                                   event(loom_trace_tag, "f", {}, 0,
                                         "func_type_and_dim: 1 0 32 1 2 0 " +
                                             std::to_string(w + 1) + " 0 " + std::to_string(h)),
                                   event(loom_trace_tag, "f", {}, 0, "first"),
                                   event(loom_trace_tag, "g", {}, 0,
                                         "func_type_and_dim: 1 0 32 1 2 0 " + std::to_string(w) +
                                             " 0 " + std::to_string(h)),
                                   event(loom_trace_begin_realization, "f", f_region),
                                   event(loom_trace_produce, "f", f_region)};
        for (int y = 0; y < h; y++)
            for (int x = 0; x <= w; x++)
                e.push_back(event(loom_trace_store, "f", {x, y}, f_value(x, y)));
        e.push_back(event(loom_trace_end_produce, "f", f_region));
        e.push_back(event(loom_trace_consume, "f", f_region));
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                e.push_back(event(loom_trace_load, "f", {x, y}, f_value(x, y)));
                e.push_back(event(loom_trace_load, "f", {x + 1, y}, f_value(x + 1, y)));
                e.push_back(
                    event(loom_trace_store, "g", {x, y}, f_value(x, y) + f_value(x + 1, y)));
            }
        e.push_back(event(loom_trace_end_consume, "f", f_region));
        e.push_back(event(loom_trace_end_realization, "f", f_region));
        e.push_back(event(loom_trace_end_pipeline, "", {}));
        return e;
    }
};

/** The id of the last packet before `i` with code `code` and func `func`. */
int id_of_last(const std::vector<TracePacket> &packets, size_t i, int code,
               const std::string &func) {
    for (size_t k = i; k-- > 0;)
        if (packets[k].event == code && packets[k].func == func) return packets[k].id;
    return -1;
}

/** Parents as Halide gives them (see test/compat/tracing.cpp). */
void check_parents(const std::vector<TracePacket> &packets) {
    REQUIRE(packets.size() >= 2);
    int pipeline = packets.front().id;
    CHECK(packets.front().parent_id == 0);
    for (size_t i = 1; i < packets.size(); i++) {
        const TracePacket &p = packets[i];
        INFO("packet " << i << ": " << describe(p));
        CHECK(p.id > packets[i - 1].id);
        switch (p.event) {
        case loom_trace_tag:
        case loom_trace_begin_realization:
        case loom_trace_end_pipeline:
            CHECK(p.parent_id == pipeline);
            break;
        case loom_trace_produce:
        case loom_trace_consume:
        case loom_trace_end_realization:
            CHECK(p.parent_id == id_of_last(packets, i, loom_trace_begin_realization, p.func));
            break;
        case loom_trace_end_produce:
            CHECK(p.parent_id == id_of_last(packets, i, loom_trace_produce, p.func));
            break;
        case loom_trace_end_consume:
        case loom_trace_load:
            CHECK(p.parent_id == id_of_last(packets, i, loom_trace_consume, p.func));
            break;
        case loom_trace_store:
            if (p.func == "f")
                CHECK(p.parent_id == id_of_last(packets, i, loom_trace_produce, "f"));
            else
                CHECK(p.parent_id == 0);
            break;
        default:
            FAIL("unexpected event");
        }
    }
}

/** Collects what the default handler prints (nothing, with a trace file). */
struct Lines : JITUserContext {
    std::vector<std::string> lines;
    Lines() {
        handlers.custom_print = [](JITUserContext *c, const char *line) {
            static_cast<Lines *>(c)->lines.push_back(line);
        };
    }
};

} // namespace

TEST_CASE("trace file: LOOM_TRACE_FILE gets Halide's binary packets instead of lines",
          "[compat][tracing][trace_file]") {
    compat::for_each_backend([&](bool c_backend) {
        loom_test::ScratchFile file("trace_file", c_backend ? "c.trace" : "llvm.trace");
        loom_test::ScopedEnv hl("HL_TRACE_FILE", nullptr);
        TwoStage p;
        Lines ctx;
        {
            loom_test::ScopedEnv env("LOOM_TRACE_FILE", file.path.c_str());
            Buffer<int> out = p.g.realize(&ctx, {3, 2});
            for (int y = 0; y < 2; y++)
                for (int x = 0; x < 3; x++) REQUIRE(out(x, y) == f_value(x, y) + f_value(x + 1, y));
        }
        CHECK(ctx.lines.empty());
        std::vector<TracePacket> packets = compat::read_trace_file(file.path);
        CHECK(describe_all(packets) == TwoStage::expected(3, 2));
        check_parents(packets);
        REQUIRE(!packets.empty());
        // Types: int32 loads, stores and realizations of f and g; the
        // pipeline events name the pipeline after its output, as Halide's.
        for (const TracePacket &pk : packets) {
            CHECK(pk.lanes == 1);
            if (pk.event != loom_trace_begin_pipeline && pk.event != loom_trace_end_pipeline &&
                pk.event != loom_trace_tag) {
                CHECK(pk.code == loom_type_int);
                CHECK(pk.bits == 32);
            }
        }
        CHECK(packets.front().func == "g");
        CHECK(packets.back().func == "g");

        // A second run appends; without the variable, lines are printed again.
        {
            loom_test::ScopedEnv env("LOOM_TRACE_FILE", file.path.c_str());
            p.g.realize(&ctx, {3, 2});
        }
        CHECK(compat::read_trace_file(file.path).size() == 2 * packets.size());
        p.g.realize(&ctx, {3, 2});
        CHECK(ctx.lines.size() == packets.size());
        CHECK(loom_shutdown_trace() == 0);
    });
}

TEST_CASE("trace file: HL_TRACE_FILE works as in Halide, with Func types and bounds in the tags",
          "[compat][tracing][trace_file]") {
    loom_test::ScratchFile file("trace_file", "hl.trace");
    loom_test::ScopedEnv loom_env("LOOM_TRACE_FILE", nullptr);
    loom_test::ScopedEnv env("HL_TRACE_FILE", file.path.c_str());
    // A uint8 input, a Tuple of (float, int16) computed per row of the
    // output, and a uint16 output: tags give each one's types and the
    // bounds over the whole run.
    Var x("x"), y("y");
    ImageParam in(UInt(8), 2, "in");
    Buffer<uint8_t> input(6, 4);
    input.fill(3);
    in.set(input);
    Func t("t"), out("out");
    t(x, y) = Tuple(cast<float>(in(x, y)) * 0.5f, cast<int16_t>(in(x + 1, y)));
    out(x, y) = cast<uint16_t>(t(x, y)[0] + t(x, y)[1]);
    t.compute_at(out, y).trace_stores();
    out.trace_stores();
    in.trace_loads();
    Buffer<uint16_t> result = out.realize({5, 4});
    REQUIRE(loom_shutdown_trace() == 0);
    for (int yy = 0; yy < 4; yy++)
        for (int xx = 0; xx < 5; xx++) REQUIRE(result(xx, yy) == 4); // 1.5 + 3, truncated

    std::vector<TracePacket> packets = compat::read_trace_file(file.path);
    std::vector<std::string> tags;
    for (const TracePacket &p : packets)
        if (p.event == loom_trace_tag) tags.push_back(p.func + ": " + p.tag);
    std::sort(tags.begin(), tags.end());
    // float is code 2, int 0, uint 1. The input's bounds are its buffer's,
    // t's the region the run writes (one row at a time, all rows).
    CHECK(tags == std::vector<std::string>{"in: func_type_and_dim: 1 1 8 1 2 0 6 0 4",
                                           "out: func_type_and_dim: 1 1 16 1 2 0 5 0 4",
                                           "t: func_type_and_dim: 2 2 32 1 0 16 1 2 0 5 0 4"});
    // Stores of t carry float and int16 values (value_index 0 and 1).
    int t_stores = 0;
    for (const TracePacket &p : packets) {
        if (p.event != loom_trace_store || p.func != "t") continue;
        t_stores++;
        if (p.value_index == 0) {
            CHECK((p.code == loom_type_float && p.bits == 32));
            float v;
            REQUIRE(p.value.size() == 4);
            std::memcpy(&v, p.value.data(), 4);
            CHECK(v == 1.5f);
        } else {
            CHECK((p.code == loom_type_int && p.bits == 16 && p.value_index == 1));
            int16_t v;
            REQUIRE(p.value.size() == 2);
            std::memcpy(&v, p.value.data(), 2);
            CHECK(v == 3);
        }
    }
    CHECK(t_stores == 2 * 5 * 4);
}

TEST_CASE("trace file: stores from parallel tasks are whole packets, each once",
          "[compat][tracing][trace_file]") {
    loom_test::ScratchFile file("trace_file", "parallel.trace");
    loom_test::ScopedEnv hl("HL_TRACE_FILE", nullptr);
    loom_test::ScopedEnv env("LOOM_TRACE_FILE", file.path.c_str());
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + 100 * y;
    f.parallel(y).trace_stores();
    const int w = 64, h = 32;
    f.realize({w, h});
    REQUIRE(loom_shutdown_trace() == 0);
    std::vector<TracePacket> packets = compat::read_trace_file(file.path);
    std::vector<std::string> stores, expected;
    for (const TracePacket &p : packets)
        if (p.event == loom_trace_store) stores.push_back(describe(p));
    for (int yy = 0; yy < h; yy++)
        for (int xx = 0; xx < w; xx++)
            expected.push_back(event(loom_trace_store, "f", {xx, yy}, xx + 100 * yy));
    std::sort(stores.begin(), stores.end());
    std::sort(expected.begin(), expected.end());
    CHECK(stores == expected);
    CHECK(packets.size() == size_t(w * h) + 3); // begin, the tag, end
}

TEST_CASE("trace file: AOT code writes the same packets through Loom::Runtime",
          "[compat][tracing][trace_file][compile_to]") {
    Target host = get_host_target();
    if (!(host.arch == Target::X86 && host.bits == 64 && host.os == Target::Linux)) {
        WARN("the AOT trace file check links an x86-64 Linux client");
        return;
    }
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                ("loom_compat_trace_file_aot_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    auto file = [&](const std::string &name) { return (dir / name).string(); };

    TwoStage p;
    Module m = p.g.compile_to_module({}, "traced_aot", host);
    m.compile({{OutputFileType::static_library, file("traced.a")},
               {OutputFileType::c_header, file("traced.h")}});
    std::ofstream(file("client.cpp")) << R"(
#include "LoomBuffer.h"
#include "traced.h"
int main() {
    loom::Runtime::Buffer<int32_t> out(3, 2);
    return traced_aot(out.raw_buffer());
}
)";
    std::string exe = file("client"), log = file("client.log"), trace = file("aot.trace");
    std::string cmd = std::string("'") + LOOM_TEST_CXX + "' -std=c++17 -O1 -o '" + exe + "' '" +
                      file("client.cpp") + "' -I'" + dir.string() + "' -I'" +
                      LOOM_TEST_INCLUDE_DIR + "' '" + file("traced.a") + "' '" +
                      LOOM_TEST_RUNTIME_LIB + "' " + LOOM_TEST_LINK_FLAGS + " -lpthread -ldl > '" +
                      log + "' 2>&1 && LOOM_TRACE_FILE='" + trace + "' '" + exe + "' > '" + log +
                      "' 2>&1";
    int rc = std::system(cmd.c_str());
    {
        INFO(cmd << "\n" << loom_test::read_text(log));
        REQUIRE(rc == 0);
        CHECK(loom_test::read_text(log).empty()); // nothing printed
    }
    std::vector<TracePacket> packets = compat::read_trace_file(trace);
    CHECK(describe_all(packets) == TwoStage::expected(3, 2));
    check_parents(packets);
    REQUIRE(!packets.empty());
    CHECK(packets.front().func == "traced_aot");
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
}
