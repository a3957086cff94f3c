// Pipeline shapes shared by the randomized schedule tests (CPU:
// test/correctness/random_schedules.cpp, GPU: test/gpu/gpu_random_schedules.cpp):
// each an algorithm over an int input image and its plain C++ reference.
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "Loom.h"

namespace loom_test {

using loom::Buffer;
using loom::Expr;
using loom::Func;
using loom::Var;
namespace BoundaryConditions = loom::BoundaryConditions;

inline int floordiv(int a, int b) {
    int q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

inline int clampi(int v, int lo, int hi) {
    return std::min(std::max(v, lo), hi);
}

/** The input read through repeat_edge (inputs start at 0). */
inline int edge(const Buffer<int> &in, int i, int j) {
    return in(clampi(i, 0, in.dim(0).extent() - 1), clampi(j, 0, in.dim(1).extent() - 1));
}

/** Funcs listed producers first, the output last; `consumers[i]` lists the
 * Funcs that call Func i directly. */
struct PipelineShape {
    std::string name;
    std::function<std::vector<Func>(const Buffer<int> &)> build;
    std::vector<std::vector<int>> consumers;
    std::function<int(const Buffer<int> &, int, int)> reference;
};

inline PipelineShape stencil_chain() {
    return {"stencil_chain",
            [](const Buffer<int> &in) {
                Var x("x"), y("y");
                Func bnd = BoundaryConditions::repeat_edge(in);
                Func s1("s1"), s2("s2"), out("out");
                Expr sum = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) sum = sum + bnd(x + dx, y + dy);
                s1(x, y) = sum;
                s2(x, y) = s1(x - 1, y - 1) + 2 * s1(x, y) + s1(x + 1, y + 1) + s1(x + 1, y - 1);
                out(x, y) = (s2(x, y - 1) + s2(x, y + 1) + s2(x - 1, y) + s2(x + 1, y)) / 4;
                return std::vector<Func>{bnd, s1, s2, out};
            },
            {{1}, {2}, {3}, {}},
            [](const Buffer<int> &in, int i, int j) {
                auto s1 = [&](int a, int b) {
                    int s = 0;
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) s += edge(in, a + dx, b + dy);
                    return s;
                };
                auto s2 = [&](int a, int b) {
                    return s1(a - 1, b - 1) + 2 * s1(a, b) + s1(a + 1, b + 1) + s1(a + 1, b - 1);
                };
                return (s2(i, j - 1) + s2(i, j + 1) + s2(i - 1, j) + s2(i + 1, j)) / 4;
            }};
}

inline PipelineShape pointwise_chain() {
    return {"pointwise_chain",
            [](const Buffer<int> &) {
                Var x("x"), y("y");
                Func src("src"), p1("p1"), p2("p2"), p3("p3"), out("out");
                src(x, y) = (x * 7 + y * 13) % 256;
                p1(x, y) = src(x, y) * 3 + 1;
                p2(x, y) = p1(x, y) % 97 + x;
                p3(x, y) = p2(x, y) * p2(x, y) - p1(x, y);
                out(x, y) = p3(x, y) + p1(x, y) / 2 - y;
                return std::vector<Func>{src, p1, p2, p3, out};
            },
            {{1}, {2, 3, 4}, {3}, {4}, {}},
            [](const Buffer<int> &, int i, int j) {
                int src = (i * 7 + j * 13) % 256;
                int p1 = src * 3 + 1;
                int p2 = p1 % 97 + i;
                int p3 = p2 * p2 - p1;
                return p3 + p1 / 2 - j;
            }};
}

inline PipelineShape down_up() {
    return {"down_up",
            [](const Buffer<int> &in) {
                Var x("x"), y("y");
                Func bnd = BoundaryConditions::repeat_edge(in);
                Func down("down"), up("up"), out("out");
                down(x, y) = (bnd(2 * x, 2 * y) + bnd(2 * x + 1, 2 * y) + bnd(2 * x, 2 * y + 1) +
                              bnd(2 * x + 1, 2 * y + 1)) /
                             4;
                up(x, y) = (3 * down(x / 2, y / 2) + down((x + 1) / 2, (y + 1) / 2)) / 4;
                out(x, y) = 2 * up(x, y) - bnd(x, y) + up(x - 1, y);
                return std::vector<Func>{bnd, down, up, out};
            },
            {{1, 3}, {2}, {3}, {}},
            [](const Buffer<int> &in, int i, int j) {
                auto down = [&](int a, int b) {
                    return (edge(in, 2 * a, 2 * b) + edge(in, 2 * a + 1, 2 * b) +
                            edge(in, 2 * a, 2 * b + 1) + edge(in, 2 * a + 1, 2 * b + 1)) /
                           4;
                };
                auto up = [&](int a, int b) {
                    return floordiv(3 * down(floordiv(a, 2), floordiv(b, 2)) +
                                        down(floordiv(a + 1, 2), floordiv(b + 1, 2)),
                                    4);
                };
                return 2 * up(i, j) - edge(in, i, j) + up(i - 1, j);
            }};
}

inline PipelineShape separable_blur() {
    return {"separable_blur",
            [](const Buffer<int> &in) {
                Var x("x"), y("y");
                Func bnd = BoundaryConditions::repeat_edge(in);
                Func bx("blur_x"), by("blur_y"), out("out");
                bx(x, y) = bnd(x - 1, y) + 2 * bnd(x, y) + bnd(x + 1, y);
                by(x, y) = bx(x, y - 1) + 2 * bx(x, y) + bx(x, y + 1);
                out(x, y) = by(x, y) / 16;
                return std::vector<Func>{bnd, bx, by, out};
            },
            {{1}, {2}, {3}, {}},
            [](const Buffer<int> &in, int i, int j) {
                auto bx = [&](int a, int b) {
                    return edge(in, a - 1, b) + 2 * edge(in, a, b) + edge(in, a + 1, b);
                };
                return (bx(i, j - 1) + 2 * bx(i, j) + bx(i, j + 1)) / 16;
            }};
}

inline PipelineShape multi_consumer_dag() {
    return {"multi_consumer_dag",
            [](const Buffer<int> &in) {
                Var x("x"), y("y");
                Func bnd = BoundaryConditions::repeat_edge(in);
                Func a("a"), b("b"), c("c"), out("out");
                a(x, y) = bnd(x, y) * 2 + 1;
                b(x, y) = a(x - 1, y) + a(x + 1, y);
                c(x, y) = a(x, y - 1) * 2 - a(x, y + 2);
                out(x, y) = b(x, y) * c(x, y) + a(x, y);
                return std::vector<Func>{bnd, a, b, c, out};
            },
            {{1}, {2, 3, 4}, {4}, {4}, {}},
            [](const Buffer<int> &in, int i, int j) {
                auto a = [&](int p, int q) { return edge(in, p, q) * 2 + 1; };
                int b = a(i - 1, j) + a(i + 1, j);
                int c = a(i, j - 1) * 2 - a(i, j + 2);
                return b * c + a(i, j);
            }};
}

} // namespace loom_test
