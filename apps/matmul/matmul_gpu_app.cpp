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
#include "matmul_reference.h"

using Matrix = loom::Runtime::Buffer<float, 2>;

int main(int argc, char **argv) {
    // M x K times K x N; M and N not multiples of the 64x128 tiles, K not of
    // the 16-wide slices.
    int M = 203, K = 77, N = 101;
    if (argc > 3) M = std::atoi(argv[1]), K = std::atoi(argv[2]), N = std::atoi(argv[3]);
    if (M < 128 || N < 64 || K < 1) {
        std::printf("matmul_gpu_app: the output (N x M) must be at least 64x128 (one tile), K at "
                    "least 1\n");
        return 2;
    }
    Matrix a = loom_apps::random_matrix<Matrix>(K, M, 1),
           b = loom_apps::random_matrix<Matrix>(N, K, 2), out(N, M);
    loom_apps::CallMessages messages;
    if (int r = matmul_gpu_with_context(&messages.context, a, b, out))
        return loom_apps::report_gpu_failure(LOOM_APP_GPU_NAME, r, messages.text);
    if (int r = out.copy_to_host()) {
        std::printf("%s: copy_to_host failed with error %d\n", LOOM_APP_GPU_NAME, r);
        return 1;
    }
    if (int failures = loom_apps::check_matmul(a, b, out)) {
        std::printf("%s: %d mismatches\n", LOOM_APP_GPU_NAME, failures);
        return 1;
    }
    std::printf("%s: %dx%d * %dx%d ok\n", LOOM_APP_GPU_NAME, K, M, N, K);
    return 0;
}
