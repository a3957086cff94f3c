#ifndef LOOM_APPS_BILATERAL_GRID_REFERENCE_H
#define LOOM_APPS_BILATERAL_GRID_REFERENCE_H

// Plain C++ bilateral grid to check the generated library against: the grid
// is an array over a fixed box of cells (wide enough for every read), filled
// and blurred whole, where the generator computes only what each stage needs.

#include <algorithm>
#include <vector>

#include "loom/Buffer.h"

namespace loom_apps {

inline loom::Buffer<float> bilateral_grid_reference(const loom::Buffer<float> &in, int s,
                                                    float r_sigma) {
    const int W = in.width(), H = in.height();
    const float inv_r = 1.0f / r_sigma;
    // Cells [-3, n + 3] in x and y and bins [-3, top + 3] in z, with n and
    // top the largest cell and bin the slice reads.
    const int nx = (W - 1) / s + 1, ny = (H - 1) / s + 1, nz = int(inv_r) + 1;
    const int M = 3, GX = nx + 1 + 2 * M, GY = ny + 1 + 2 * M, GZ = nz + 1 + 2 * M;
    auto cell = [&](int gx, int gy, int gz, int c) {
        return ((size_t(gy + M) * size_t(GX) + size_t(gx + M)) * size_t(GZ) + size_t(gz + M)) * 2 +
               size_t(c);
    };
    std::vector<float> grid(size_t(GX) * size_t(GY) * size_t(GZ) * 2, 0.0f), tmp(grid.size());
    auto pixel = [&](int x, int y) {
        return std::clamp(in(std::clamp(x, 0, W - 1), std::clamp(y, 0, H - 1)), 0.0f, 1.0f);
    };
    for (int gy = -M; gy < GY - M; gy++)
        for (int gx = -M; gx < GX - M; gx++)
            for (int j = 0; j < s; j++)
                for (int i = 0; i < s; i++) {
                    float v = pixel(gx * s + i - s / 2, gy * s + j - s / 2);
                    int bin = int(v * inv_r + 0.5f);
                    grid[cell(gx, gy, bin, 0)] += v;
                    grid[cell(gx, gy, bin, 1)] += 1.0f;
                }
    // One [1 4 6 4 1] pass along axis (0: x, 1: y, 2: z) from src to dst,
    // over the cells whose neighbours along it are in the box.
    const float taps[5] = {1, 4, 6, 4, 1};
    auto blur = [&](const std::vector<float> &src, std::vector<float> &dst, int axis) {
        std::fill(dst.begin(), dst.end(), 0.0f);
        auto lo = [&](int a) { return axis == a ? -M + 2 : -M; };
        auto hi = [&](int a, int extent) { return axis == a ? extent - M - 2 : extent - M; };
        for (int gy = lo(1); gy < hi(1, GY); gy++)
            for (int gx = lo(0); gx < hi(0, GX); gx++)
                for (int gz = lo(2); gz < hi(2, GZ); gz++)
                    for (int c = 0; c < 2; c++) {
                        float sum = 0;
                        for (int k = -2; k <= 2; k++)
                            sum += taps[k + 2] *
                                   src[cell(gx + (axis == 0 ? k : 0), gy + (axis == 1 ? k : 0),
                                            gz + (axis == 2 ? k : 0), c)];
                        dst[cell(gx, gy, gz, c)] = sum;
                    }
    };
    blur(grid, tmp, 2);
    blur(tmp, grid, 0);
    blur(grid, tmp, 1);
    const std::vector<float> &blurred = tmp;

    loom::Buffer<float> out(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float zv = pixel(x, y) * inv_r;
            int zi = int(zv);
            float fz = zv - float(zi), fx = float(x % s) / float(s), fy = float(y % s) / float(s);
            float value[2];
            for (int c = 0; c < 2; c++) {
                float acc = 0;
                for (int dz = 0; dz < 2; dz++)
                    for (int dy = 0; dy < 2; dy++)
                        for (int dx = 0; dx < 2; dx++) {
                            float w = (dx ? fx : 1 - fx) * (dy ? fy : 1 - fy) * (dz ? fz : 1 - fz);
                            acc += w * blurred[cell(x / s + dx, y / s + dy, zi + dz, c)];
                        }
                value[c] = acc;
            }
            out(x, y) = value[0] / value[1];
        }
    return out;
}

} // namespace loom_apps

#endif
