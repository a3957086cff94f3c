// Lesson 8: scheduling multi-stage pipelines.
//
// producer(x, y) = sin(x * y) and consumer averages a 2x2 block of it. Where
// producer is computed (compute_at) and where its buffer lives (store_at)
// trade redundant work against locality and memory. Every schedule computes
// the same consumer; each section checks it against plain C++.

#include <Loom.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace {

bool ok = true;

float reference(int x, int y) {
    auto p = [](int i, int j) { return std::sin(float(i * j)); };
    return (p(x, y) + p(x, y + 1) + p(x + 1, y) + p(x + 1, y + 1)) / 4;
}

void run(const char *what, loom::Func consumer, int w, int h) {
    std::printf("==== %s\n", what);
    consumer.print_loop_nest();
    loom::Buffer<float> out = consumer.realize({w, h});
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float want = reference(x, y);
            if (std::fabs(out(x, y) - want) > 1e-4f) {
                std::printf("%s: consumer(%d, %d) = %f instead of %f\n", what, x, y, out(x, y),
                            want);
                ok = false;
                return;
            }
        }
}

struct Pipeline2 {
    loom::Func producer, consumer;
    Pipeline2(const std::string &name)
        : producer(name + "_producer"), consumer(name + "_consumer") {
        loom::Var x("x"), y("y");
        producer(x, y) = loom::sin(loom::cast<float>(x * y));
        consumer(x, y) =
            (producer(x, y) + producer(x, y + 1) + producer(x + 1, y) + producer(x + 1, y + 1)) / 4;
    }
};

} // namespace

int main() {
    loom::Var x("x"), y("y");
    const int W = 37, H = 29; // no schedule factor divides these

    // Inlined (the default): 4 sin calls per output pixel, no buffer.
    {
        Pipeline2 p("inline");
        run("producer inlined", p.consumer, W, H);
    }

    // At root: all of producer first, (W+1) x (H+1) sin calls, a whole
    // buffer, then the consumer reads it back, long after it was written.
    {
        Pipeline2 p("root");
        p.producer.compute_root();
        run("producer at root", p.consumer, W, H);
    }

    // At each row of the consumer: the two producer rows that row needs are
    // computed just before it, into a 2-row buffer. Better locality, but each
    // producer row is computed twice (once for each consumer row using it).
    {
        Pipeline2 p("at_y");
        p.producer.compute_at(p.consumer, y);
        run("producer computed at consumer y", p.consumer, W, H);
    }

    // Stored at root, computed per row: the buffer outlives the row loop, so
    // rows computed for consumer row y are still there for row y + 1. Loom
    // then computes only the one new row each iteration (sliding window) and
    // can fold the storage into a circular buffer of 2 rows.
    {
        Pipeline2 p("sliding");
        p.producer.store_root().compute_at(p.consumer, y);
        run("producer stored at root, computed at y (sliding window)", p.consumer, W, H);
    }

    // The same one level further in: per consumer pixel, reusing the column
    // computed for the previous pixel.
    {
        Pipeline2 p("sliding_x");
        p.producer.store_root().compute_at(p.consumer, x);
        run("producer stored at root, computed at x", p.consumer, W, H);
    }

    // Tiles: the consumer walks 4x4 tiles, and producer computes the 5x5
    // region each tile needs just before it.
    {
        Pipeline2 p("tiled");
        loom::Var x_outer("x_outer"), y_outer("y_outer"), x_inner("x_inner"), y_inner("y_inner");
        p.consumer.tile(x, y, x_outer, y_outer, x_inner, y_inner, 4, 4);
        p.producer.compute_at(p.consumer, x_outer);
        run("producer computed per 4x4 tile", p.consumer, W, H);
    }

    // A mix: strips of 8 rows in parallel; within a strip the producer is
    // stored per strip and computed per row (sliding window within the strip),
    // both vectorized.
    {
        Pipeline2 p("mixed");
        loom::Var yo("yo"), yi("yi");
        p.consumer.split(y, yo, yi, 8).parallel(yo).vectorize(x, 4);
        p.producer.store_at(p.consumer, yo).compute_at(p.consumer, yi).vectorize(x, 4);
        run("parallel strips, sliding window per strip, vectorized", p.consumer, W, H);
    }

    if (!ok) return 1;
    std::printf("Success!\n");
    return 0;
}
