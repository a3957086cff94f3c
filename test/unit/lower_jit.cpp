#include <catch2/catch.hpp>

#include "jit/JITModule.h"
#include "lower/Lower.h"
#include "lower_interpreter.h"
#include "lower_test_util.h"

// Lowered schedules compiled by the LLVM back end, compared with plain C++.

using namespace lower_test;

namespace {

int run_jit(const LoweredFunc &lf, const std::vector<loom_buffer_t *> &buffers) {
    JITModule m = JITModule::compile(lf, get_host_target());
    std::vector<void *> argv{nullptr};
    for (loom_buffer_t *b : buffers) argv.push_back(b);
    return m.argv_function()(argv.data());
}

} // namespace

TEST_CASE("split, vectorized and parallel schedules compute the reference", "[lower][jit]") {
    const TailStrategy tails[] = {TailStrategy::Auto, TailStrategy::GuardWithIf,
                                  TailStrategy::ShiftInwards};
    const ForType inner_kinds[] = {ForType::Serial, ForType::Vectorized, ForType::Unrolled};
    for (TailStrategy tail : tails) {
        for (ForType inner : inner_kinds) {
            Parameter in(Int(32), true, 2, "in");
            // g is computed at root with its own split; f reads it and the input.
            Function g = make_func("g", {"x", "y"},
                                   {Add::make(Call::make(in, {ivar("x"), ivar("y")}), ivar("y"))});
            g.schedule().compute_level = LoopLevel::root();
            g.definition().schedule.splits = {split_of("x", 4, tail)};
            g.definition().schedule.dims = {Dim{"x.i", inner, DeviceAPI::None, false},
                                            Dim{"x.o", ForType::Serial, DeviceAPI::None, false},
                                            Dim{"y", ForType::Parallel, DeviceAPI::None, false}};
            Function f =
                make_func("f", {"x", "y"},
                          {Sub::make(Call::make(g, {Add::make(ivar("x"), 1), ivar("y")}),
                                     Mul::make(Call::make(in, {ivar("x"), ivar("y")}), 3))});
            f.definition().schedule.splits = {split_of("x", 8, tail)};
            f.definition().schedule.dims = {Dim{"x.i", inner, DeviceAPI::None, false},
                                            Dim{"x.o", ForType::Serial, DeviceAPI::None, false},
                                            Dim{"y", ForType::Parallel, DeviceAPI::None, false}};
            LoweredFunc lf = lower({f}, "p", get_host_target());

            TestBuffer input({0, 0}, {22, 5}), out({0, 0}, {21, 5});
            for (int y = 0; y < 5; y++) {
                for (int x = 0; x < 22; x++) input.at({x, y}) = x * 7 + y * 13;
            }
            INFO("tail " << int(tail) << ", inner loop kind " << int(inner));
            REQUIRE(run_jit(lf, {&input.raw, &out.raw}) == 0);
            int wrong = 0;
            for (int y = 0; y < 5; y++) {
                for (int x = 0; x < 21; x++) {
                    int expected = input.at({x + 1, y}) + y - 3 * input.at({x, y});
                    wrong += out.at({x, y}) != expected;
                }
            }
            CHECK(wrong == 0);

            // One column short of what f reads through g: an error, not a stray read.
            TestBuffer narrow({0, 0}, {21, 5});
            static std::string reported;
            loom_error_handler_t old =
                loom_set_error_handler([](void *, const char *message) { reported = message; });
            CHECK(run_jit(lf, {&narrow.raw, &out.raw}) == loom_error_code_buffer_too_small);
            loom_set_error_handler(old);
            CHECK(reported.find("in") != std::string::npos);
            CHECK(reported.find("Func g") != std::string::npos);
        }
    }
}
