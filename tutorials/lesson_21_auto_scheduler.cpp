// Lesson 21: letting Loom choose the schedule.
//
// Writing a good schedule is the hard part of a Loom program. Loom can
// choose one for you in two ways:
//
//  - the auto-scheduler, Pipeline::apply_autoscheduler: a few rules of thumb
//    (inline cheap stages, compute stencils per strip of rows, vectorize,
//    parallelize) applied in a few milliseconds, for the real output sizes;
//  - the autotuner, loom::autotune: starts from the auto-scheduler's choice,
//    compiles and times variants of it on your buffers, and keeps the
//    fastest. It caches the winner on disk, so the next run of the same
//    pipeline costs no tuning at all.
//
// Either way the result is an ordinary schedule: print it as C++, read it,
// and paste it into your program to make it permanent.

#include <Loom.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

using namespace loom;

namespace {

bool ok = true;

void expect(const char *what, bool good) {
    std::printf("%s: %s\n", what, good ? "correct" : "WRONG");
    if (!good) ok = false;
}

/** A 3x3 blur of an image and a sharpening of it by that blur. */
struct Sharpen {
    Var x{"x"}, y{"y"};
    Func blur_x{"blur_x"}, blur_y{"blur_y"}, sharp{"sharp"};
    explicit Sharpen(const Buffer<float> &in) {
        Func clamped = BoundaryConditions::repeat_edge(in);
        blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3;
        blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
        sharp(x, y) = 2 * clamped(x, y) - blur_y(x, y);
    }
};

bool same(const Buffer<float> &a, const Buffer<float> &b) {
    for (int y = 0; y < a.height(); y++)
        for (int x = 0; x < a.width(); x++)
            if (std::abs(a(x, y) - b(x, y)) > 1e-4f) return false;
    return true;
}

} // namespace

int main() {
    const int W = 640, H = 480;
    Buffer<float> in(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in(x, y) = float((x * 7 + y * 3) % 256) / 255;

    // The default schedule (everything inlined into one loop nest) as a reference.
    Buffer<float> reference = Sharpen(in).sharp.realize({W, H});

    // 1. The auto-scheduler. "Loom" is the built-in one (and the default).
    {
        Sharpen s(in);
        Pipeline p(s.sharp);
        AutoSchedulerResults r = p.apply_autoscheduler({W, H}, get_jit_target_from_environment(),
                                                       AutoschedulerParams("Loom"));
        std::printf("The auto-scheduler chose, in %.1f ms:\n%s", r.seconds * 1000,
                    r.schedule_source.c_str());
        Buffer<float> out = p.realize({W, H});
        expect("auto-scheduled result", same(out, reference));
    }

    // 2. The autotuner: a short search (a few seconds here; give it a minute
    // on real pipelines). The second call finds the winner in the cache.
    {
        AutotuneOptions options;
        options.budget_seconds = 10;
        options.max_trials = 12;
        options.cache_dir = "lesson_21_tuning_cache";
        std::filesystem::remove_all(options.cache_dir);
        Sharpen s(in);
        AutotuneResult r = autotune(Pipeline(s.sharp), {W, H}, options);
        std::printf("The autotuner tried %d schedules in %.1f s: %.3f ms (the auto-scheduler's: "
                    "%.3f ms). It chose:\n%s",
                    r.trials, r.tuning_seconds, r.best_ms, r.baseline_ms,
                    r.schedule_source.c_str());
        expect("tuned result", same(s.sharp.realize({W, H}), reference));

        Sharpen again(in);
        AutotuneResult cached = autotune(Pipeline(again.sharp), {W, H}, options);
        expect("second tuning run answered by the cache",
               cached.from_cache && cached.trials == 0 && cached.schedule == r.schedule);

        // 3. Paste it back. The printed schedule is C++ for these Funcs and
        // Vars; here it is read back at run time, which is what pasting
        // it into the source and recompiling would do.
        Sharpen pasted(in);
        PipelineSchedule::apply_source(Pipeline(pasted.sharp), r.schedule_source);
        expect("pasted schedule is the tuned one",
               PipelineSchedule::of(Pipeline(pasted.sharp)).to_cpp() == r.schedule_source);
        expect("pasted result", same(pasted.sharp.realize({W, H}), reference));

        // Schedules are values: save one as JSON, load it in another program.
        r.schedule.save("lesson_21_schedule.json");
        Sharpen loaded(in);
        PipelineSchedule::load("lesson_21_schedule.json").apply(Pipeline(loaded.sharp));
        expect("loaded schedule", same(loaded.sharp.realize({W, H}), reference));
        std::filesystem::remove_all(options.cache_dir);
    }

    std::printf(ok ? "Success!\n" : "FAILED\n");
    return ok ? 0 : 1;
}
