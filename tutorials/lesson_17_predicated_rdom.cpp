// Lesson 17: reductions over non-rectangular domains.
//
// RDom::where(condition) restricts a reduction domain to the points where
// the condition holds; several where() calls AND together. The condition
// may use the RDom's own RVars, Params and pure Vars of the update. The
// loops still run over the bounding box; each iteration is guarded.

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
    Buffer<int> image(40, 40);
    for (int j = 0; j < 40; j++)
        for (int i = 0; i < 40; i++) image(i, j) = (i * 3 + j * 5) % 17;

    // 1. Sum over the pixels inside a circle of radius 10 around (20, 20).
    {
        RDom r(10, 21, 10, 21);
        r.where((r.x - 20) * (r.x - 20) + (r.y - 20) * (r.y - 20) <= 100);
        Func circle_sum("circle_sum");
        circle_sum() = 0;
        circle_sum() += image(r.x, r.y);
        int want = 0;
        for (int j = 10; j < 31; j++)
            for (int i = 10; i < 31; i++)
                if ((i - 20) * (i - 20) + (j - 20) * (j - 20) <= 100) want += image(i, j);
        expect("sum over a circle", Buffer<int>(circle_sum.realize())() == want);
    }

    // 2. Two predicates: the lower triangle, even rows only.
    {
        RDom r(0, 40, 0, 40);
        r.where(r.x <= r.y);
        r.where(r.y % 2 == 0);
        Func tri("triangle_sum");
        tri(x) = 0;
        tri(r.y) += image(r.x, r.y); // one sum per row
        Buffer<int> t = tri.realize({40});
        bool good = true;
        for (int j = 0; j < 40; j++) {
            int want = 0;
            for (int i = 0; i <= j; i++)
                if (j % 2 == 0) want += image(i, j);
            good = good && t(j) == want;
        }
        expect("triangle, even rows", good);
    }

    // 3. A predicate with a pure Var: per column x, the sum of the rows
    // below the diagonal. Splitting an RVar keeps the predicate.
    {
        RDom r(0, 40);
        r.where(r < x);
        Func below("below_diagonal");
        below(x) = 0;
        below(x) += image(x, r);
        RVar ro("ro"), ri("ri");
        below.update(0).split(r, ro, ri, 8).vectorize(x, 4);
        Buffer<int> b = below.realize({40});
        bool good = true;
        for (int i = 0; i < 40; i++) {
            int want = 0;
            for (int j = 0; j < i; j++) want += image(i, j);
            good = good && b(i) == want;
        }
        expect("predicate on a pure Var, split RVar", good);
    }

    std::printf(ok ? "Success!\n" : "Lesson 17 FAILED\n");
    return ok ? 0 : 1;
}
