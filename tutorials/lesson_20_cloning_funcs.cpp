// Lesson 20: cloning Funcs (Func::clone_in).
//
// A wrapper (lesson 19) copies the values of a Func after it was computed.
// Sometimes the Func should instead be computed twice, each time with its
// own schedule: a boundary condition that one consumer reads in the middle
// of the image and another along its edge, or a cheap stage that one
// consumer wants inlined and another wants stored per row. f.clone_in(g)
// gives g a copy of f's definitions (pure and updates, with f's schedule as
// it is at the time of the call) to schedule on its own.

#include <Loom.h>

#include <cstdio>

using namespace loom;

namespace {

bool ok = true;

void expect(const char *what, bool good) {
    std::printf("%s: %s\n", what, good ? "correct" : "WRONG");
    if (!good) ok = false;
}

} // namespace

int main() {
    Var x("x"), y("y");

    Func f("f"), g("g"), h("h"), out("out");
    f(x, y) = x + y;
    f(x, y) += 1; // an update: the clone has it too
    g(x, y) = f(x, y) * 2;
    h(x, y) = f(x, y) + f(x + 1, y);
    out(x, y) = g(x, y) + h(x, y);

    // f is computed per row of out for h; g gets a clone computed once at root.
    f.compute_at(out, y);
    Func f_clone = f.clone_in(g);
    f_clone.compute_root().vectorize(x, 4);
    // Two separate loop nests compute f: "f_clone_in_g" at root, "f" per row.
    out.print_loop_nest();

    Buffer<int> r = out.realize({8, 6});
    bool good = true;
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 8; i++) {
            auto fv = [](int a, int b) { return a + b + 1; };
            good = good && r(i, j) == fv(i, j) * 2 + fv(i, j) + fv(i + 1, j);
        }
    expect("f computed twice, scheduled apart", good);

    std::printf(ok ? "Success!\n" : "Something was wrong\n");
    return ok ? 0 : 1;
}
