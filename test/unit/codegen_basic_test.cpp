// Hand-built LoweredFuncs compiled by the LLVM backend and run through NAME_argv.

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "codegen_test_util.h"

using namespace loom;
using namespace loom::Internal;
using namespace loom::test;

namespace {

Target jit_target() {
    return get_host_target();
}

} // namespace

TEST_CASE("codegen: pointwise x*2+1 into an output with a nonzero min", "[codegen][jit]") {
    LoweredFunc f =
        pointwise("cg_pointwise", Int(32), {}, Add::make(Mul::make(var("x"), Expr(2)), Expr(1)));
    JITModule m = JITModule::compile(f, jit_target());
    Buffer<int> out(100);
    out.set_min(-7);
    void *argv[] = {nullptr, out.raw_buffer()};
    REQUIRE(m.argv_function()(argv) == 0);
    for (int x = -7; x < 93; x++) REQUIRE(out(x) == x * 2 + 1);
}

TEST_CASE("codegen: recompiling a function of the same name does not clash", "[codegen][jit]") {
    for (int k = 1; k <= 3; k++) {
        LoweredFunc f = pointwise("cg_same_name", Int(32), {}, Mul::make(var("x"), Expr(k)));
        JITModule m = JITModule::compile(f, jit_target());
        Buffer<int> out(10);
        void *argv[] = {nullptr, out.raw_buffer()};
        REQUIRE(m.argv_function()(argv) == 0);
        for (int x = 0; x < 10; x++) REQUIRE(out(x) == x * k);
    }
}

TEST_CASE("codegen: scalar arguments of several types arrive through argv", "[codegen][jit]") {
    // out(x) = double(x) * d + double(u) + (flag ? 100 : 0) + double(k)
    Expr x = Cast::make(Float(64), var("x"));
    Expr v = Add::make(Mul::make(x, var("d", Float(64))), Cast::make(Float(64), var("u", UInt(8))));
    v = Add::make(v, Select::make(var("flag", Bool()), Expr(100.0), Expr(0.0)));
    v = Add::make(v, Cast::make(Float(64), var("k", Int(64))));
    LoweredFunc f = pointwise("cg_scalars", Float(64),
                              {scalar_arg("d", Float(64)), scalar_arg("u", UInt(8)),
                               scalar_arg("flag", Bool()), scalar_arg("k", Int(64))},
                              v);
    JITModule m = JITModule::compile(f, jit_target());
    Buffer<double> out(8);
    double d = 1.5;
    uint8_t u = 200;
    bool flag = true;
    int64_t k = -(int64_t(1) << 40);
    void *argv[] = {nullptr, &d, &u, &flag, &k, out.raw_buffer()};
    REQUIRE(m.argv_function()(argv) == 0);
    for (int i = 0; i < 8; i++) REQUIRE(out(i) == i * 1.5 + 200 + 100 + double(k));
    flag = false;
    REQUIRE(m.argv_function()(argv) == 0);
    REQUIRE(out(2) == 2 * 1.5 + 200 + double(k));
}

TEST_CASE("codegen: two-dimensional output with strides", "[codegen][jit]") {
    // out(x, y) = x + 10 * y, looping y outside x.
    Expr index = Add::make(Mul::make(Sub::make(var("x"), var("out.min.0")), var("out.stride.0")),
                           Mul::make(Sub::make(var("y"), var("out.min.1")), var("out.stride.1")));
    Stmt store =
        Store::make("out", Cast::make(Int(16), Add::make(var("x"), Mul::make(var("y"), Expr(10)))),
                    index, Buffer<>(), Parameter());
    Stmt inner = For::make("x", var("out.min.0"), var("out.extent.0"), ForType::Serial,
                           DeviceAPI::None, store);
    Stmt outer = For::make("y", var("out.min.1"), var("out.extent.1"), ForType::Serial,
                           DeviceAPI::None, inner);
    LoweredFunc f;
    f.name = "cg_2d";
    f.args = {buffer_arg("out", Int(16), 2, true)};
    f.body = bind_buffer("out", 2, outer);
    JITModule m = JITModule::compile(f, jit_target());
    // A column-major view (x has stride 4) and a dense one with nonzero mins.
    std::vector<int16_t> storage(20);
    Buffer<int16_t> transposed(Int(16), storage.data(), {{0, 5, 4, 0}, {0, 4, 1, 0}});
    Buffer<int16_t> planar(7, 3);
    planar.set_min(2, -1);
    for (Buffer<int16_t> b : {transposed, planar}) {
        void *argv[] = {nullptr, b.raw_buffer()};
        REQUIRE(m.argv_function()(argv) == 0);
        b.for_each_element([&](const std::vector<int> &p) { REQUIRE(b(p) == p[0] + 10 * p[1]); });
    }
}

TEST_CASE("codegen: metadata describes the arguments", "[codegen][jit]") {
    LoweredFunc f = pointwise(
        "cg_metadata", Float(32),
        {scalar_arg("gain", Float(32)), buffer_arg("in", UInt(8), 1, false)},
        Mul::make(Cast::make(Float(32), load(UInt(8), "in", var("x"))), var("gain", Float(32))));
    JITModule m = JITModule::compile(f, jit_target());
    const loom_pipeline_metadata_t *md = m.metadata_function()();
    REQUIRE(md->num_arguments == 3);
    REQUIRE(std::string(md->name) == "cg_metadata");
    REQUIRE(std::string(md->target) == jit_target().to_string());
    REQUIRE(std::string(md->arguments[0].name) == "gain");
    REQUIRE(md->arguments[0].kind == loom_argument_kind_input_scalar);
    REQUIRE(md->arguments[0].type.code == loom_type_float);
    REQUIRE(md->arguments[0].type.bits == 32);
    REQUIRE(std::string(md->arguments[1].name) == "in");
    REQUIRE(md->arguments[1].kind == loom_argument_kind_input_buffer);
    REQUIRE(md->arguments[1].dimensions == 1);
    REQUIRE(md->arguments[1].type.bits == 8);
    REQUIRE(md->arguments[2].kind == loom_argument_kind_output_buffer);

    Buffer<uint8_t> in(16);
    for (int i = 0; i < 16; i++) in(i) = uint8_t(i * 10);
    Buffer<float> out(16);
    float gain = 0.5f;
    void *argv[] = {nullptr, &gain, in.raw_buffer(), out.raw_buffer()};
    REQUIRE(m.argv_function()(argv) == 0);
    for (int i = 0; i < 16; i++) REQUIRE(out(i) == float(i * 10) * 0.5f);
}

TEST_CASE("codegen: llvm_assembly is printed only when asked for", "[codegen][jit]") {
    LoweredFunc f = pointwise("cg_asm", Int(32), {}, var("x"));
    REQUIRE(JITModule::compile(f, jit_target()).llvm_assembly().empty());
    std::string text = JITModule::compile(f, jit_target(), true).llvm_assembly();
    REQUIRE(text.find("define") != std::string::npos);
    REQUIRE(text.find("cg_asm_argv") != std::string::npos);
    REQUIRE(text.find("cg_asm_with_context") != std::string::npos);
}
