// Lesson 18: parallel reductions with rfactor and atomic().
//
// An update's RVar loops run serially by default, because two iterations
// may update the same element: parallelizing them is a race, and Loom says
// so. Two ways out:
//
//   rfactor(r.y, u): for associative, commutative updates (+, *, min, max,
//   &&, ||, argmin/argmax), compute partial results in an intermediate Func
//   over a new pure Var u (one partial result per value of r.y) - which can
//   be parallel over u - and then merge them. Split r.y into blocks first
//   and factor over the block index: a few large tasks and a small
//   intermediate beat one tiny task and one partial result per row.
//
//   atomic(): make every read-modify-write of the update atomic, so the
//   RVar loop may be parallel directly.

#include <Loom.h>

#include <cstdio>
#include <vector>

using namespace loom;

namespace {

bool ok = true;

void expect(const char *what, bool good) {
    std::printf("%s: %s\n", what, good ? "correct" : "WRONG");
    if (!good) ok = false;
}

} // namespace

int main() {
    Buffer<uint8_t> image(640, 480);
    for (int j = 0; j < 480; j++)
        for (int i = 0; i < 640; i++) image(i, j) = uint8_t((i * 31 + j * 17 + (i * j) % 7) & 255);
    std::vector<int> ref(256, 0);
    for (int j = 0; j < 480; j++)
        for (int i = 0; i < 640; i++) ref[image(i, j)]++;
    auto matches = [&](const Buffer<int> &h) {
        for (int b = 0; b < 256; b++)
            if (h(b) != ref[size_t(b)]) return false;
        return true;
    };
    Var x("x"), u("u");
    RDom r(0, image.width(), 0, image.height());

    // 1. Serial: the reference schedule.
    {
        Func hist("hist_serial");
        hist(x) = 0;
        hist(image(r.x, r.y)) += 1;
        expect("serial histogram", matches(hist.realize({256})));

        // Parallelizing r.y directly is refused:
        hist.update(0).parallel(r.y);
        try {
            hist.realize({256});
            expect("the race is reported", false);
        } catch (const CompileError &e) {
            std::printf("as expected: %s\n", e.what());
        }
    }

    // 2. rfactor: one partial histogram per row, rows in parallel, then a
    // merge over the rows (vectorized across bins).
    {
        Func hist("hist_rfactor");
        hist(x) = 0;
        hist(image(r.x, r.y)) += 1;
        Func partial = hist.update(0).rfactor(r.y, u);
        partial.compute_root().update(0).parallel(u);
        hist.update(0).vectorize(x, 8);
        expect("rfactor histogram", matches(hist.realize({256})));
    }

    // 2b. The faster form: split the rows into blocks of 64 and factor over
    // the block index ro. Each parallel task now counts 64 rows into its own
    // partial histogram, and the merge adds 8 partial histograms instead of
    // 480. 64 does not divide 480: the last block skips the missing rows.
    {
        Func hist("hist_blocks");
        RVar ro("ro"), ri("ri");
        hist(x) = 0;
        hist(image(r.x, r.y)) += 1;
        hist.update(0).split(r.y, ro, ri, 64);
        Func partial = hist.update(0).rfactor(ro, u);
        partial.compute_root().vectorize(x, 8).update(0).parallel(u);
        hist.update(0).vectorize(x, 8);
        expect("rfactor histogram over blocks of rows", matches(hist.realize({256})));
    }

    // 3. atomic(): the updates to the bins are atomic adds.
    {
        Func hist("hist_atomic");
        hist(x) = 0;
        hist(image(r.x, r.y)) += 1;
        hist.update(0).atomic().parallel(r.y);
        expect("atomic histogram", matches(hist.realize({256})));
    }

    // 4. rfactor of a plain sum over a 1-D RDom: split it, then factor
    // over the outer part (one partial sum per block of 4096 pixels).
    {
        Func total("total");
        RDom s(0, 640 * 480);
        RVar so("so"), si("si");
        total() = 0;
        total() += cast<int>(image(s % 640, s / 640));
        total.update(0).split(s, so, si, 4096);
        total.update(0).rfactor(so, u).compute_root().update(0).parallel(u);
        long want = 0;
        for (int j = 0; j < 480; j++)
            for (int i = 0; i < 640; i++) want += image(i, j);
        expect("rfactor sum", Buffer<int>(total.realize())() == want);
    }

    std::printf(ok ? "Success!\n" : "Lesson 18 FAILED\n");
    return ok ? 0 : 1;
}
