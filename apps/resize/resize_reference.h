#ifndef LOOM_APPS_RESIZE_REFERENCE_H
#define LOOM_APPS_RESIZE_REFERENCE_H

// Plain C++ resampling to check the generated library against: per output
// pixel, the taps and weights of its column and row found anew (double
// precision), then a row pass into a whole intermediate image and a column
// pass, with clamped reads.

#include <algorithm>
#include <cmath>
#include <vector>

#include "loom/Buffer.h"

namespace loom_apps {

enum class ResizeFilter { Cubic, Lanczos };

/** The filter's value at distance t (in units of the filter's own scale). */
inline double resize_filter(ResizeFilter f, double t) {
    t = std::fabs(t);
    if (f == ResizeFilter::Cubic) {
        // Keys' cubic convolution with a = -1/2.
        if (t < 1) return 1.5 * t * t * t - 2.5 * t * t + 1;
        if (t < 2) return -0.5 * t * t * t + 2.5 * t * t - 4 * t + 2;
        return 0;
    }
    if (t < 1e-9) return 1;
    if (t >= 3) return 0;
    const double pi = 3.14159265358979323846;
    return std::sin(pi * t) / (pi * t) * std::sin(pi * t / 3) / (pi * t / 3);
}

/** The taps of one output coordinate: the first input index and its weights. */
struct ResizeTaps {
    int first = 0;
    std::vector<double> weights;
};

inline ResizeTaps resize_taps(ResizeFilter f, float scale, int out) {
    const double radius = f == ResizeFilter::Cubic ? 2 : 3;
    const double stretch = std::min(double(scale), 1.0); // filter scale when shrinking
    const double reach = radius / stretch;
    const double centre = (out + 0.5) / double(scale) - 0.5;
    ResizeTaps taps;
    taps.first = int(std::floor(centre - reach)) + 1;
    double total = 0;
    for (int i = taps.first; i < centre + reach; i++) {
        taps.weights.push_back(resize_filter(f, (i - centre) * stretch));
        total += taps.weights.back();
    }
    for (double &w : taps.weights) w /= total;
    return taps;
}

inline loom::Buffer<float> resize_reference(const loom::Buffer<float> &in, ResizeFilter f,
                                            float scale, int out_w, int out_h) {
    const int W = in.width(), H = in.height(), C = in.channels();
    std::vector<double> rows(size_t(out_w) * size_t(H) * size_t(C));
    for (int x = 0; x < out_w; x++) {
        ResizeTaps t = resize_taps(f, scale, x);
        for (int c = 0; c < C; c++)
            for (int y = 0; y < H; y++) {
                double v = 0;
                for (size_t k = 0; k < t.weights.size(); k++)
                    v += t.weights[k] * in(std::clamp(t.first + int(k), 0, W - 1), y, c);
                rows[(size_t(c) * size_t(H) + size_t(y)) * size_t(out_w) + size_t(x)] = v;
            }
    }
    loom::Buffer<float> out(out_w, out_h, C);
    for (int y = 0; y < out_h; y++) {
        ResizeTaps t = resize_taps(f, scale, y);
        for (int c = 0; c < C; c++)
            for (int x = 0; x < out_w; x++) {
                double v = 0;
                for (size_t k = 0; k < t.weights.size(); k++) {
                    int sy = std::clamp(t.first + int(k), 0, H - 1);
                    v += t.weights[k] *
                         rows[(size_t(c) * size_t(H) + size_t(sy)) * size_t(out_w) + size_t(x)];
                }
                out(x, y, c) = float(v);
            }
    }
    return out;
}

} // namespace loom_apps

#endif
