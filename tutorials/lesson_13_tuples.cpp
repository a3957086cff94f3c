// Lesson 13: Tuples.
//
// A Func can compute several values per point: f(x) = Tuple(a, b). Each
// element gets its own buffer (realize returns a Realization of them), and
// f(x)[i] reads element i. Updates may replace all elements at once, which
// is how a reduction that tracks several values (like argmax: where and
// what) stays consistent.

#include <Loom.h>

#include <cmath>
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

    // 1. Two values of different types per point.
    Func multi("multi_valued");
    multi(x, y) = Tuple(x + y, sin(cast<float>(x * y)));
    Realization r = multi.realize({80, 60});
    Buffer<int> im0 = r[0];
    Buffer<float> im1 = r[1];
    bool good = true;
    for (int j = 0; j < 60; j++)
        for (int i = 0; i < 80; i++)
            good =
                good && im0(i, j) == i + j && std::abs(im1(i, j) - std::sin(float(i * j))) < 1e-4f;
    expect("a Tuple-valued Func", good);

    // 2. Consumers read elements with [i].
    Func consumer("consumer");
    consumer(x, y) = multi(x, y)[0] + cast<int>(multi(x, y)[1] * 10.0f);
    Buffer<int> c = consumer.realize({80, 60});
    good = true;
    for (int j = 0; j < 60; j++)
        for (int i = 0; i < 80; i++) good = good && c(i, j) == i + j + int(im1(i, j) * 10.0f);
    expect("reading Tuple elements", good);

    // 3. A hand-written argmax: the index and the value update together.
    Func input("input");
    input(x) = sin(cast<float>(x)) * 100.0f;
    Func arg_max("arg_max");
    arg_max() = Tuple(0, input(0));
    RDom k(1, 99);
    Expr old_index = arg_max()[0], old_max = arg_max()[1];
    Expr better = input(k) > old_max;
    arg_max() = Tuple(select(better, k, old_index), select(better, input(k), old_max));
    Realization am = arg_max.realize();
    int best = 0;
    for (int i = 1; i < 100; i++)
        if (std::sin(float(i)) > std::sin(float(best))) best = i;
    expect("argmax by hand", Buffer<int>(am[0])() == best);

    // 4. The inline reduction argmax does the same, returning a Tuple.
    Func builtin("builtin_argmax");
    RDom all(0, 100);
    builtin() = argmax(input(all));
    Realization b = builtin.realize();
    expect("inline argmax",
           Buffer<int>(b[0])() == best && Buffer<float>(b[1])() == Buffer<float>(am[1])());

    // 5. undef() leaves an element as it is.
    Func counter("counter");
    counter(x) = Tuple(x, 0);
    counter(x) = Tuple(undef<int>(), counter(x)[1] + 5);
    Realization cr = counter.realize({4});
    expect("undef keeps an element", Buffer<int>(cr[0])(3) == 3 && Buffer<int>(cr[1])(3) == 5);

    std::printf(ok ? "Success!\n" : "Lesson 13 FAILED\n");
    return ok ? 0 : 1;
}
