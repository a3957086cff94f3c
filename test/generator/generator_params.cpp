// GeneratorParam parsing, member registration, building a generator's
// pipeline and running it in the JIT, and the driver's command line.

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "Loom.h"

using namespace loom;
using Catch::Contains;

namespace {

enum class Mode { Fast, Accurate };

class Knobs : public Generator<Knobs> {
public:
    GeneratorParam<int> factor{"factor", 2, 1, 8};
    GeneratorParam<float> sigma{"sigma", 1.5f};
    GeneratorParam<bool> flag{"flag", false};
    GeneratorParam<Mode> mode{
        "mode", Mode::Fast, {{"fast", Mode::Fast}, {"accurate", Mode::Accurate}}};
    GeneratorParam<Type> out_type{"out_type", UInt(16)};
    GeneratorParam<std::string> label{"label", "none"};
    GeneratorParam<uint8_t> small{"small", 3};

    Input<Buffer<uint8_t, 2>> input{"input"};
    Input<int> bias{"bias", 0, -100, 100};
    Output<Buffer<>> output{"output"};

    Var x{"x"}, y{"y"};

    void generate() {
        Expr v = cast<int>(input(x, y)) * factor + bias;
        if (flag) v = v + 1;
        if (mode == Mode::Accurate) v = v * 2;
        output(x, y) = cast(out_type, v);
    }
    void schedule() { output.vectorize(x, natural_vector_size<uint16_t>()); }
};

class Undefined : public Generator<Undefined> {
public:
    Output<Buffer<float, 2>> out{"out"};
    void generate() {}
};

class WrongType : public Generator<WrongType> {
public:
    Output<Buffer<float, 2>> out{"out"};
    Var x, y;
    void generate() { out(x, y) = x + y; }
};

class WrongDims : public Generator<WrongDims> {
public:
    Output<Buffer<int32_t, 3>> out{"out"};
    Var x, y;
    void generate() { out(x, y) = x + y; }
};

class Duplicate : public Generator<Duplicate> {
public:
    GeneratorParam<int> a{"same", 1};
    Input<int> b{"same"};
    Output<Buffer<int32_t, 1>> out{"out"};
    Var x;
    void generate() { out(x) = x + b; }
};

} // namespace

LOOM_REGISTER_GENERATOR(Knobs, test_knobs)
LOOM_REGISTER_GENERATOR(WrongType, test_wrong_type)

TEST_CASE("GeneratorParams register in declaration order", "[generator]") {
    Knobs k;
    std::vector<std::string> names;
    for (auto *p : k.generator_params()) names.push_back(p->param_name());
    CHECK(names == std::vector<std::string>{"factor", "sigma", "flag", "mode", "out_type", "label",
                                            "small"});
    REQUIRE(k.generator_inputs().size() == 2);
    CHECK(k.generator_inputs()[0]->input_name() == "input");
    CHECK(k.generator_inputs()[1]->input_name() == "bias");
    REQUIRE(k.generator_outputs().size() == 1);
    // A GeneratorParam outside any generator registers nowhere.
    GeneratorParam<int> loose{"loose", 1};
    CHECK(k.generator_params().size() == 7);
}

TEST_CASE("GeneratorParam values parse from text", "[generator]") {
    Knobs k;
    k.set_generator_param("factor", "7");
    CHECK(k.factor == 7);
    k.set_generator_param("sigma", "-0.25");
    CHECK(k.sigma.value() == -0.25f);
    k.set_generator_param("flag", "true");
    CHECK(k.flag);
    k.set_generator_param("mode", "accurate");
    CHECK(k.mode.value() == Mode::Accurate);
    CHECK(k.mode.value_string() == "accurate");
    k.set_generator_param("out_type", "float32");
    CHECK(k.out_type.value() == Float(32));
    k.set_generator_param("label", "hello world");
    CHECK(k.label.value() == "hello world");
    k.set_generator_param("small", "255");
    CHECK(k.small == 255);
    k.set_generator_param("target", "x86-64-linux-avx2");
    CHECK(k.get_target().has_feature(Target::AVX2));
    CHECK(k.natural_vector_size<float>() == 8);
    CHECK(k.natural_vector_size<uint8_t>() == 32);
    k.set_generator_param("target", "x86-64-linux");
    CHECK(k.natural_vector_size<float>() == 4);
}

TEST_CASE("bad GeneratorParam values say what is expected", "[generator][error]") {
    Knobs k;
    CHECK_THROWS_WITH(k.set_generator_param("factor", "abc"),
                      "GeneratorParam 'factor' expects an integer (int32) in [1, 8], got \"abc\"");
    CHECK_THROWS_WITH(k.set_generator_param("factor", "9"),
                      "GeneratorParam 'factor' expects an integer (int32) in [1, 8], got \"9\"");
    CHECK_THROWS_WITH(k.set_generator_param("factor", "3 "), Contains("expects an integer"));
    CHECK_THROWS_WITH(k.set_generator_param("factor", ""), Contains("expects an integer"));
    CHECK_THROWS_WITH(k.set_generator_param("sigma", "1.5x"),
                      Contains("expects a number (float32), got"));
    CHECK_THROWS_WITH(k.set_generator_param("sigma", "nan"),
                      Contains("expects a number (float32), got"));
    CHECK_THROWS_WITH(k.set_generator_param("flag", "1"),
                      "GeneratorParam 'flag' expects true or false, got \"1\"");
    CHECK_THROWS_WITH(k.set_generator_param("mode", "slow"),
                      "GeneratorParam 'mode' expects one of {accurate, fast}, got \"slow\"");
    CHECK_THROWS_WITH(k.set_generator_param("out_type", "float16"),
                      Contains("expects a type (one of int8, int16") &&
                          Contains("got \"float16\""));
    CHECK_THROWS_WITH(k.set_generator_param("small", "256"),
                      Contains("GeneratorParam 'small' expects an integer (uint8)"));
    CHECK_THROWS_WITH(k.set_generator_param("small", "-1"), Contains("expects an integer (uint8)"));
    CHECK_THROWS_WITH(k.set_generator_param("target", "arm-65"),
                      Contains("GeneratorParam 'target' expects a target string"));
    CHECK_THROWS_WITH(k.set_generator_param("factr", "2"),
                      "Generator 'generator' has no GeneratorParam 'factr'; valid parameters: "
                      "target, autoscheduler, factor, sigma, flag, mode, out_type, label, small");
    // Failed sets leave the old value.
    CHECK(k.factor == 2);
    CHECK_THROWS_WITH(k.factor.set(0), Contains("in [1, 8]"));
}

TEST_CASE("GeneratorParams read like their values in expressions", "[generator]") {
    Knobs k;
    Var x("x");
    Expr a = x * k.factor;
    Expr b = k.factor + x;
    Expr c = k.sigma * 2.0f;
    int d = k.factor * 3;
    int e = -k.factor;
    CHECK(d == 6);
    CHECK(e == -2);
    CHECK(a.type() == Int(32));
    CHECK(b.type() == Int(32));
    CHECK(c.type() == Float(32));
    CHECK(!k.flag);
}

TEST_CASE("a generator builds a pipeline that runs in the JIT", "[generator]") {
    Knobs k;
    k.set_generator_params({{"factor", "3"}, {"flag", "true"}, {"mode", "accurate"}});
    Pipeline p = k.build_pipeline();
    std::vector<std::string> args;
    for (const Argument &a : k.arguments()) args.push_back(a.name);
    CHECK(args == std::vector<std::string>{"input", "bias"});

    const int W = 67, H = 5;
    Buffer<uint8_t> in(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in(x, y) = uint8_t(x * 11 + y);
    k.input.set(in);
    k.bias.set(-4);
    Buffer<uint16_t> out(W, H);
    p.realize(Realization({out}));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) REQUIRE(out(x, y) == uint16_t((in(x, y) * 3 - 4 + 1) * 2));
    // Building twice returns the same pipeline; params are frozen afterwards.
    CHECK(k.build_pipeline().outputs()[0].name() == "output");
    CHECK_THROWS_WITH(k.set_generator_param("factor", "4"), Contains("can't change after"));
}

TEST_CASE("an Input<Buffer<>> without a type is an error", "[generator][error]") {
    class NoType : public Generator<NoType> {
    public:
        Input<Buffer<>> in{"in"};
        Output<Buffer<int32_t, 1>> out{"out"};
        Var x;
        void generate() { out(x) = cast<int32_t>(in(x)); }
    };
    NoType g;
    CHECK_THROWS_WITH(g.build_pipeline(), Contains("Input 'in' has no element type: set in.type="));
    NoType h;
    h.set_generator_param("in.type", "int8");
    CHECK_THROWS_WITH(h.build_pipeline(),
                      Contains("Input 'in' has no dimension count: set in.dim="));
    NoType ok;
    ok.set_generator_params({{"in.type", "int8"}, {"in.dim", "1"}});
    CHECK_NOTHROW(ok.build_pipeline());
}

TEST_CASE("malformed generators are compile errors", "[generator][error]") {
    Undefined u;
    CHECK_THROWS_WITH(u.build_pipeline(), Contains("Output 'out' was not defined by generate()"));
    WrongType t;
    CHECK_THROWS_WITH(t.build_pipeline(),
                      Contains("Output 'out' is declared with element type float32 but defined "
                               "with type int32"));
    WrongDims d;
    CHECK_THROWS_WITH(d.build_pipeline(),
                      Contains("Output 'out' is declared with 3 dimensions but defined with 2"));
    Duplicate dup;
    CHECK_THROWS_WITH(dup.build_pipeline(), Contains("the name 'same'"));
}

namespace {
int run_driver(std::vector<std::string> args, std::string &out, std::string &err) {
    args.insert(args.begin(), "gen");
    std::vector<char *> argv;
    for (std::string &a : args) argv.push_back(a.data());
    std::ostringstream o, e;
    int status = Internal::generate_filter_main(int(argv.size()), argv.data(), o, e);
    out = o.str();
    err = e.str();
    return status;
}
} // namespace

TEST_CASE("the driver lists generators and reports errors", "[generator][error]") {
    std::string out, err;
    CHECK(run_driver({"--list"}, out, err) == 0);
    CHECK_THAT(out, Contains("test_knobs") && Contains("factor=2") &&
                        Contains("mode=fast  (one of {accurate, fast})"));
    // No arguments: the usage and the generators on stderr, and a failure.
    CHECK(run_driver({}, out, err) == 1);
    CHECK_THAT(err, Contains("usage:") && Contains("test_knobs"));

    CHECK(run_driver({"-g", "nope", "-o", "."}, out, err) == 1);
    CHECK_THAT(
        err,
        Contains("Unknown generator 'nope'; registered generators: test_knobs, test_wrong_type"));
    CHECK(run_driver({"-g", "test_knobs", "-o", ".", "-e", "stmt,exe"}, out, err) == 1);
    CHECK_THAT(err, Contains("Unknown output kind 'exe'; valid kinds: static_library, h"));
    CHECK(run_driver({"-g", "test_knobs", "-o", ".", "factor"}, out, err) == 1);
    CHECK_THAT(err, Contains("Expected a flag or param=value, got 'factor'"));
    CHECK(run_driver({"-g", "test_knobs", "-o"}, out, err) == 1);
    CHECK_THAT(err, Contains("-o needs a value"));
    // The generator's own CompileErrors reach stderr, too.
    CHECK(run_driver({"-g", "test_wrong_type", "-o", ".", "-e", "stmt"}, out, err) == 1);
    CHECK_THAT(err, Contains("error: Generator 'test_wrong_type': Output 'out' is declared with "
                             "element type float32"));
}

TEST_CASE("the driver writes the requested files", "[generator]") {
    std::string dir = "generator_driver_test_out";
    std::string out, err;
    int status = run_driver({"-g", "test_knobs", "-o", dir, "-e", "stmt,llvm_assembly", "-f",
                             "knobs_fn", "-n", "knobs_file", "factor=5"},
                            out, err);
    INFO(err);
    REQUIRE(status == 0);
    std::ifstream stmt(dir + "/knobs_file.stmt");
    REQUIRE(stmt.good());
    std::ifstream ll(dir + "/knobs_file.ll");
    std::stringstream text;
    text << ll.rdbuf();
    CHECK_THAT(text.str(), Contains("knobs_fn"));
}

namespace {

/** A stencil generator that leaves its Funcs to an auto-scheduler when one
 * is asked for, with estimates for its output. */
class AutoBlur : public Generator<AutoBlur> {
public:
    Input<Buffer<int32_t, 2>> input{"input"};
    Output<Buffer<int32_t, 2>> output{"output"};
    Var x{"x"}, y{"y"};
    Func blur_x{"blur_x"};

    void generate() {
        Func clamped = BoundaryConditions::repeat_edge(input);
        blur_x(x, y) = clamped(x - 1, y) + 2 * clamped(x, y) + clamped(x + 1, y);
        output(x, y) = blur_x(x, y - 1) + 2 * blur_x(x, y) + blur_x(x, y + 1);
        output.set_estimates({{0, 512}, {0, 256}});
    }
    void schedule() {
        if (using_autoscheduler()) return;
        blur_x.compute_root();
    }
};

} // namespace

TEST_CASE("the autoscheduler GeneratorParams schedule a generator", "[generator][autoschedule]") {
    AutoBlur g;
    g.set_generator_params({{"autoscheduler", "Loom"}, {"autoscheduler.parallelism", "4"}});
    CHECK(g.using_autoscheduler());
    CHECK(g.autoscheduler_params().extra.at("parallelism") == "4");
    Pipeline p = g.build_pipeline();
    const AutoSchedulerResults &r = p.autoscheduler_results();
    INFO(r.schedule_source);
    CHECK(r.output_sizes == std::vector<std::vector<int>>{{512, 256}});
    CHECK(r.schedule_source.find("blur_x.compute_at(output, yo)") != std::string::npos);

    const int W = 70, H = 40;
    Buffer<int32_t> in(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in(x, y) = x * 3 + y * 7;
    g.input.set(in);
    Buffer<int32_t> out(W, H);
    p.realize(Realization({out}));
    auto at = [&](int x, int y) { return in(std::clamp(x, 0, W - 1), std::clamp(y, 0, H - 1)); };
    auto bx = [&](int x, int y) { return at(x - 1, y) + 2 * at(x, y) + at(x + 1, y); };
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            REQUIRE(out(x, y) == bx(x, y - 1) + 2 * bx(x, y) + bx(x, y + 1));

    // Halide 14's spellings.
    AutoBlur h;
    h.set_generator_params({{"auto_schedule", "true"}, {"machine_params", "8,1048576,40"}});
    CHECK(h.using_autoscheduler());
    CHECK(h.autoscheduler_params().extra.at("parallelism") == "8");
    CHECK_THROWS_WITH(h.set_generator_param("auto_schedule", "maybe"), Contains("true or false"));

    // The schedule output writes the chosen schedule as C++.
    std::string dir = "autoblur_schedule_out";
    g.emit(dir, "autoblur", "autoblur", {"schedule"});
    std::ifstream in_file(dir + "/autoblur.schedule.h");
    std::stringstream text;
    text << in_file.rdbuf();
    CHECK(text.str().find("blur_x.compute_at(output, yo)") != std::string::npos);
    CHECK(text.str().find("auto-scheduler Loom") != std::string::npos);
}

TEST_CASE("an auto-scheduled generator needs estimates on its outputs", "[generator][error]") {
    class NoEstimates : public Generator<NoEstimates> {
    public:
        Input<Buffer<int32_t, 1>> in{"in"};
        Output<Buffer<int32_t, 1>> out{"out"};
        Var x{"x"};
        void generate() { out(x) = in(x) + 1; }
    };
    NoEstimates g;
    g.set_generator_param("autoscheduler", "Loom");
    CHECK_THROWS_WITH(g.build_pipeline(),
                      Contains("Output out has no estimate for x") && Contains("set_estimates"));
}
