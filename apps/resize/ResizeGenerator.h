#ifndef LOOM_APPS_RESIZE_GENERATOR_H
#define LOOM_APPS_RESIZE_GENERATOR_H

// Resampling of a planar float image by a scale factor (up or down) with a
// separable bicubic (Keys, a = -0.5) or Lanczos-3 kernel. Output pixel x
// is centred on input coordinate (x + 0.5) / scale - 0.5; when shrinking,
// the kernel is stretched by 1 / scale so that it also filters out what
// the smaller image cannot hold. Each output pixel's weights are divided
// by their sum. Rows are resized first (into a buffer of output columns
// and input rows), then columns. Edges repeat.

// perf_apps' Halide side includes this header with Halide's names (apps/bench).
#ifndef LOOM_APP_HALIDE_SIDE
#include "Loom.h"
#endif

enum class ResizeKernel { Cubic, Lanczos };

class ResizeGenerator : public loom::Generator<ResizeGenerator> {
public:
    GeneratorParam<ResizeKernel> kernel{
        "kernel",
        ResizeKernel::Cubic,
        {{"cubic", ResizeKernel::Cubic}, {"lanczos", ResizeKernel::Lanczos}}};
    /** Output rows per parallel task. */
    GeneratorParam<int> rows_per_task{"rows_per_task", 32, 1, 1024};
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};

    Input<loom::Buffer<float, 3>> input{"input"};
    /** Output size over input size, in both dimensions. */
    Input<float> scale{"scale", 1.0f, 0.05f, 16.0f};
    Output<loom::Buffer<float, 3>> output{"output"};

    loom::Var x{"x"}, y{"y"}, c{"c"}, k{"k"}, yo{"yo"}, yi{"yi"};
    /** Normalized weights of output column x (row y) for tap k. */
    loom::Func weight_x{"weight_x"}, weight_y{"weight_y"};
    loom::Func resized_x{"resized_x"}, resized_y{"resized_y"};
    loom::RDom tap;

    void generate() {
        using loom::cast;
        using loom::Expr;
        using loom::Func;
        const float radius = kernel == ResizeKernel::Cubic ? 2.0f : 3.0f;
        Expr kernel_scale = loom::min(scale, 1.0f);
        Expr support = radius / kernel_scale;
        Expr taps = cast<int>(loom::ceil(2.0f * support));
        tap = loom::RDom(0, taps, "tap");

        auto center = [&](Expr v) { return (cast<float>(v) + 0.5f) / scale - 0.5f; };
        auto first_tap = [&](Expr v) { return cast<int>(loom::floor(center(v) - support)) + 1; };
        auto weights = [&](Func &normalized, const std::string &name) {
            Func raw(name + "_raw"), total(name + "_sum");
            raw(x, k) = kernel_at((cast<float>(first_tap(x) + k) - center(x)) * kernel_scale);
            total(x) = 0.0f;
            total(x) += raw(x, tap);
            normalized(x, k) = raw(x, k) / total(x);
        };
        weights(weight_x, "weight_x");
        weights(weight_y, "weight_y");

        Func clamped = loom::BoundaryConditions::repeat_edge(input);
        resized_x(x, y, c) = 0.0f;
        resized_x(x, y, c) += weight_x(x, tap) * clamped(first_tap(x) + tap, y, c);
        resized_y(x, y, c) = 0.0f;
        resized_y(x, y, c) += weight_y(y, tap) * resized_x(x, first_tap(y) + tap, c);
        output(x, y, c) = resized_y(x, y, c);
    }

    void schedule() {
        // The benchmark's sizes (a 1.6x enlargement), for auto-schedulers
        // (set here so that the algorithm in generate() stays free of them).
        input.set_estimates({{0, 1501}, {0, 1001}, {0, 3}});
        scale.set_estimate(1.6f);
        output.set_estimates({{0, 2401}, {0, 1601}, {0, 3}});
        if (using_autoscheduler()) return;
        // The weights are tables over output columns (rows) and taps. A
        // task per strip of output rows, all channels: the row pass for
        // the input rows the strip reads (a gather along x), then the
        // column pass one output row at a time (contiguous loads), both
        // vectorized along x.
        weight_x.compute_root();
        weight_y.compute_root();
        output.split(y, yo, yi, rows_per_task)
            .reorder(x, yi, c, yo)
            .parallel(yo)
            .vectorize(x, vector_width);
        resized_x.compute_at(output, yo).vectorize(x, vector_width);
        resized_x.update().reorder(x, tap, y, c).vectorize(x, vector_width);
        resized_y.compute_at(output, yi).vectorize(x, vector_width);
        resized_y.update().reorder(x, tap).vectorize(x, vector_width);
    }

private:
    /** The kernel's value at t input pixels from the centre (0 beyond its radius). */
    loom::Expr kernel_at(loom::Expr t) {
        using loom::select;
        loom::Expr a = loom::abs(t);
        if (kernel == ResizeKernel::Cubic)
            return select(a < 1.0f, (1.5f * a - 2.5f) * a * a + 1.0f, a < 2.0f,
                          ((-0.5f * a + 2.5f) * a - 4.0f) * a + 2.0f, 0.0f);
        const float pi = 3.14159265358979f;
        loom::Expr pa = pi * a;
        return select(a < 1e-6f, 1.0f, a < 3.0f,
                      3.0f * loom::sin(pa) * loom::sin(pa / 3.0f) / (pa * pa), 0.0f);
    }
};

#endif
