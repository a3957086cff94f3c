// A program outside the Loom tree: realizes a pipeline through an installed Loom.
#include <Loom.h>
#include <cstdio>

int main() {
    loom::Var x("x"), y("y");
    loom::Func f("f");
    f(x, y) = x * 3 + y;
    loom::Buffer<int> out = f.realize({10, 5});
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 10; i++)
            if (out(i, j) != i * 3 + j) {
                std::printf("consumer: out(%d, %d) = %d, expected %d\n", i, j, out(i, j),
                            i * 3 + j);
                return 1;
            }
    // The same algorithm on the GPU through OpenCL (PoCL in CI).
    loom::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    loom::Func g("g");
    g(x, y) = x * 3 + y;
    g.gpu_tile(x, y, xo, yo, xi, yi, 4, 4, loom::TailStrategy::GuardWithIf);
    loom::Target gpu = loom::get_host_target().with_feature(loom::Target::OpenCL);
    loom::Buffer<int> gpu_out = g.realize({10, 5}, gpu);
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 10; i++)
            if (gpu_out(i, j) != i * 3 + j) {
                std::printf("consumer: OpenCL out(%d, %d) = %d, expected %d\n", i, j, gpu_out(i, j),
                            i * 3 + j);
                return 1;
            }
    std::printf("consumer: ok (CPU and OpenCL)\n");
    return 0;
}
