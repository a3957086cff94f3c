// Lesson 14: Types.
//
// Every Expr has a Type: a code (signed or unsigned integer, float, handle),
// a bit width and a number of vector lanes. This lesson lists the types,
// shows Type's methods, the type of common expressions, and the rules that
// decide the type of an operator whose operands differ. Each claim is
// checked: the program fails if Loom disagrees with the lesson.

#include <Loom.h>

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

using namespace loom;

namespace {

bool ok = true;

void expect(const std::string &what, bool good) {
    std::printf("%s: %s\n", what.c_str(), good ? "correct" : "WRONG");
    if (!good) ok = false;
}

std::string name_of(const Type &t) {
    std::ostringstream os;
    os << t;
    return os.str();
}

// The type of e, checked against the expected one.
void expect_type(const std::string &what, const Expr &e, const Type &expected) {
    std::printf("  %-34s is %s\n", what.c_str(), name_of(e.type()).c_str());
    if (e.type() != expected) {
        std::printf("    WRONG: expected %s\n", name_of(expected).c_str());
        ok = false;
    }
}

// A generic helper written once for any integer type: the average of a and
// b, computed in a type twice as wide so that a + b cannot overflow, then
// narrowed back. Types are values, so code can compute with them.
Expr average(Expr a, Expr b) {
    Type t = a.type();
    if (t.is_float()) return (a + b) / 2;
    Type wider = t.with_bits(t.bits() * 2);
    return cast(t, (cast(wider, a) + cast(wider, b)) / 2);
}

} // namespace

int main() {
    // 1. The types. Integers signed (Int) and unsigned (UInt) of 8 to 64
    // bits, floats of 16, 32 and 64 bits, booleans (UInt(1)), and Handle,
    // an opaque pointer.
    const Type types[] = {UInt(8), UInt(16),  UInt(32),  UInt(64),  Int(8), Int(16),    Int(32),
                          Int(64), Float(16), Float(32), Float(64), Bool(), BFloat(16), Handle()};
    std::printf("The types:");
    for (const Type &t : types) std::printf(" %s", name_of(t).c_str());
    std::printf("\n");

    // 2. Type's methods describe a type and derive others.
    expect("UInt(8) has 8 bits", UInt(8).bits() == 8);
    expect("Int(16) is a signed integer", Int(16).is_int() && !Int(16).is_uint());
    expect("Float(32) is a float of 4 bytes", Float(32).is_float() && Float(32).bytes() == 4);
    expect("Bool() is a 1-bit unsigned integer", Bool().is_bool() && Bool().bits() == 1);
    expect("Handle() is a handle", Handle().is_handle());
    Type t = UInt(8);
    t = t.with_bits(t.bits() * 2);
    expect("UInt(8) with twice the bits is UInt(16)", t == UInt(16));
    expect("a vector of 8 float32s", Float(32).with_lanes(8).is_vector() &&
                                         Float(32).with_lanes(8).element_of() == Float(32));
    expect("type_of<float>() is Float(32)", type_of<float>() == Float(32));
    expect("type_of<uint16_t>() is UInt(16)", type_of<uint16_t>() == UInt(16));
    expect("type_of<int32_t *>() is Handle()", type_of<int32_t *>() == Handle());
    expect("Int(8).widen() is Int(16), and narrow() undoes it",
           Int(8).widen() == Int(16) && Int(16).narrow() == Int(8));
    // max() and min() are Exprs of the type itself.
    expect("UInt(8).max() is 255", evaluate<uint8_t>(UInt(8).max()) == 255);
    expect("Int(16).min() is -32768", evaluate<int16_t>(Int(16).min()) == -32768);
    expect("Int(32) can represent every UInt(16)", Int(32).can_represent(UInt(16)));
    expect("Float(32) cannot represent every Int(32)", !Float(32).can_represent(Int(32)));
    expect("Float(64) can represent every Int(32)", Float(64).can_represent(Int(32)));
    expect("UInt(8) wraps on overflow", UInt(8).can_overflow());

    // 3. The type of common expressions.
    std::printf("Types of expressions:\n");
    Var x("x"), y("y");
    expect_type("a Var", x, Int(32));
    expect_type("a C++ int constant", Expr(3), Int(32));
    expect_type("a C++ float constant", Expr(2.5f), Float(32));
    expect_type("a C++ double constant", Expr(2.5), Float(64));
    expect_type("cast<uint8_t>(x)", cast<uint8_t>(x), UInt(8));
    expect_type("cast(Int(16), x)", cast(Int(16), x), Int(16));
    expect_type("a comparison", x < y, Bool());
    expect_type("a Param<float>", Param<float>("gain"), Float(32));
    // A Func's values have a type too, known once it is defined.
    Func f("f");
    f(x) = cast<uint8_t>(x);
    expect("f's output type is UInt(8)", f.output_type() == UInt(8) && f.types().size() == 1);
    Func two("two");
    two(x) = Tuple(x, cast<float>(x));
    expect("a Tuple Func has one type per element",
           two.output_types().size() == 2 && two.output_types()[1] == Float(32));

    // 4. Implicit coercion: when the operands of +, -, *, /, %, min, max or
    // a comparison differ in type, Loom (like Halide) converts them first.
    Expr u8 = cast<uint8_t>(x), u16 = cast<uint16_t>(x), u32 = cast<uint32_t>(x);
    Expr i8 = cast<int8_t>(x), i16 = cast<int16_t>(x), i32 = x;
    Expr f16 = cast<float16_t>(x), f32 = cast<float>(x), f64 = cast<double>(x);
    std::printf("Coercion:\n");
    // Rule 1: a float and a non-float: the non-float becomes that float.
    expect_type("uint8 + float32", u8 + f32, Float(32));
    expect_type("int32 * float64", i32 * f64, Float(64));
    expect_type("uint16 + float16", u16 + f16, Float(16));
    // Rule 2: two floats: the narrower is widened.
    expect_type("float32 + float64", f32 + f64, Float(64));
    expect_type("float16 * float32", f16 * f32, Float(32));
    // Rule 3: a C++ constant takes the type of the other operand. An int
    // constant that does not fit it is an error; a float constant with a
    // float Expr keeps the Expr's precision.
    expect_type("uint8 + 3", u8 + 3, UInt(8));
    expect_type("int16 * 2", i16 * 2, Int(16));
    expect_type("float32 * 0.5 (a double)", f32 * 0.5, Float(32));
    bool refused = false;
    try {
        Expr too_big = u8 + 300;
    } catch (const CompileError &e) {
        refused = std::string(e.what()).find("300") != std::string::npos;
    }
    expect("uint8 + 300 is refused: 300 is no uint8", refused);
    // Rule 4: two signed or two unsigned integers: the narrower is widened.
    expect_type("uint8 + uint32", u8 + u32, UInt(32));
    expect_type("int8 - int16", i8 - i16, Int(16));
    // Rule 5: signed and unsigned: both become signed, of the wider width.
    expect_type("uint8 + int16", u8 + i16, Int(16));
    expect_type("int8 + uint32", i8 + u32, Int(32));
    expect_type("uint16 + int8", u16 + i8, Int(16));

    // 5. Coercion decides results. uint8 arithmetic wraps at 256; widening
    // first (here by adding an int16) keeps the whole sum.
    Func wraps("wraps"), widened("widened");
    wraps(x) = u8 + cast<uint8_t>(200);
    widened(x) = u8 + cast<int16_t>(200);
    Buffer<uint8_t> wrapped = wraps.realize({100});
    Buffer<int16_t> whole = widened.realize({100});
    bool good = true;
    for (int i = 0; i < 100; i++)
        good = good && wrapped(i) == uint8_t(i + 200) && whole(i) == i + 200;
    expect("uint8 + uint8 wraps; uint8 + int16 does not", good);

    // 6. Types as values: average() works for every integer and float type.
    Func avg_u8("avg_u8"), avg_i16("avg_i16"), avg_f32("avg_f32");
    avg_u8(x) = average(cast<uint8_t>(x * 50), cast<uint8_t>(255));
    avg_i16(x) = average(cast<int16_t>(x * 1000), cast<int16_t>(-32768));
    avg_f32(x) = average(cast<float>(x), 1.5f);
    expect("average() keeps its operands' type", avg_u8.output_type() == UInt(8) &&
                                                     avg_i16.output_type() == Int(16) &&
                                                     avg_f32.output_type() == Float(32));
    Buffer<uint8_t> a8 = avg_u8.realize({6});
    Buffer<int16_t> a16 = avg_i16.realize({33});
    Buffer<float> af = avg_f32.realize({4});
    good = true;
    for (int i = 0; i < 6; i++) good = good && a8(i) == uint8_t((uint8_t(i * 50) + 255) / 2);
    for (int i = 0; i < 33; i++) {
        int sum = int(int16_t(i * 1000)) - 32768;
        int floor_half = sum >= 0 ? sum / 2 : -((-sum + 1) / 2); // rounds down, as Loom's / does
        good = good && a16(i) == floor_half;
    }
    for (int i = 0; i < 4; i++) good = good && af(i) == (float(i) + 1.5f) / 2;
    expect("average() of uint8, int16 and float32 values", good);

    std::printf(ok ? "Success!\n" : "Lesson 14 FAILED\n");
    return ok ? 0 : 1;
}
