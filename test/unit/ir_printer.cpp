#include <catch2/catch.hpp>

#include <sstream>

#include "ir/IR.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"

using namespace loom;
using namespace loom::Internal;

namespace {
Expr var(const std::string &name, Type t = Int(32)) {
    return Variable::make(t, name);
}
Stmt for_loop(const std::string &name, ForType kind, Stmt body) {
    return For::make(name, 0, 10, kind, DeviceAPI::None, std::move(body));
}
} // namespace

TEST_CASE("printer: constants", "[ir]") {
    CHECK(to_string(Expr(3)) == "3");
    CHECK(to_string(Expr(-3)) == "-3");
    CHECK(to_string(make_const(UInt(8), 3)) == "(uint8)3");
    CHECK(to_string(make_const(Int(64), 5)) == "(int64)5");
    CHECK(to_string(Expr(1.5f)) == "1.5f");
    CHECK(to_string(Expr(1.5)) == "1.5");
    CHECK(to_string(Expr(2.0f)) == "2.0f");
    CHECK(to_string(Expr(0.1f)) == "0.1f");
    CHECK(to_string(Expr(true)) == "true");
    CHECK(to_string(StringImm::make("a\"b")) == "\"a\\\"b\"");
}

TEST_CASE("printer: expressions", "[ir]") {
    Expr x = var("x"), y = var("y");
    CHECK(to_string(Add::make(x, 1)) == "(x + 1)");
    CHECK(to_string(Mul::make(Sub::make(x, y), Div::make(x, Mod::make(y, 2)))) ==
          "((x - y) * (x / (y % 2)))");
    CHECK(to_string(Min::make(x, Max::make(y, 0))) == "min(x, max(y, 0))");
    CHECK(to_string(Select::make(LT::make(x, y), x, y)) == "select((x < y), x, y)");
    CHECK(to_string(And::make(LE::make(x, y), Not::make(EQ::make(x, 0)))) ==
          "((x <= y) && !(x == 0))");
    CHECK(to_string(Cast::make(Float(32), x)) == "float32(x)");
    CHECK(to_string(Ramp::make(x, 1, 8)) == "ramp(x, 1, 8)");
    CHECK(to_string(Broadcast::make(x, 8)) == "x8(x)");
    CHECK(to_string(Let::make("t", Add::make(x, 1), Mul::make(var("t"), var("t")))) ==
          "(let t = (x + 1) in (t * t))");
    CHECK(to_string(Load::make(Float(32), "buf", Add::make(x, 1), Buffer<>(), Parameter())) ==
          "buf[(x + 1)]");
    CHECK(to_string(Call::make(Int(32), "f", {x, y}, Call::Loom)) == "f(x, y)");
    CHECK(to_string(Expr()) == "(undefined)");
}

TEST_CASE("printer: statements", "[ir]") {
    Expr x = var("x"), y = var("y");
    Stmt store = Store::make("f", Add::make(x, y), x, Buffer<>(), Parameter());
    CHECK(to_string(store) == "f[x] = (x + y)\n");

    Stmt loops = for_loop("y", ForType::Parallel, for_loop("x", ForType::Vectorized, store));
    CHECK(to_string(loops) == "parallel (y, 0, 10) {\n"
                              "  vectorized (x, 0, 10) {\n"
                              "    f[x] = (x + y)\n"
                              "  }\n"
                              "}\n");
    CHECK(to_string(for_loop("i", ForType::Serial, store)) ==
          "for (i, 0, 10) {\n  f[x] = (x + y)\n}\n");
    CHECK(to_string(for_loop("i", ForType::Unrolled, store)).rfind("unrolled (i, 0, 10) {", 0) ==
          0);

    Stmt produce = ProducerConsumer::make_produce("f", store);
    CHECK(to_string(produce) == "produce f {\n  f[x] = (x + y)\n}\n");

    Stmt alloc = Allocate::make("f", Int(32), MemoryType::Auto, {Expr(4), y}, Expr(),
                                Block::make(produce, Free::make("f")));
    CHECK(to_string(alloc) == "allocate f[int32 * 4 * y]\n"
                              "produce f {\n  f[x] = (x + y)\n}\n"
                              "free f\n");

    Stmt assertion =
        AssertStmt::make(LT::make(x, 10), Call::make(Int(32), "error", {}, Call::Extern));
    CHECK(to_string(assertion) == "assert((x < 10), error())\n");

    Stmt branch = IfThenElse::make(LT::make(x, 0), Evaluate::make(1), Evaluate::make(2));
    CHECK(to_string(branch) == "if ((x < 0)) {\n  1\n} else {\n  2\n}\n");

    Stmt let = LetStmt::make("x", 3, store);
    CHECK(to_string(let) == "let x = 3\nf[x] = (x + y)\n");

    Stmt provide = Provide::make("g", {x, y}, {x, y});
    CHECK(to_string(provide) == "g(x, y) = {x, y}\n");
    Stmt realize = Realize::make("g", {Int(32), Int(32)}, MemoryType::Auto,
                                 {Range(0, 10), Range(y, 5)}, Expr(), provide);
    CHECK(to_string(realize) == "realize g([0, 10], [y, 5]) {\n  g(x, y) = {x, y}\n}\n");
}

TEST_CASE("printer: enums, types and html", "[ir]") {
    std::ostringstream os;
    os << Int(32, 4) << " " << ForType::Parallel << " " << MemoryType::Stack;
    CHECK(os.str() == "int32x4 parallel Stack");

    Expr x = var("x");
    Stmt s = For::make("x", 0, 10, ForType::Serial, DeviceAPI::None,
                       Store::make("f", LT::make(x, 3), x, Buffer<>(), Parameter()));
    std::string html = to_html(s, "f <lowered>");
    CHECK(html.find("<pre>") != std::string::npos);
    CHECK(html.find("f &lt;lowered&gt;") != std::string::npos);
    CHECK(html.find("(x &lt; <span class=\"num\">3</span>)") != std::string::npos);
    CHECK(html.find("<span class=\"kw\">for</span>") != std::string::npos);
}
