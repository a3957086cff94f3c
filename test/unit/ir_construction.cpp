#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRVisitor.h"

using namespace loom;
using namespace loom::Internal;

namespace {
Expr var(const std::string &name, Type t = Int(32)) {
    return Variable::make(t, name);
}
} // namespace

// The make() functions return raw nodes; holding them in an Expr frees them.
template <typename Node, typename V> auto value_of(const Node *n) {
    Expr owner(n);
    return V(n->value);
}

TEST_CASE("constants wrap to their type's width", "[ir]") {
    CHECK(value_of<IntImm, int64_t>(IntImm::make(Int(8), 200)) == -56);
    CHECK(value_of<IntImm, int64_t>(IntImm::make(Int(16), -32769)) == 32767);
    CHECK(value_of<IntImm, int64_t>(IntImm::make(Int(64), INT64_MIN)) == INT64_MIN);
    CHECK(value_of<UIntImm, uint64_t>(UIntImm::make(UInt(8), 300)) == 44);
    CHECK(value_of<UIntImm, uint64_t>(UIntImm::make(Bool(), 3)) == 1);
    CHECK(value_of<FloatImm, double>(FloatImm::make(Float(32), 0.1)) == double(0.1f));
    CHECK(value_of<FloatImm, double>(FloatImm::make(Float(64), 0.1)) == 0.1);
    CHECK_THROWS_AS(IntImm::make(UInt(8), 1), InternalError);
    CHECK_THROWS_AS(IntImm::make(Int(32, 4), 1), InternalError);
}

TEST_CASE("C++ numbers convert to constants of the matching type", "[ir]") {
    CHECK(Expr(3).type() == Int(32));
    CHECK(Expr(true).type() == Bool());
    CHECK(Expr(2.5f).type() == Float(32));
    CHECK(Expr(2.5).type() == Float(64));
    CHECK(Expr(uint8_t(3)).type() == UInt(8));
    CHECK(Expr(int64_t(-5)).as<IntImm>()->value == -5);
}

TEST_CASE("binary operators check their operand types", "[ir]") {
    Expr x = var("x");
    CHECK(Add::make(x, 1).type() == Int(32));
    CHECK_THROWS_AS(Add::make(x, Expr(1.0f)), InternalError);
    CHECK_THROWS_AS(Add::make(x, Expr()), InternalError);
    CHECK(LT::make(x, 1).type() == Bool());
    Expr v = var("v", Int(32, 4));
    CHECK(EQ::make(v, v).type() == Bool(4));
    CHECK_THROWS_AS(And::make(x, x), InternalError);
    CHECK(And::make(LT::make(x, 1), const_true()).type() == Bool());
    CHECK_THROWS_AS(Not::make(x), InternalError);
}

TEST_CASE("select conditions are bool, scalar or of matching lanes", "[ir]") {
    Expr x = var("x");
    Expr v = var("v", Int(32, 4));
    CHECK(Select::make(LT::make(x, 1), v, v).type() == Int(32, 4));
    CHECK(Select::make(LT::make(v, v), v, v).type() == Int(32, 4));
    CHECK_THROWS_AS(Select::make(x, x, x), InternalError);
    CHECK_THROWS_AS(Select::make(LT::make(x, 1), x, Expr(1.0f)), InternalError);
    Expr v8 = var("v8", Int(32, 8));
    CHECK_THROWS_AS(Select::make(LT::make(v, v), v8, v8), InternalError);
}

TEST_CASE("vectors: ramp, broadcast, load and shuffle types", "[ir]") {
    Expr x = var("x");
    CHECK(Ramp::make(x, 1, 8).type() == Int(32, 8));
    CHECK(Broadcast::make(Expr(1.5f), 4).type() == Float(32, 4));
    CHECK_THROWS_AS(Ramp::make(x, 1, 1), InternalError);
    CHECK_THROWS_AS(Broadcast::make(x, 1), InternalError);
    CHECK_THROWS_AS(Ramp::make(x, Expr(int64_t(1)), 4), InternalError);

    Expr load = Load::make(Float(32, 8), "buf", Ramp::make(x, 1, 8), Buffer<>(), Parameter());
    CHECK(load.type() == Float(32, 8));
    CHECK_THROWS_AS(Load::make(Float(32, 4), "buf", x, Buffer<>(), Parameter()), InternalError);
    CHECK_THROWS_AS(Load::make(Float(32), "buf", x, Buffer<>(), Parameter(), const_true(4)),
                    InternalError);

    Expr a = Ramp::make(x, 1, 4), b = Ramp::make(x, 2, 4);
    Expr cat = Shuffle::make_concat({a, b});
    CHECK(cat.type() == Int(32, 8));
    CHECK(cat.as<Shuffle>()->indices == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
    Expr il = Shuffle::make_interleave({a, b});
    CHECK(il.as<Shuffle>()->indices == std::vector<int>{0, 4, 1, 5, 2, 6, 3, 7});
    Expr sl = Shuffle::make_slice(cat, 1, 2, 3);
    CHECK(sl.type() == Int(32, 3));
    CHECK(sl.as<Shuffle>()->indices == std::vector<int>{1, 3, 5});
    CHECK(Shuffle::make_extract_element(a, 2).type() == Int(32));
    CHECK_THROWS_AS(Shuffle::make({a}, {4}), InternalError);
}

TEST_CASE("casts keep lanes, reinterprets keep width", "[ir]") {
    Expr v = var("v", Int(32, 4));
    CHECK(Cast::make(Float(32, 4), v).type() == Float(32, 4));
    CHECK_THROWS_AS(Cast::make(Float(32), v), InternalError);
    CHECK(Reinterpret::make(UInt(8, 16), v).type() == UInt(8, 16));
    CHECK_THROWS_AS(Reinterpret::make(UInt(8, 4), v), InternalError);
}

TEST_CASE("calls take names and types from intrinsics and parameters", "[ir]") {
    Expr x = var("x");
    Expr c = Call::make(Int(32), Intrinsic::abs, {x});
    CHECK(c.as<Call>()->name == "abs");
    CHECK(c.as<Call>()->is_intrinsic(Intrinsic::abs));
    CHECK(c.as<Call>()->is_pure());
    CHECK(std::string(intrinsic_name(Intrinsic::shift_right)) == "shift_right");

    Parameter p(UInt(8), true, 2, "input");
    CHECK(p.constraint(1).min.defined() == false);
    CHECK_THROWS(p.constraint(2));
    Expr img = Call::make(p, {x, x});
    CHECK(img.type() == UInt(8));
    CHECK(img.as<Call>()->name == "input");
    CHECK(img.as<Call>()->call_type == Call::Image);
    CHECK_THROWS_AS(Call::make(p, {x}), InternalError);

    CHECK_THROWS_AS(Call::make(Int(32), "f", {Expr()}, Call::Extern), InternalError);
    CHECK_FALSE(Call::make(Int(32), "f", {x}, Call::Extern).as<Call>()->is_pure());
}

TEST_CASE("scalar parameters reinterpret their bits", "[ir]") {
    Parameter i8(Int(8), false, 0, "p");
    i8.set_scalar_bits(0xFF);
    CHECK(as_const_int(i8.scalar_expr()) == int64_t(-1));

    Parameter f32(Float(32), false, 0, "f");
    float value = 1.5f;
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    f32.set_scalar_bits(bits);
    CHECK(as_const_float(f32.scalar_expr()) == 1.5);

    Parameter f64(Float(64), false, 0, "d");
    double d = -2.25;
    uint64_t dbits;
    std::memcpy(&dbits, &d, sizeof(dbits));
    f64.set_scalar_bits(dbits);
    CHECK(as_const_float(f64.scalar_expr()) == -2.25);

    Parameter u16(UInt(16), false, 0, "u");
    u16.set_scalar_bits(0x12345);
    CHECK(as_const_uint(u16.scalar_expr()) == uint64_t(0x2345));
}

TEST_CASE("statements: blocks skip undefined parts, nodes check operands", "[ir]") {
    Stmt a = Evaluate::make(1), b = Evaluate::make(2);
    CHECK_FALSE(Block::make(std::vector<Stmt>{}).defined());
    CHECK(Block::make({Stmt(), a, Stmt()}).same_as(a));
    Stmt ab = Block::make({a, Stmt(), b});
    REQUIRE(ab.as<Block>());
    CHECK(ab.as<Block>()->first.same_as(a));
    CHECK(ab.as<Block>()->rest.same_as(b));

    Expr x = var("x");
    CHECK_THROWS_AS(IfThenElse::make(x, a), InternalError);
    CHECK_THROWS_AS(For::make("i", 0, Expr(1.0f), ForType::Serial, DeviceAPI::None, a),
                    InternalError);
    CHECK_THROWS_AS(Store::make("buf", Ramp::make(x, 1, 4), x, Buffer<>(), Parameter()),
                    InternalError);
    Stmt alloc = Allocate::make("t", Int(32), MemoryType::Auto, {Expr(10)}, Expr(), a);
    CHECK(is_const_true(alloc.as<Allocate>()->condition));
}

TEST_CASE("types: names, limits and representability", "[ir]") {
    CHECK(type_to_string(Int(32)) == "int32");
    CHECK(type_to_string(UInt(8)) == "uint8");
    CHECK(type_to_string(Float(32)) == "float32");
    CHECK(type_to_string(Bool()) == "bool");
    CHECK(type_to_string(Int(32, 8)) == "int32x8");
    CHECK(type_to_string(Handle()) == "handle");
    CHECK(Int(8).min_int() == -128);
    CHECK(Int(8).max_int() == 127);
    CHECK(UInt(8).max_uint() == 255);
    CHECK(UInt(64).max_uint() == UINT64_MAX);
    CHECK(Int(64).min_int() == INT64_MIN);
    CHECK(Int(8).can_represent(int64_t(-128)));
    CHECK_FALSE(Int(8).can_represent(int64_t(128)));
    CHECK_FALSE(UInt(8).can_represent(int64_t(-1)));
    CHECK(Float(32).can_represent(1.5));
    CHECK_FALSE(Float(32).can_represent(0.1));
    CHECK_FALSE(Int(32).can_represent(0.5));
    CHECK(Int(32).can_represent(-3.0));
    CHECK_FALSE(Float(32).can_represent(int64_t(16777217)));
    CHECK(Float(32).can_represent(int64_t(16777216)));
    CHECK(Float(64).can_represent(int64_t(1) << 60));
    CHECK_FALSE(Float(32).can_represent(INT64_MAX));
    CHECK_FALSE(Float(64).can_represent(UINT64_MAX));
    CHECK_FALSE(UInt(64).can_represent(18446744073709551616.0));
    // Every value of the argument type is a value of the receiving type (Halide's sense).
    CHECK(Int(16).can_represent(UInt(8)));
    CHECK_FALSE(UInt(8).can_represent(Int(16)));
    CHECK(Float(32).can_represent(Int(16)));
    CHECK_FALSE(Float(32).can_represent(Int(32)));
}

TEST_CASE("constant helpers", "[ir]") {
    Expr c = make_const(Int(32, 4), 7);
    REQUIRE(c.as<Broadcast>());
    CHECK(is_const(c));
    CHECK(is_const(c, 7));
    CHECK(as_const_int(c) == int64_t(7));
    CHECK(make_const(UInt(8), 300).as<UIntImm>()->value == 44);
    CHECK(is_const_true(const_true(8)));
    CHECK(is_const_false(const_false()));
    CHECK_FALSE(is_const_true(Expr(1)));
    CHECK(as_const_int(type_max(Int(16))) == int64_t(32767));
    CHECK(as_const_uint(type_min(UInt(8))) == uint64_t(0));
    CHECK(std::isinf(*as_const_float(type_max(Float(32)))));
    CHECK(is_positive_const(Expr(3)));
    CHECK(is_negative_const(Expr(-3)));
    CHECK_FALSE(is_positive_const(var("x")));
    CHECK(is_const_zero(make_zero(Float(64))));
    CHECK(is_const_one(make_one(UInt(16, 4))));
    CHECK_FALSE(as_const_int(Expr(1.0f)).has_value());
    Expr l = likely(LT::make(var("x"), 3));
    CHECK(unwrap_likely(l).as<LT>());
    CHECK(is_pure(Add::make(var("x"), 1)));
    CHECK_FALSE(is_pure(Add::make(Call::make(Int(32), "rand", {}, Call::Extern), 1)));
    CHECK(broadcast_if_needed(var("x"), 4).type() == Int(32, 4));
}

TEST_CASE("mutator keeps unchanged nodes and rebuilds changed ones", "[ir]") {
    Expr x = var("x"), y = var("y");
    Expr e = Select::make(LT::make(x, y), Add::make(x, 1), Mul::make(y, 2));
    Stmt s = For::make("i", 0, 10, ForType::Serial, DeviceAPI::None,
                       Store::make("buf", e, x, Buffer<>(), Parameter()));
    IRMutator identity;
    CHECK(identity.mutate(e).same_as(e));
    CHECK(identity.mutate(s).same_as(s));

    class RenameX : public IRMutator {
        using IRMutator::visit;
        Expr visit(const Variable *op) override {
            return op->name == "x" ? Variable::make(op->type, "z") : Expr(op);
        }
    } rename;
    Expr r = rename.mutate(e);
    CHECK_FALSE(r.same_as(e));
    CHECK(r.as<Select>()->false_value.same_as(e.as<Select>()->false_value));

    class CountVars : public IRVisitor {
    public:
        int count = 0;
        using IRVisitor::visit;
        void visit(const Variable *) override { count++; }
    } counter;
    s.accept(&counter);
    CHECK(counter.count == 5);
}
