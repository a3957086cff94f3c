// perf_apps --auto's bookkeeping, without any library behind it: the
// option's parsing and its errors, and how prepare_autos() turns each way a
// scheduler can go wrong into a "failed" cell (fake sides stand in for Loom
// and Halide, so every case is cheap and certain).

#include <catch2/catch.hpp>
#include <map>
#include <stdexcept>

#include "auto_rows.h"

using namespace loom_apps_bench;
using Catch::Contains;

namespace {

std::vector<std::string> parsed(const std::string &arg) {
    std::vector<std::string> s;
    REQUIRE(parse_auto_option(arg, s));
    return s;
}

/** A pipeline whose output is `values`; `fail` names the step that throws
 * ("compile" or "run"). */
SidePipeline fake_pipeline(std::vector<double> values, const std::string &fail = "") {
    SidePipeline p;
    p.compile = [fail] {
        if (fail == "compile") throw std::runtime_error("no schedule\nfound");
    };
    p.run = [fail] {
        if (fail == "run") throw std::runtime_error("read outside the input");
    };
    p.output = [values] { return values; };
    p.tolerance = 2;
    p.choose_ms = [] { return 12.5; };
    return p;
}

} // namespace

TEST_CASE("perf_apps --auto: the option names the auto-schedulers", "[perf_apps]") {
    CHECK(parsed("--auto") ==
          std::vector<std::string>{"Loom", "LoomTuned", "Mullapudi2016", "Adams2019"});
    CHECK(parsed("--auto=tuned,loom") == std::vector<std::string>{"LoomTuned", "Loom"});
    CHECK(parsed("--auto=loom,Mullapudi") == std::vector<std::string>{"Loom", "Mullapudi2016"});
    CHECK(parsed("--auto=ADAMS2019,adams") == std::vector<std::string>{"Adams2019"});
    std::vector<std::string> s;
    CHECK_FALSE(parse_auto_option("--cpu-time", s));
    CHECK_FALSE(parse_auto_option("--automatic", s));
}

TEST_CASE("perf_apps --auto: bad option values", "[perf_apps][error]") {
    std::vector<std::string> s;
    CHECK_THROWS_WITH(
        parse_auto_option("--auto=loom,foo", s),
        Contains("unknown auto-scheduler 'foo' (known: loom, tuned, mullapudi, adams)"));
    CHECK_THROWS_WITH(parse_auto_option("--auto=", s), Contains("no auto-scheduler named"));
}

TEST_CASE("perf_apps --auto: each failure becomes its cell", "[perf_apps]") {
    // The Loom side offers "Loom"; the Halide side "Mullapudi2016" and
    // "Adams2019", whose outputs and failures the fakes below decide.
    std::map<std::string, SidePipeline> by_scheduler = {
        {"Loom", fake_pipeline({1, 2, 3})},
        {"Mullapudi2016", fake_pipeline({1, 2, 30})},
        {"Adams2019", fake_pipeline({1, 2, 3}, "compile")}};
    SideApp app{"app", "Mpix/s", 1, nullptr,
                [&](const std::string &s) { return by_scheduler.at(s); }};
    Side loom{"host", {app}, {"Loom"}}, halide{"host", {app}, {"Mullapudi2016", "Adams2019"}};
    SidePipeline hand = fake_pipeline({1, 2, 4});
    SideHand loom_hand{&loom, &app, &hand}, halide_hand{&halide, &app, &hand};

    std::vector<AutoCandidate> c =
        prepare_autos({"Loom", "Mullapudi2016", "Adams2019"}, loom_hand, halide_hand);
    REQUIRE(c.size() == 3);
    CHECK(c[0].cell.ok()); // within 2 of the hand output
    CHECK_FALSE(c[0].halide);
    CHECK(c[0].cell.choose_ms == 12.5);
    CHECK(c[1].halide);
    CHECK(c[1].cell.failure == "output differs from the hand schedule's by up to 26");
    CHECK(c[2].cell.failure == "choosing or compiling: no schedule found");

    by_scheduler["Loom"] = fake_pipeline({1, 2, 3}, "run");
    c = prepare_autos({"Loom"}, loom_hand, halide_hand);
    CHECK(c[0].cell.failure == "running: read outside the input");

    // No hand output on the side to check against, or no side offering it.
    c = prepare_autos({"Mullapudi2016"}, loom_hand, {&halide, &app, nullptr});
    CHECK_THAT(c[0].cell.failure, Contains("hand schedule failed"));
    c = prepare_autos({"Adams2019"}, loom_hand, {});
    CHECK(c[0].cell.failure == "no side of this build offers it");

    // Ratios: the side's hand time over the auto time; 0 once failed.
    AutoCell cell;
    cell.hand_ms = 30;
    cell.run_ms = 20;
    CHECK(cell.ratio() == 1.5);
    cell.failure = "x";
    CHECK(cell.ratio() == 0);
}
