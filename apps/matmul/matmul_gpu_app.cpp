// Runs the matmul generated with gpu=true (for host-opencl or host-cuda: one
// program per library, see CMakeLists.txt) on generated matrices and checks
// it against plain C++ (double accumulation, relative tolerance). Links only
// the generated library and Loom::Runtime. Where the library's GPU driver is
// missing it says so and exits with loom_apps::kNoDriverExit.
//
//   matmul_gpu_app_opencl [M K N]      (likewise matmul_gpu_app_cuda)

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <LoomBuffer.h>

#include LOOM_APP_GPU_HEADER
#include "gpu_app.h"

using Matrix = loom::Runtime::Buffer<float, 2>;

namespace {

Matrix random_matrix(int width, int height, uint32_t seed) {
    Matrix m(width, height);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            seed = seed * 1664525u + 1013904223u;
            m(x, y) = float((seed >> 9) % 2001) / 1000.0f - 1.0f;
        }
    return m;
}

int check(const Matrix &a, const Matrix &b, const Matrix &out) {
    int failures = 0;
    const int K = a.width();
    for (int y = 0; y < out.height(); y++)
        for (int x = 0; x < out.width(); x++) {
            double want = 0, scale = 0;
            for (int k = 0; k < K; k++) {
                want += double(a(k, y)) * double(b(x, k));
                scale += std::fabs(double(a(k, y)) * double(b(x, k)));
            }
            if (std::fabs(out(x, y) - want) > 1e-5 * scale + 1e-6 && failures++ < 10)
                std::printf("matmul(%d, %d) = %f, expected %f\n", x, y, out(x, y), want);
        }
    return failures;
}

} // namespace

int main(int argc, char **argv) {
    // M x K times K x N; M and N not multiples of the 32x32 tiles, K not of
    // the 16-wide slices.
    int M = 203, K = 77, N = 101;
    if (argc > 3) M = std::atoi(argv[1]), K = std::atoi(argv[2]), N = std::atoi(argv[3]);
    if (M < 32 || N < 32 || K < 1) {
        std::printf("matmul_gpu_app: M and N must be at least 32 (one tile), K at least 1\n");
        return 2;
    }
    Matrix a = random_matrix(K, M, 1), b = random_matrix(N, K, 2), out(N, M);
    loom_apps::CallMessages messages;
    if (int r = matmul_gpu_with_context(&messages.context, a, b, out))
        return loom_apps::report_gpu_failure(LOOM_APP_GPU_NAME, r, messages.text);
    if (int r = out.copy_to_host()) {
        std::printf("%s: copy_to_host failed with error %d\n", LOOM_APP_GPU_NAME, r);
        return 1;
    }
    if (int failures = check(a, b, out)) {
        std::printf("%s: %d mismatches\n", LOOM_APP_GPU_NAME, failures);
        return 1;
    }
    std::printf("%s: %dx%d * %dx%d ok\n", LOOM_APP_GPU_NAME, K, M, N, K);
    return 0;
}
