// Links two libraries generated with add_loom_library from an installed
// Loom; needs only Loom::Runtime (no libloom, no LLVM).
#include <cstdio>

#include <LoomBuffer.h>

#include "brighten_by_7.h"
#include "weighted.h"

int main() {
    loom::Runtime::Buffer<uint8_t, 2> in(131, 5), out(131, 5);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 131; x++) in(x, y) = uint8_t(x * 7 + y);
    if (brighten_by_7(in, out) != 0) return 1;
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 131; x++) {
            int want = in(x, y) + 7 > 255 ? 255 : in(x, y) + 7;
            if (out(x, y) != want) {
                std::printf("aot_client: brighten(%d, %d) = %d, expected %d\n", x, y, out(x, y),
                            want);
                return 1;
            }
        }
    loom::Runtime::Buffer<float, 1> v(19), w(19);
    for (int x = 0; x < 19; x++) v(x) = float(x) * 0.5f;
    if (weighted(v, 3.0f, w) != 0) return 1;
    for (int x = 0; x < 19; x++)
        if (w(x) != v(x) * 3.0f + float(x)) {
            std::printf("aot_client: weighted(%d) = %f\n", x, w(x));
            return 1;
        }
    std::printf("aot_client: ok\n");
    return 0;
}
