#ifndef LOOM_TEST_SIMPLIFY_TEST_UTIL_H
#define LOOM_TEST_SIMPLIFY_TEST_UTIL_H

// Shared by the simplifier and bounds tests: terse IR builders and a seeded
// generator of random expressions over a few variables.
//
// Random Int(32) expressions may overflow, which Loom leaves undefined (the
// simplifier may assume it never happens). The generator keeps values small,
// and the property tests skip any sample where the interpreter reports
// undefined behaviour.

#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "common/IRInterpreter.h"
#include "ir/IR.h"
#include "ir/IROperator.h"

namespace loom {
namespace Internal {
namespace test_ir {

inline Expr var(const std::string &name, Type t = Int(32)) {
    return Variable::make(t, name);
}
inline Expr add(Expr a, Expr b) {
    return Add::make(a, b);
}
inline Expr sub(Expr a, Expr b) {
    return Sub::make(a, b);
}
inline Expr mul(Expr a, Expr b) {
    return Mul::make(a, b);
}
inline Expr div(Expr a, Expr b) {
    return Div::make(a, b);
}
inline Expr mod(Expr a, Expr b) {
    return Mod::make(a, b);
}
inline Expr min(Expr a, Expr b) {
    return Min::make(a, b);
}
inline Expr max(Expr a, Expr b) {
    return Max::make(a, b);
}
inline Expr lt(Expr a, Expr b) {
    return LT::make(a, b);
}
inline Expr le(Expr a, Expr b) {
    return LE::make(a, b);
}
inline Expr gt(Expr a, Expr b) {
    return GT::make(a, b);
}
inline Expr ge(Expr a, Expr b) {
    return GE::make(a, b);
}
inline Expr eq(Expr a, Expr b) {
    return EQ::make(a, b);
}
inline Expr ne(Expr a, Expr b) {
    return NE::make(a, b);
}
inline Expr and_(Expr a, Expr b) {
    return And::make(a, b);
}
inline Expr or_(Expr a, Expr b) {
    return Or::make(a, b);
}
inline Expr not_(Expr a) {
    return Not::make(a);
}
inline Expr select(Expr c, Expr t, Expr f) {
    return Select::make(c, t, f);
}
inline Expr i32(int64_t v) {
    return make_const(Int(32), v);
}

/** The seed of a property test: LOOM_TEST_SEED if set, else the time. */
inline uint32_t test_seed() {
    if (const char *s = std::getenv("LOOM_TEST_SEED"))
        return uint32_t(std::strtoul(s, nullptr, 10));
    return uint32_t(std::time(nullptr));
}

/** Random expressions over variables x, y, z of each of a few types. */
class RandomExprs {
public:
    std::mt19937 rng;
    std::vector<Type> types = {Int(32), Int(16), UInt(8), Float(32)};
    std::vector<std::string> names = {"x", "y", "z"};

    explicit RandomExprs(uint32_t seed) : rng(seed) {}

    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
    bool chance(int percent) { return uniform(0, 99) < percent; }
    Type random_type() { return types[uniform(0, int(types.size()) - 1)]; }

    static std::string var_name(const std::string &base, Type t) {
        return base + "_" + type_to_string(t);
    }

    Expr leaf(Type t) {
        if (t.is_bool()) return chance(80) ? gen(Bool(), 1) : make_bool(chance(50));
        if (chance(65)) return var(var_name(names[uniform(0, 2)], t), t);
        if (t.is_float()) return make_const(t, uniform(-16, 16) * 0.5);
        if (t.is_uint()) return make_const(t, uniform(0, 1) ? uniform(0, 8) : uniform(0, 255));
        return make_const(t, uniform(-10, 10));
    }

    Expr gen(Type t, int depth) {
        if (t.is_bool()) return gen_bool(depth);
        if (depth <= 0 || chance(20)) return leaf(t);
        Expr a = gen(t, depth - 1), b = gen(t, depth - 1);
        int choice = uniform(0, t.is_float() ? 7 : 9);
        switch (choice) {
        case 0:
            return Add::make(a, b);
        case 1:
            return Sub::make(a, b);
        case 2:
            return Mul::make(a, chance(60) ? leaf(t) : b);
        case 3:
            return Min::make(a, b);
        case 4:
            return Max::make(a, b);
        case 5:
            return Select::make(gen_bool(depth - 1), a, b);
        case 6: {
            Type from = random_type();
            if (t.is_float() && from.is_float()) return Add::make(a, b);
            return Cast::make(t, gen(from, depth - 1));
        }
        case 7:
            return Add::make(a, leaf(t));
        case 8:
            if (chance(25)) {
                // A let whose body uses the bound name (names repeat across depths: shadowing).
                std::string name = "t" + std::to_string(depth % 2);
                return Let::make(name, a, Add::make(var(name, t), Mul::make(var(name, t), b)));
            }
            return Div::make(a, chance(70) ? leaf(t) : b);
        default:
            return Mod::make(a, chance(70) ? leaf(t) : b);
        }
    }

    Expr gen_bool(int depth) {
        if (depth <= 0) return make_bool(chance(50));
        int choice = uniform(0, 9);
        if (choice < 6) {
            Type t = random_type();
            Expr a = gen(t, depth - 1), b = chance(50) ? leaf(t) : gen(t, depth - 1);
            switch (choice) {
            case 0:
                return LT::make(a, b);
            case 1:
                return LE::make(a, b);
            case 2:
                return GT::make(a, b);
            case 3:
                return GE::make(a, b);
            case 4:
                return EQ::make(a, b);
            default:
                return NE::make(a, b);
            }
        }
        if (choice == 6) return And::make(gen_bool(depth - 1), gen_bool(depth - 1));
        if (choice == 7) return Or::make(gen_bool(depth - 1), gen_bool(depth - 1));
        if (choice == 8) return Not::make(gen_bool(depth - 1));
        return make_bool(chance(50));
    }

    /** A random value for a variable of type t in [lo, hi] (ints) or a nearby float. */
    ScalarValue random_value(Type t, int lo, int hi) {
        if (t.is_float()) return ScalarValue::make_float(t, uniform(lo * 4, hi * 4) * 0.25);
        return ScalarValue::from_int(t, uniform(lo, hi));
    }

    /** Default ranges for random variable values: small enough that Int(32)
     * trees of depth four rarely overflow. */
    ScalarValue random_value(Type t) {
        if (t.is_uint()) return random_value(t, 0, chance(50) ? 16 : 255);
        if (t.bits == 16)
            return random_value(t, chance(50) ? -20 : -32768, chance(50) ? 20 : 32767);
        return random_value(t, -64, 64);
    }

    void bind_all(IRInterpreter &interp) {
        for (Type t : types) {
            for (auto &n : names) interp.set(var_name(n, t), random_value(t));
        }
    }
};

} // namespace test_ir
} // namespace Internal
} // namespace loom

#endif
