// Lesson 19: wrapper Funcs (Func::in and ImageParam::in).
//
// A schedule decides where each Func is computed, but sometimes one Func
// should be handled differently by each of its consumers, or the reads of an
// input should be gathered into a small tile first (to transpose it, or to
// stage it in a GPU's shared memory). Rewriting the algorithm with an extra
// copy stage would do it, at the price of mixing the schedule into the
// algorithm. A wrapper does it from the schedule alone:
//
//   Func f_in_g = f.in(g);   // g now reads f_in_g(x, y) = f(x, y)
//   f.in()                   // one wrapper for every caller of f
//   img.in(g)                // g reads a Func that reads the image
//
// A wrapper is an ordinary Func: it can be computed at any loop, split,
// vectorized, run on GPU threads, and wrapped again.

#include <Loom.h>

#include <cmath>
#include <cstdio>
#include <string>

using namespace loom;

namespace {

bool ok = true;

void expect(const char *what, bool good) {
    std::printf("%s: %s\n", what, good ? "correct" : "WRONG");
    if (!good) ok = false;
}

} // namespace

int main() {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");

    // 1. A Func between f and one of its consumers.
    {
        Func f("f"), g("g");
        f(x, y) = x + y;
        g(x, y) = 2 * f(x, y) + 3;
        f.compute_root();
        // Calls of f inside g become calls of f_in_g; f itself is unchanged.
        Func f_in_g = f.in(g);
        f_in_g.compute_root();
        // Three loop nests now: f, then f_in_g (a copy of f), then g.
        g.print_loop_nest();
        Buffer<int> out = g.realize({5, 5});
        bool good = true;
        for (int j = 0; j < 5; j++)
            for (int i = 0; i < 5; i++) good = good && out(i, j) == 2 * (i + j) + 3;
        expect("f.in(g)", good);
    }

    // 2. Different schedules for different consumers. f is read by g and by
    // h; each consumer gets its own copy of f, computed where it is needed,
    // while f itself is computed once at root.
    {
        Func f("f"), g("g"), h("h"), out("out");
        f(x, y) = x * y;
        g(x, y) = f(x, y) + 1;
        h(x, y) = f(y, x) * 2; // reads f transposed
        out(x, y) = g(x, y) + h(x, y);
        f.compute_root();
        f.in(g).compute_at(out, y).vectorize(x, 4);
        f.in(h).compute_at(out, y);
        out.print_loop_nest();
        Buffer<int> r = out.realize({8, 8});
        bool good = true;
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < 8; i++) good = good && r(i, j) == i * j + 1 + j * i * 2;
        expect("a wrapper per consumer", good);
        // in() without arguments makes the global wrapper, which every caller
        // without a wrapper of its own uses; asking again gives the same Func.
        std::printf("f.in() is %s, f.in(g) is still %s\n", f.in().name().c_str(),
                    f.in(g).name().c_str());
    }

    // 3. Transposing through a tile. out(x, y) = img(y, x) reads the image
    // down its columns: one cache line per pixel. Wrapping the image's reads
    // in a Func computed per 8x8 tile of out, vectorized along the image's
    // rows, reads each line once; the transposed reads then hit the tile.
    // The wrapper of an image has the image's dimensions as pure Vars _0, _1.
    {
        ImageParam img(Int(32), 2, "img");
        Func out("transposed");
        out(x, y) = img(y, x);
        out.tile(x, y, xo, yo, xi, yi, 8, 8).vectorize(xi);
        img.in().compute_at(out, xo).vectorize(_0).unroll(_1);
        out.print_loop_nest();
        Buffer<int> in(32, 32);
        for (int j = 0; j < 32; j++)
            for (int i = 0; i < 32; i++) in(i, j) = i * 100 + j;
        img.set(in);
        Buffer<int> r = out.realize({32, 32});
        bool good = true;
        for (int j = 0; j < 32; j++)
            for (int i = 0; i < 32; i++) good = good && r(i, j) == in(j, i);
        expect("transposed through a wrapped tile", good);
    }

    // 4. Staging on a GPU. A wrapper computed at the block loop of a GPU
    // kernel, with its own loops on the block's threads, lives in the
    // block's shared memory (OpenCL __local): each input value is read from
    // global memory once per block, and the 3x3 sums read the fast copy.
    Target gpu = get_host_target().with_feature(Target::OpenCL);
    bool have_gpu = true;
    try {
        Buffer<int> probe(1);
        probe.copy_to_device(DeviceAPI::OpenCL);
    } catch (const RuntimeError &) {
        have_gpu = false;
        std::printf("No OpenCL device here: the GPU part is left out\n");
    }
    if (have_gpu) {
        ImageParam img(Float(32), 2, "gpu_img");
        Func box("box");
        Expr total = 0.0f;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) total += img(x + dx, y + dy);
        box(x, y) = total / 9.0f;
        box.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        img.in().compute_at(box, xo).gpu_threads(_0, _1);
        std::string source = Pipeline(box).device_source({img}, gpu);
        expect("the wrapper is in shared memory", source.find("__local") != std::string::npos);
        Buffer<float> in(66, 66);
        in.set_min(-1, -1);
        for (int j = -1; j < 65; j++)
            for (int i = -1; i < 65; i++) in(i, j) = float((i * 7 + j * 3) % 11);
        img.set(in);
        Buffer<float> out = box.realize({64, 64}, gpu);
        out.copy_to_host();
        bool good = true;
        for (int j = 0; j < 64; j++)
            for (int i = 0; i < 64; i++) {
                float s = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) s += in(i + dx, j + dy);
                good = good && std::abs(out(i, j) - s / 9.0f) < 1e-4f;
            }
        expect("3x3 box on the GPU, input staged in shared memory", good);
    }

    std::printf(ok ? "Success!\n" : "Something was wrong\n");
    return ok ? 0 : 1;
}
