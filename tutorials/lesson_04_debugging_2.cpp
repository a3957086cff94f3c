// Lesson 4: watching a pipeline run, with tracing and print().
//
// trace_stores() reports every value a Func stores, with its coordinates;
// the default handler prints one line per store ("Store gradient.0(1, 2) =
// 3"). A custom_print handler receives those lines, so this lesson collects
// them and checks them instead of printing them. print() wraps any Expr and
// prints its value each time it is computed.

#include <Loom.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

/** Collects the lines a call prints (trace lines and print() output). */
struct Lines : loom::JITUserContext {
    std::vector<std::string> lines;
    Lines() {
        handlers.custom_print = [](loom::JITUserContext *c, const char *line) {
            static_cast<Lines *>(c)->lines.push_back(line);
        };
    }
    /** The lines that start with `prefix`. */
    std::vector<std::string> starting_with(const std::string &prefix) const {
        std::vector<std::string> found;
        for (const std::string &l : lines)
            if (l.compare(0, prefix.size(), prefix) == 0) found.push_back(l);
        return found;
    }
};

int fail(const char *what) {
    std::printf("lesson 4 failed: %s\n", what);
    return 1;
}

} // namespace

int main() {
    loom::Var x("x"), y("y");

    // Every store of gradient, in the order the loops run: x inner, y outer.
    loom::Func gradient("gradient");
    gradient(x, y) = x + y;
    gradient.trace_stores();
    Lines serial;
    gradient.realize(&serial, {4, 4});
    std::vector<std::string> stores = serial.starting_with("Store ");
    if (stores.size() != 16) return fail("expected 16 stores");
    std::vector<std::string> expected;
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            expected.push_back("Store gradient.0(" + std::to_string(i) + ", " + std::to_string(j) +
                               ") = " + std::to_string(i + j) + "\n");
    if (stores != expected) return fail("stores of gradient out of order");
    std::printf("%s", stores[5].c_str());

    // Scheduled in parallel over y, the rows may interleave in any order,
    // but every value is still stored exactly once.
    loom::Func parallel_gradient("parallel_gradient");
    parallel_gradient(x, y) = x + y;
    parallel_gradient.trace_stores().parallel(y);
    Lines parallel;
    parallel_gradient.realize(&parallel, {4, 4});
    if (parallel.starting_with("Store parallel_gradient.0(").size() != 16)
        return fail("expected 16 parallel stores");

    // print() shows one term of a larger expression: here cos(y), once per
    // point computed.
    loom::Func g("g");
    g(x, y) = loom::sin(x) + loom::print(loom::cos(y), "<- cos(y) at y =", y);
    Lines printed;
    g.realize(&printed, {2, 2});
    if (printed.starting_with("1.000000 <- cos(y) at y = 0").size() != 2)
        return fail("expected print() to report cos(0) twice");

    // print_when() prints only where its condition holds.
    loom::Func h("h");
    loom::Expr value = x * y;
    h(x, y) = loom::print_when(x == 3 && y == 2, value, "<- x * y at (3, 2)");
    Lines once;
    h.realize(&once, {5, 5});
    if (once.lines.size() != 1 || once.lines[0] != "6 <- x * y at (3, 2)\n")
        return fail("expected one line from print_when");
    std::printf("%s", once.lines[0].c_str());

    std::printf("Success!\n");
    return 0;
}
