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
    std::printf("consumer: ok\n");
    return 0;
}
