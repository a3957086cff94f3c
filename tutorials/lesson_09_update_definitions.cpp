// Lesson 9: multi-pass Funcs, update definitions, and reductions.
//
// A Func may have one pure definition followed by update definitions that
// run in order, each over its own loop nest:
//
//   f(x, y) = x + y;        // pure definition: every point of the domain
//   f(2, 1) = 42;           // update: one point
//   f(x, 0) = f(x, 1) * 2;  // update: the row y = 0, for every x
//
// An RDom (reduction domain) makes an update loop over a range that is not
// a pure Var: f(r) = f(r) + f(r - 1) is a prefix sum. Inline reductions
// (sum, maximum, ...) make such Funcs for you.

#include <Loom.h>

#include <algorithm>
#include <cstdio>
#include <vector>

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

    // 1. Updates at single points and along a row.
    {
        Func f("f");
        f(x, y) = x + y;
        f(2, 1) = 42;
        f(x, 0) = f(x, 1) * 2;
        Buffer<int> out = f.realize({4, 3});
        bool good = true;
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 4; i++) {
                int want = i + j;
                if (i == 2 && j == 1) want = 42;
                if (j == 0) want = (i == 2 ? 42 : i + 1) * 2;
                good = good && out(i, j) == want;
            }
        expect("point and row updates", good);
    }

    // 2. A histogram: an update whose left-hand side is computed (a scatter).
    Buffer<uint8_t> image(160, 120);
    for (int j = 0; j < 120; j++)
        for (int i = 0; i < 160; i++) image(i, j) = uint8_t((i * i + j * 7) % 251);
    {
        Func histogram("histogram");
        histogram(x) = 0;
        RDom r(0, image.width(), 0, image.height());
        histogram(image(r.x, r.y)) += 1; // r.x is the inner loop, r.y the outer
        Buffer<int> h = histogram.realize({256});
        std::vector<int> ref(256, 0);
        for (int j = 0; j < 120; j++)
            for (int i = 0; i < 160; i++) ref[image(i, j)]++;
        bool good = true;
        for (int b = 0; b < 256; b++) good = good && h(b) == ref[size_t(b)];
        expect("histogram", good);
    }

    // 3. A recurrence: each step reads the previous one.
    {
        Func prefix("prefix");
        prefix(x) = cast<int>(image(x, 0));
        RDom r(1, 159);
        prefix(r) = prefix(r) + prefix(r - 1);
        Buffer<int> p = prefix.realize({160});
        bool good = true;
        int acc = 0;
        for (int i = 0; i < 160; i++) good = good && p(i) == (acc += image(i, 0));
        expect("prefix sum", good);
    }

    // 4. Scheduling an update: update(0) is its own Stage. Pure Vars that
    // appear on the left-hand side in their own place may be split,
    // vectorized and parallelized; the RVars stay serial (see lesson 18).
    {
        Func blur("blur");
        RDom r(-2, 5);
        blur(x, y) = 0;
        blur(x, y) += cast<int>(image(clamp(x + r, 0, 159), y));
        blur.update(0).vectorize(x, 8).parallel(y);
        blur.print_loop_nest();
        Buffer<int> b = blur.realize({160, 120});
        bool good = true;
        for (int j = 0; j < 120; j++)
            for (int i = 0; i < 160; i++) {
                int s = 0;
                for (int d = -2; d <= 2; d++) s += image(std::clamp(i + d, 0, 159), j);
                good = good && b(i, j) == s;
            }
        expect("scheduled horizontal blur", good);
    }

    // 5. Inline reductions: sum, product, maximum, minimum, argmax, argmin.
    {
        RDom r(0, 120);
        Func column_max("column_max"), column_sum("column_sum");
        column_max(x) = maximum(image(x, r));
        column_sum(x) = sum(cast<int>(image(x, r)));
        Buffer<uint8_t> m = column_max.realize({160});
        Buffer<int> s = column_sum.realize({160});
        bool good = true;
        for (int i = 0; i < 160; i++) {
            int mx = 0, total = 0;
            for (int j = 0; j < 120; j++) mx = std::max<int>(mx, image(i, j)), total += image(i, j);
            good = good && m(i) == mx && s(i) == total;
        }
        expect("inline reductions", good);
    }

    std::printf(ok ? "Success!\n" : "Lesson 9 FAILED\n");
    return ok ? 0 : 1;
}
