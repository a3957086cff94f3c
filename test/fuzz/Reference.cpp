#include "Reference.h"

#include <algorithm>
#include <cstring>

namespace loom_fuzz {

using loom::Int;
using loom::Internal::IRInterpreter;
using loom::Internal::ScalarValue;

namespace {

int64_t euclid_mod(int64_t a, int64_t b) {
    int64_t r = a % b;
    return r < 0 ? r + b : r;
}

// The input coordinate a boundary condition reads for coordinate c of a
// dimension [m, m + e) (src/frontend/BoundaryConditions.cpp), or -1 as
// `outside` for constant_exterior.
int64_t remap(Boundary b, int64_t c, int64_t m, int64_t e, bool &outside) {
    int64_t last = m + e - 1;
    if (c >= m && c <= last) return c;
    switch (b) {
    case Boundary::ConstantExterior:
        outside = true;
        return m;
    case Boundary::RepeatImage:
        return m + euclid_mod(c - m, e);
    case Boundary::MirrorImage: {
        int64_t t = euclid_mod(c - m, 2 * e);
        return m + (t < e ? t : 2 * e - 1 - t);
    }
    case Boundary::MirrorInterior: {
        int64_t period = std::max<int64_t>(2 * e - 2, 1);
        int64_t t = euclid_mod(c - m, period);
        return std::clamp(m + (t < e ? t : period - t), m, last);
    }
    default:
        return std::clamp(c, m, last);
    }
}

} // namespace

Reference::Value Reference::input(int x, int y) {
    bool outside = false;
    int64_t ix = remap(p.boundary, x, p.in_min_x, p.in_w, outside);
    int64_t iy = remap(p.boundary, y, p.in_min_y, p.in_h, outside);
    if (outside) {
        IRInterpreter interp;
        return {interp.eval(p.exterior), false};
    }
    const loom_buffer_t *raw = p.input.raw_buffer();
    const uint8_t *at = raw->host + ((ix - p.in_min_x) * raw->dim[0].stride +
                                     (iy - p.in_min_y) * raw->dim[1].stride) *
                                        (p.in_type.bits / 8);
    if (p.in_type.is_float()) {
        float v;
        std::memcpy(&v, at, 4);
        return {ScalarValue::make_float(p.in_type, v), false};
    }
    if (p.in_type.is_int()) {
        int32_t v;
        std::memcpy(&v, at, 4);
        return {ScalarValue::make_int(p.in_type, v), false};
    }
    if (p.in_type.bits == 16) {
        uint16_t v;
        std::memcpy(&v, at, 2);
        return {ScalarValue::make_uint(p.in_type, v), false};
    }
    return {ScalarValue::make_uint(p.in_type, *at), false};
}

Reference::Value Reference::eval(const Definition &d, int x, int y, int r,
                                 const ScalarValue *self) {
    // One interpreter per definition: evaluating a call recurses into other
    // definitions, which bind x and y to other values.
    IRInterpreter interp;
    interp.set("x", ScalarValue::make_int(Int(32), x));
    interp.set("y", ScalarValue::make_int(Int(32), y));
    if (self) interp.set("self", *self);
    bool undefined = false;
    const Stage *owner = nullptr;
    for (const Stage &s : p.stages)
        if (&s.upd == &d) owner = &s;
    if (owner) interp.set(owner->rvar, ScalarValue::make_int(Int(32), r));
    for (const CallSite &c : d.calls) {
        ScalarValue cx = interp.eval(c.x), cy = interp.eval(c.y);
        Value v = value(c.stage, int(cx.i), int(cy.i));
        undefined = undefined || v.second;
        interp.set(c.var, v.first);
    }
    ScalarValue result = interp.eval(d.ref);
    return {result, undefined || interp.undefined_behavior()};
}

Reference::Value Reference::value(int stage, int x, int y) {
    if (stage == 0) return input(x, y);
    // Coordinates stay far below 2^27 in magnitude (inputs and outputs are
    // small, data-dependent coordinates are clamped).
    uint64_t key = (uint64_t(stage) << 56) | ((uint64_t(uint32_t(x)) & 0xfffffff) << 28) |
                   (uint64_t(uint32_t(y)) & 0xfffffff);
    auto found = memo.find(key);
    if (found != memo.end()) return found->second;
    const Stage &s = p.stages[size_t(stage)];
    Value v = eval(s.pure, x, y, 0, nullptr);
    switch (s.update) {
    case UpdateKind::None:
        break;
    case UpdateKind::Pointwise:
        for (int r = s.rmin; r < s.rmin + (s.update_uses_rdom ? s.rext : 1); r++) {
            Value n = eval(s.upd, x, y, r, &v.first);
            v = {n.first, v.second || n.second};
        }
        break;
    case UpdateKind::ScanX:
        if (x >= s.rmin && x < s.rmin + s.rext) {
            Value prev = value(stage, x - 1, y);
            Value n = eval(s.upd, x, y, x, &prev.first);
            v = {n.first, prev.second || n.second};
        }
        break;
    case UpdateKind::ScanY:
        if (y >= s.rmin && y < s.rmin + s.rext) {
            Value prev = value(stage, x, y - 1);
            Value n = eval(s.upd, x, y, y, &prev.first);
            v = {n.first, prev.second || n.second};
        }
        break;
    }
    memo[key] = v;
    return v;
}

} // namespace loom_fuzz
