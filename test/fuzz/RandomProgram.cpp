#include "RandomProgram.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include "autoschedule/ScheduleUtil.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"

namespace loom_fuzz {

using namespace loom;

namespace {

const std::vector<Type> &fuzz_types() {
    static const std::vector<Type> types = {Int(32), UInt(8), UInt(16), Float(32)};
    return types;
}

std::string type_name(Type t) {
    if (t.is_float()) return "float";
    if (t.is_int()) return "int32_t";
    return t.bits == 8 ? "uint8_t" : "uint16_t";
}

Expr constant_of(FuzzInput &in, Type t) {
    if (t.is_float()) {
        static const std::vector<float> special = {0.0f,  -0.0f, 1.0f,   -1.0f,  0.5f,
                                                   3.25f, 1e10f, -1e10f, 255.0f, 65536.0f};
        if (in.chance(30)) return Expr(in.pick(special));
        return Expr(float(in.range(-64, 64)) / 4.0f);
    }
    if (t.is_int()) {
        static const std::vector<int> special = {INT_MAX, INT_MIN, -1, 0, 1, 65535, 256};
        int v = in.chance(10) ? in.pick(special) : in.range(-20, 20);
        return Internal::make_const(t, int64_t(v));
    }
    int64_t max = (int64_t(1) << t.bits) - 1;
    int64_t v = in.chance(40) ? in.range(0, int(max)) : in.range(0, 12);
    return Internal::make_const(t, uint64_t(v));
}

struct Built {
    Expr real, ref;
};

template <typename F> Built apply2(const Built &a, const Built &b, F f) {
    return {f(a.real, b.real), f(a.ref, b.ref)};
}

template <typename F> Built apply1(const Built &a, F f) {
    return {f(a.real), f(a.ref)};
}

Built same(const Expr &e) {
    return {e, e};
}

// Builds one definition's expression: Loom's Expr and the reference Expr side
// by side, from the same decisions.
class ExprBuilder {
public:
    ExprBuilder(FuzzInput &in, Program &p, int callable, Definition &def, std::vector<Expr> coords,
                Expr base_x, Expr base_y, Expr self_real, Type self_type, int &scale_budget)
        : in(in), p(p), callable(callable), def(def), coords(std::move(coords)), bx(base_x),
          by(base_y), self_real(self_real), self_type(self_type), scale_budget(scale_budget) {}

    Built gen(Type t, int depth) {
        int k = depth <= 0 ? in.range(0, 3) : in.range(0, 17);
        switch (k) {
        case 0:
            return same(constant_of(in, t));
        case 1:
            return same(cast(t, in.pick(coords)));
        case 2:
        case 3:
        case 16:
            return convert(t, call(depth - 1));
        case 4:
        case 5:
        case 6:
        case 7: {
            Built a = gen(t, depth - 1), b = gen(t, depth - 1);
            switch (in.range(0, 6)) {
            case 0:
                return apply2(a, b, [](Expr x, Expr y) { return x + y; });
            case 1:
                return apply2(a, b, [](Expr x, Expr y) { return x - y; });
            case 2:
                return apply2(a, b, [](Expr x, Expr y) { return x * y; });
            case 3:
                return apply2(a, b, [](Expr x, Expr y) { return x / y; });
            case 4:
                return apply2(a, b, [](Expr x, Expr y) { return x % y; });
            case 5:
                return apply2(a, b, [](Expr x, Expr y) { return min(x, y); });
            default:
                return apply2(a, b, [](Expr x, Expr y) { return max(x, y); });
            }
        }
        case 8: {
            Built c = condition(depth - 1);
            Built a = gen(t, depth - 1), b = gen(t, depth - 1);
            return {select(c.real, a.real, b.real), select(c.ref, a.ref, b.ref)};
        }
        case 9: {
            Type from = in.pick(fuzz_types());
            return convert(t, gen(from, depth - 1));
        }
        case 10: {
            if (t.is_float()) break;
            Built a = gen(t, depth - 1);
            Built amount = in.chance(20)
                               ? gen(t, depth - 1)
                               : same(Internal::make_const(t, int64_t(in.range(0, t.bits - 1))));
            if (in.chance(50)) return apply2(a, amount, [](Expr x, Expr y) { return x << y; });
            return apply2(a, amount, [](Expr x, Expr y) { return x >> y; });
        }
        case 11: {
            if (t.is_float()) break;
            Built a = gen(t, depth - 1), b = gen(t, depth - 1);
            switch (in.range(0, 3)) {
            case 0:
                return apply2(a, b, [](Expr x, Expr y) { return x & y; });
            case 1:
                return apply2(a, b, [](Expr x, Expr y) { return x | y; });
            case 2:
                return apply2(a, b, [](Expr x, Expr y) { return x ^ y; });
            default:
                return apply1(a, [](Expr x) { return ~x; });
            }
        }
        case 12: {
            Built a = gen(t, depth - 1);
            if (in.chance(50)) return convert(t, apply1(a, [](Expr x) { return abs(x); }));
            Built b = gen(t, depth - 1);
            return convert(t, apply2(a, b, [](Expr x, Expr y) { return absd(x, y); }));
        }
        case 13: {
            Built a = gen(t, depth - 1);
            Expr lo = constant_of(in, t), hi = constant_of(in, t);
            return apply1(a, [&](Expr x) { return clamp(x, lo, hi); });
        }
        case 14:
            return convert(t, condition(depth - 1));
        case 15:
        case 17:
            if (self_real.defined()) {
                return convert(t, {self_real, Internal::Variable::make(self_type, "self")});
            }
            break;
        default:
            break;
        }
        return convert(t, call(depth - 1));
    }

    Built condition(int depth) {
        int k = depth <= 0 ? 0 : in.range(0, 9);
        if (k == 7) {
            Built a = condition(depth - 1), b = condition(depth - 1);
            return apply2(a, b, [](Expr x, Expr y) { return x && y; });
        }
        if (k == 8) {
            Built a = condition(depth - 1), b = condition(depth - 1);
            return apply2(a, b, [](Expr x, Expr y) { return x || y; });
        }
        if (k == 9) return apply1(condition(depth - 1), [](Expr x) { return !x; });
        Type t = in.pick(fuzz_types());
        Built a = gen(t, depth), b = gen(t, depth);
        switch (in.range(0, 5)) {
        case 0:
            return apply2(a, b, [](Expr x, Expr y) { return x < y; });
        case 1:
            return apply2(a, b, [](Expr x, Expr y) { return x <= y; });
        case 2:
            return apply2(a, b, [](Expr x, Expr y) { return x == y; });
        case 3:
            return apply2(a, b, [](Expr x, Expr y) { return x != y; });
        case 4:
            return apply2(a, b, [](Expr x, Expr y) { return x > y; });
        default:
            return apply2(a, b, [](Expr x, Expr y) { return x >= y; });
        }
    }

private:
    FuzzInput &in;
    Program &p;
    int callable;
    Definition &def;
    std::vector<Expr> coords;
    Expr bx, by, self_real;
    Type self_type;
    int &scale_budget;

    static Built convert(Type t, const Built &b) {
        if (b.real.type() == t) return b;
        return apply1(b, [&](Expr x) { return cast(t, x); });
    }

    Expr offset() { return Expr(in.range(-2, 2)); }

    // The coordinates of one call.
    std::pair<Built, Built> indices(int depth) {
        int pattern = in.range(0, 8);
        // Data-dependent coordinates nest calls in calls: only while depth
        // is left (deep nests through an inlined boundary condition compile
        // in exponential time, a known issue: see fuzz_regressions.cpp).
        if (pattern == 5 && depth <= 0) pattern = 0;
        switch (pattern) {
        case 0:
        case 1:
        case 2:
            return {same(bx + offset()), same(by + offset())};
        case 3: // transposed
            return {same(by + offset()), same(bx + offset())};
        case 4: { // a coarser or finer grid in one dimension
            Expr &b = in.chance(50) ? bx : by;
            Expr scaled;
            if (scale_budget > 0 && in.chance(50)) {
                scale_budget--;
                scaled = 2 * b + in.range(0, 1);
            } else {
                scaled = b / 2 + offset();
            }
            return &b == &bx ? std::make_pair(same(scaled), same(by))
                             : std::make_pair(same(bx), same(scaled));
        }
        case 5: { // data-dependent, clamped to a constant range
            Built v = gen(in.pick(fuzz_types()), depth - 1);
            int lo = in.range(-4, 4), hi = lo + in.range(0, 20);
            Built i = apply1(v, [&](Expr e) { return clamp(cast<int>(e), lo, hi); });
            return in.chance(50) ? std::make_pair(i, same(by)) : std::make_pair(same(bx), i);
        }
        case 6: // a coordinate of the reduction, or a constant
            return {same(in.pick(coords) + offset()), same(by)};
        case 7:
            return {same(bx), same(Expr(in.range(-3, 3)))};
        default:
            return {same(bx), same(by)};
        }
    }

    Built call(int depth) {
        int stage = in.range(0, callable - 1);
        auto [ix, iy] = indices(depth);
        Expr real;
        Type t;
        if (stage == 0) {
            t = p.in_type;
            if (p.boundary == Boundary::None) {
                // A plain buffer read: keep the coordinates inside the input.
                int lx = p.in_min_x, hx = lx + p.in_w - 1;
                int ly = p.in_min_y, hy = ly + p.in_h - 1;
                ix = apply1(ix, [&](Expr e) { return clamp(e, lx, hx); });
                iy = apply1(iy, [&](Expr e) { return clamp(e, ly, hy); });
                real = p.input(ix.real, iy.real);
            } else {
                real = p.stages[0].func(ix.real, iy.real);
            }
        } else {
            t = p.stages[size_t(stage)].type;
            real = p.stages[size_t(stage)].func(ix.real, iy.real);
        }
        std::string var = "c" + std::to_string(def.calls.size());
        def.calls.push_back({stage, ix.ref, iy.ref, var});
        return {real, Internal::Variable::make(t, var)};
    }
};

void fill_input(Buffer<> &b, Type t, uint64_t seed) {
    SplitMix rng(seed);
    loom_buffer_t *raw = b.raw_buffer();
    int w = raw->dim[0].extent, h = raw->dim[1].extent;
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            uint8_t *at =
                raw->host +
                (int64_t(i) * raw->dim[0].stride + int64_t(j) * raw->dim[1].stride) * (t.bits / 8);
            if (t.is_float()) {
                float v = rng.range(0, 9) ? float(rng.range(-400, 400)) / 4.0f
                                          : float(int32_t(rng.next())) * 1e-3f;
                std::memcpy(at, &v, 4);
            } else if (t.is_int()) {
                int32_t v = rng.range(0, 9) ? rng.range(-100, 100) : int32_t(rng.next());
                std::memcpy(at, &v, 4);
            } else if (t.bits == 16) {
                uint16_t v = uint16_t(rng.next());
                std::memcpy(at, &v, 2);
            } else {
                *at = uint8_t(rng.next());
            }
        }
    }
}

const char *boundary_name(Boundary b) {
    switch (b) {
    case Boundary::None:
        return "none";
    case Boundary::RepeatEdge:
        return "repeat_edge";
    case Boundary::ConstantExterior:
        return "constant_exterior";
    case Boundary::MirrorImage:
        return "mirror_image";
    case Boundary::MirrorInterior:
        return "mirror_interior";
    case Boundary::RepeatImage:
        return "repeat_image";
    }
    return "?";
}

} // namespace

void decode_algorithm(FuzzInput &in, Program &p) {
    Var x("x"), y("y");
    p.in_type = in.pick(fuzz_types());
    p.in_w = in.range(1, 20);
    p.in_h = in.range(1, 20);
    if (in.chance(25)) {
        p.in_min_x = in.range(-5, 5);
        p.in_min_y = in.range(-5, 5);
    }
    p.boundary = Boundary(in.range(0, 5));
    p.input = Buffer<>(p.in_type, {p.in_w, p.in_h}, "input");
    p.input.set_min({p.in_min_x, p.in_min_y});
    uint32_t seed = in.u32();
    fill_input(p.input, p.in_type, seed);
    p.text << "Buffer<" << type_name(p.in_type) << "> input(" << p.in_w << ", " << p.in_h
           << "); input.set_min(" << p.in_min_x << ", " << p.in_min_y << "); // seed " << seed
           << "\n";

    Stage input_stage;
    input_stage.type = p.in_type;
    switch (p.boundary) {
    case Boundary::None:
        break;
    case Boundary::RepeatEdge:
        input_stage.func = BoundaryConditions::repeat_edge(p.input);
        break;
    case Boundary::ConstantExterior:
        p.exterior = constant_of(in, p.in_type);
        input_stage.func = BoundaryConditions::constant_exterior(p.input, p.exterior);
        break;
    case Boundary::MirrorImage:
        input_stage.func = BoundaryConditions::mirror_image(p.input);
        break;
    case Boundary::MirrorInterior:
        input_stage.func = BoundaryConditions::mirror_interior(p.input);
        break;
    case Boundary::RepeatImage:
        input_stage.func = BoundaryConditions::repeat_image(p.input);
        break;
    }
    p.text << "Func f0 = BoundaryConditions::" << boundary_name(p.boundary) << "(input"
           << (p.exterior.defined() ? ", " : "");
    if (p.exterior.defined()) p.text << p.exterior;
    p.text << ");\n";
    p.stages.push_back(input_stage);

    int scale_budget = 2;
    int n = in.range(1, 6);
    p.out_w = in.range(1, 20);
    p.out_h = in.range(1, 20);
    if (in.chance(25)) {
        p.out_min_x = in.range(-8, 8);
        p.out_min_y = in.range(-8, 8);
    }
    for (int k = 1; k <= n; k++) {
        Stage s;
        s.type = in.pick(fuzz_types());
        s.func = Func("f" + std::to_string(k));
        {
            ExprBuilder b(in, p, k, s.pure, {x, y}, x, y, Expr(), Type(), scale_budget);
            Built e = b.gen(s.type, in.range(1, 4));
            s.pure.real = e.real;
            s.pure.ref = e.ref;
        }
        p.text << "f" << k << "(x, y) = " << s.pure.real << ";\n";
        s.func(x, y) = s.pure.real;
        if (in.chance(25)) {
            s.update = UpdateKind(in.range(1, 3));
            s.rmin = in.range(-3, 6);
            s.rext = in.range(1, s.update == UpdateKind::Pointwise ? 4 : 12);
            if (k == n && s.update != UpdateKind::Pointwise) {
                // The output's scan stays inside the output, f(r - 1) too,
                // mostly: else it is only an error about the output's size.
                bool along_x = s.update == UpdateKind::ScanX;
                int lo = along_x ? p.out_min_x : p.out_min_y, e = along_x ? p.out_w : p.out_h;
                if (e >= 2 && !in.chance(10)) {
                    s.rmin = lo + 1 + in.range(0, e - 2);
                    s.rext = in.range(1, lo + e - s.rmin);
                }
            }
            RDom r(s.rmin, s.rext, "r" + std::to_string(k));
            Expr rv = r.x;
            s.rvar = rv.as<Internal::Variable>()->name;
            std::vector<Expr> coords;
            Expr bx = x, by = y, self;
            std::vector<Expr> lhs;
            if (s.update == UpdateKind::Pointwise) {
                coords = {x, y, rv};
                self = s.func(x, y);
                lhs = {x, y};
            } else if (s.update == UpdateKind::ScanX) {
                coords = {rv, y};
                bx = rv;
                self = s.func(rv - 1, y);
                lhs = {rv, y};
            } else {
                coords = {x, rv};
                by = rv;
                self = s.func(x, rv - 1);
                lhs = {x, rv};
            }
            ExprBuilder b(in, p, k, s.upd, coords, bx, by, self, s.type, scale_budget);
            Built e = b.gen(s.type, in.range(1, 3));
            Built old = {self, Internal::Variable::make(s.type, "self")};
            Built v;
            switch (in.range(0, 3)) {
            case 0:
                v = apply2(old, e, [](Expr a, Expr c) { return a + c; });
                break;
            case 1:
                v = apply2(old, e, [](Expr a, Expr c) { return max(a, c); });
                break;
            case 2:
                v = apply2(old, e, [](Expr a, Expr c) { return min(a, c); });
                break;
            default:
                v = e;
                break;
            }
            s.upd.real = v.real;
            s.upd.ref = v.ref;
            s.update_uses_rdom = Internal::expr_uses_var(v.real, s.rvar);
            p.text << "RDom r" << k << "(" << s.rmin << ", " << s.rext << ");\n";
            p.text << "f" << k << "(" << lhs[0] << ", " << lhs[1] << ") = " << v.real << ";\n";
            s.func(lhs) = v.real;
        }
        p.stages.push_back(s);
    }
    p.text << "// output f" << n << " over [" << p.out_min_x << ", +" << p.out_w << ") x ["
           << p.out_min_y << ", +" << p.out_h << ")\n";
}

namespace {

struct LoopName {
    std::string name;
    bool rvar;
};
using Loops = std::vector<LoopName>; // innermost first

VarOrRVar vr(const LoopName &l) {
    return VarOrRVar(l.name, l.rvar);
}

const char *tail_name(TailStrategy t) {
    return loom::Internal::tail_strategy_names()[size_t(t)].c_str();
}

// Halide's reorder: the named loops take the positions they held, in the
// given order (innermost first).
void reorder_loops(Loops &loops, const std::vector<LoopName> &order) {
    std::vector<size_t> pos;
    for (const auto &o : order)
        for (size_t k = 0; k < loops.size(); k++)
            if (loops[k].name == o.name) pos.push_back(k);
    if (pos.size() != order.size()) return;
    std::sort(pos.begin(), pos.end());
    for (size_t k = 0; k < pos.size(); k++) loops[pos[k]] = order[k];
}

void split_loop(Loops &loops, const LoopName &v, const LoopName &o, const LoopName &i) {
    for (size_t k = 0; k < loops.size(); k++) {
        if (loops[k].name == v.name) {
            loops[k] = i;
            loops.insert(loops.begin() + long(k) + 1, o);
            return;
        }
    }
}

class ScheduleDecoder {
public:
    ScheduleDecoder(FuzzInput &in, Program &p) : in(in), p(p) {}

    // Scheduling calls on a Func (its pure stage) or a Stage (an update).
    template <typename S> void ops(S &s, const std::string &who, Loops &loops) {
        int n = in.range(0, 4);
        for (int k = 0; k < n && !loops.empty(); k++) {
            switch (in.range(0, 7)) {
            case 0:
            case 7: {
                LoopName v = pick(loops);
                LoopName o{fresh(v.name, "o"), v.rvar}, i{fresh(v.name, "i"), v.rvar};
                int f = factor();
                TailStrategy t = tail();
                p.text << who << ".split(" << v.name << ", " << o.name << ", " << i.name << ", "
                       << f << ", TailStrategy::" << tail_name(t) << ");\n";
                s.split(vr(v), vr(o), vr(i), f, t);
                split_loop(loops, v, o, i);
                break;
            }
            case 1: {
                if (loops.size() < 2) break;
                size_t a = size_t(in.range(0, int(loops.size()) - 2));
                LoopName lx = loops[a], ly = loops[in.chance(10) ? loops.size() - 1 : a + 1];
                LoopName xo{fresh(lx.name, "o"), lx.rvar}, xi{fresh(lx.name, "i"), lx.rvar};
                LoopName yo{fresh(ly.name, "o"), ly.rvar}, yi{fresh(ly.name, "i"), ly.rvar};
                int fx = factor(), fy = factor();
                TailStrategy t = tail();
                p.text << who << ".tile(" << lx.name << ", " << ly.name << ", " << xo.name << ", "
                       << yo.name << ", " << xi.name << ", " << yi.name << ", " << fx << ", " << fy
                       << ", TailStrategy::" << tail_name(t) << ");\n";
                s.tile(vr(lx), vr(ly), vr(xo), vr(yo), vr(xi), vr(yi), fx, fy, t);
                split_loop(loops, lx, xo, xi);
                split_loop(loops, ly, yo, yi);
                reorder_loops(loops, {xi, yi, xo, yo});
                break;
            }
            case 2: {
                if (loops.size() < 2) break;
                std::vector<LoopName> order = loops;
                for (size_t i = order.size() - 1; i > 0; i--)
                    std::swap(order[i], order[size_t(in.range(0, int(i)))]);
                order.resize(size_t(in.range(2, int(order.size()))));
                std::vector<VarOrRVar> args;
                p.text << who << ".reorder(";
                for (size_t i = 0; i < order.size(); i++) {
                    args.push_back(vr(order[i]));
                    p.text << (i ? ", " : "") << order[i].name;
                }
                p.text << ");\n";
                s.reorder(args);
                reorder_loops(loops, order);
                break;
            }
            case 3: {
                if (loops.size() < 2) break;
                size_t a = size_t(in.range(0, int(loops.size()) - 2));
                LoopName inner = loops[a],
                         outer = loops[in.chance(5) ? size_t(in.range(0, int(loops.size()) - 1))
                                                    : a + 1];
                LoopName fused{fresh(inner.name, "f"), inner.rvar || outer.rvar};
                p.text << who << ".fuse(" << inner.name << ", " << outer.name << ", " << fused.name
                       << ");\n";
                s.fuse(vr(inner), vr(outer), vr(fused));
                for (size_t k2 = 0; k2 < loops.size(); k2++)
                    if (loops[k2].name == inner.name) loops[k2] = fused;
                for (size_t k2 = 0; k2 < loops.size(); k2++)
                    if (loops[k2].name == outer.name && outer.name != inner.name) {
                        loops.erase(loops.begin() + long(k2));
                        break;
                    }
                break;
            }
            case 4: {
                LoopName v = pick(loops);
                if (in.chance(40)) {
                    p.text << who << ".vectorize(" << v.name << ");\n";
                    s.vectorize(vr(v));
                } else {
                    static const std::vector<int> widths = {2, 4, 8, 16, 3, 32, 1, 0};
                    int f = in.pick(widths);
                    TailStrategy t = tail();
                    p.text << who << ".vectorize(" << v.name << ", " << f
                           << ", TailStrategy::" << tail_name(t) << ");\n";
                    s.vectorize(vr(v), f, t);
                }
                break;
            }
            case 5: {
                LoopName v = pick(loops);
                if (in.chance(60)) {
                    p.text << who << ".parallel(" << v.name << ");\n";
                    s.parallel(vr(v));
                } else {
                    int f = factor();
                    TailStrategy t = tail();
                    p.text << who << ".parallel(" << v.name << ", " << f
                           << ", TailStrategy::" << tail_name(t) << ");\n";
                    s.parallel(vr(v), f, t);
                }
                break;
            }
            default: {
                LoopName v = pick(loops);
                if (in.chance(30)) {
                    p.text << who << ".unroll(" << v.name << ");\n";
                    s.unroll(vr(v));
                } else {
                    int f = factor();
                    TailStrategy t = tail();
                    p.text << who << ".unroll(" << v.name << ", " << f
                           << ", TailStrategy::" << tail_name(t) << ");\n";
                    s.unroll(vr(v), f, t);
                }
                break;
            }
            }
        }
    }

    void run() {
        int n = int(p.stages.size()) - 1;
        std::vector<Loops> pure_loops(size_t(n + 1)), update_loops(size_t(n + 1));
        for (int k = n; k >= 1; k--) {
            Stage &s = p.stages[size_t(k)];
            std::string name = "f" + std::to_string(k);
            Loops loops = {{"x", false}, {"y", false}};
            ops(s.func, name, loops);
            pure_loops[size_t(k)] = loops;
            storage(s.func, name, k == n);
            if (s.update != UpdateKind::None) {
                Loops u;
                if (s.update == UpdateKind::Pointwise && !s.update_uses_rdom)
                    u = {{"x", false}, {"y", false}};
                else if (s.update == UpdateKind::Pointwise)
                    u = {{s.rvar, true}, {"x", false}, {"y", false}};
                else if (s.update == UpdateKind::ScanX)
                    u = {{s.rvar, true}, {"y", false}};
                else
                    u = {{s.rvar, true}, {"x", false}};
                loops_stage = name + ".update(0)";
                loom::Stage st = s.func.update(0);
                ops(st, loops_stage, u);
                update_loops[size_t(k)] = u;
            }
            if (k == n) continue;
            place(k, n, pure_loops, update_loops);
        }
    }

private:
    FuzzInput &in;
    Program &p;
    int counter = 0;

    // Bounds and storage: bound, align_bounds, reorder_storage, fold_storage,
    // store_in (Func-level calls, on the pure definition's Vars).
    void storage(Func &f, const std::string &who, bool output) {
        Var x("x"), y("y");
        if (in.chance(10)) {
            bool on_x = !in.chance(50);
            int lo = output ? (on_x ? p.out_min_x : p.out_min_y) : in.range(-4, 4);
            int ext = output ? (on_x ? p.out_w : p.out_h) : in.range(1, 30);
            if (in.chance(20)) ext += in.range(-2, 2);
            p.text << who << ".bound(" << (on_x ? "x" : "y") << ", " << lo << ", " << ext << ");\n";
            f.bound(on_x ? x : y, lo, ext);
        }
        if (in.chance(8)) {
            int modulus = in.pick(std::vector<int>{2, 4, 3, 0});
            int remainder = in.range(0, 1);
            p.text << who << ".align_bounds(x, " << modulus << ", " << remainder << ");\n";
            f.align_bounds(x, modulus, remainder);
        }
        if (in.chance(8)) {
            p.text << who << ".reorder_storage(y, x);\n";
            f.reorder_storage({y, x});
        }
        if (in.chance(6)) {
            int extent = in.pick(std::vector<int>{1, 2, 4, 8});
            p.text << who << ".fold_storage(y, " << extent << ");\n";
            f.fold_storage(y, extent);
        }
        if (in.chance(8)) {
            static const std::vector<MemoryType> kinds = {MemoryType::Auto, MemoryType::Heap,
                                                          MemoryType::Stack, MemoryType::Register};
            static const char *names[] = {"Auto", "Heap", "Stack", "Register"};
            int i = in.range(0, 3);
            p.text << who << ".store_in(MemoryType::" << names[i] << ");\n";
            f.store_in(kinds[size_t(i)]);
        }
    }
    std::string loops_stage;

    LoopName pick(const Loops &loops) {
        if (in.chance(2)) return {"nowhere", false};
        return loops[size_t(in.range(0, int(loops.size()) - 1))];
    }

    int factor() {
        if (in.chance(3)) return in.range(-2, 0);
        if (in.chance(3)) return in.range(9, 40);
        return in.range(1, 8);
    }

    TailStrategy tail() { return TailStrategy(in.range(0, 4)); }

    std::string fresh(const std::string &base, const char *suffix) {
        std::string b = base.substr(0, std::min(base.find('_', 1), base.find('$')));
        return b + "_" + suffix + std::to_string(++counter);
    }

    void place(int k, int n, const std::vector<Loops> &pure_loops,
               const std::vector<Loops> &update_loops) {
        Stage &s = p.stages[size_t(k)];
        std::string name = "f" + std::to_string(k);
        int choice = in.range(0, 9);
        if (choice < 3) return; // inline
        if (choice < 6) {
            p.text << name << ".compute_root();\n";
            s.func.compute_root();
            return;
        }
        int j = in.range(k + 1, n);
        bool in_update = !update_loops[size_t(j)].empty() && in.chance(25);
        const Loops &loops = in_update ? update_loops[size_t(j)] : pure_loops[size_t(j)];
        size_t at = size_t(in.range(0, int(loops.size()) - 1));
        const LoopName &l = loops[at];
        p.text << name << ".compute_at(f" << j << ", " << l.name << ");\n";
        if (l.rvar) {
            s.func.compute_at(p.stages[size_t(j)].func, RVar(l.name));
        } else {
            s.func.compute_at(p.stages[size_t(j)].func, Var(l.name));
        }
        if (in.chance(40)) {
            size_t st = size_t(in.range(int(at), int(loops.size()) - 1));
            const LoopName &sl = loops[st];
            p.text << name << ".store_at(f" << j << ", " << sl.name << ");\n";
            if (sl.rvar) {
                s.func.store_at(p.stages[size_t(j)].func, RVar(sl.name));
            } else {
                s.func.store_at(p.stages[size_t(j)].func, Var(sl.name));
            }
        } else if (in.chance(20)) {
            p.text << name << ".store_root();\n";
            s.func.store_root();
        }
    }
};

} // namespace

void decode_schedule(FuzzInput &in, Program &p) {
    ScheduleDecoder(in, p).run();
}

} // namespace loom_fuzz
