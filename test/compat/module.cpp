// compile_to_module as Halide code uses it: a Module from a Func or a
// Pipeline, its name, target and functions, and Module::compile writing
// the same files compile_to writes, from the lowering it was made with.

#include "Loom.h"
#include "common/ScratchFile.h"
namespace Halide = loom;

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace Halide;
using Catch::Matchers::Contains;

namespace {

// A fresh directory per test case, removed afterwards.
struct ScratchDir : loom_test::ScratchDir {
    explicit ScratchDir(const std::string &tag) : loom_test::ScratchDir("compat_module_" + tag) {}
};
using loom_test::read_bytes;

// out(x, y) = in(x, y) * scale + y.
struct Scale {
    ImageParam in{Int(32), 2, "in"};
    Param<int> scale{"scale"};
    Var x{"x"}, y{"y"};
    Func out{"scaled"};
    Scale() { out(x, y) = in(x, y) * scale + y; }
};

} // namespace

TEST_CASE("compat module: compile_to_module writes what compile_to writes", "[compat][module]") {
    ScratchDir dir("same");
    Scale p;
    Target t("x86-64-linux-sse41");
    Module m = p.out.compile_to_module({p.in, p.scale}, "scaled_mod", t);
    CHECK(m.name() == "scaled_mod");
    CHECK(m.target() == t);
    REQUIRE(m.functions().size() == 1);
    const ModuleFunction &f = m.functions()[0];
    CHECK(f.name == "scaled_mod");
    REQUIRE(f.args.size() == 3);
    CHECK(f.args[0].name == "in");
    CHECK(f.args[0].kind == Argument::InputBuffer);
    CHECK(f.args[0].type == Int(32));
    CHECK(f.args[0].dimensions == 2);
    CHECK(f.args[1].name == "scale");
    CHECK(f.args[1].kind == Argument::InputScalar);
    CHECK(f.args[2].kind == Argument::OutputBuffer);
    CHECK(f.args[2].dimensions == 2);

    m.compile({{OutputFileType::c_header, dir.file("m.h")},
               {OutputFileType::static_library, dir.file("m.a")},
               {OutputFileType::c_source, dir.file("m.c")},
               {OutputFileType::stmt, dir.file("m.stmt")}});
    p.out.compile_to({{OutputFileType::c_header, dir.file("c.h")},
                      {OutputFileType::static_library, dir.file("c.a")},
                      {OutputFileType::c_source, dir.file("c.c")},
                      {OutputFileType::stmt, dir.file("c.stmt")}},
                     {p.in, p.scale}, "scaled_mod", t);
    CHECK_THAT(read_bytes(dir.file("m.h")), Contains("int scaled_mod("));
    CHECK(read_bytes(dir.file("m.h")) == read_bytes(dir.file("c.h")));
    CHECK(read_bytes(dir.file("m.a")).rfind("!<arch>\n", 0) == 0);
    CHECK(read_bytes(dir.file("m.a")) == read_bytes(dir.file("c.a")));
    CHECK(read_bytes(dir.file("m.c")) == read_bytes(dir.file("c.c")));
    CHECK(read_bytes(dir.file("m.stmt")) == read_bytes(dir.file("c.stmt")));

    // A Module can write more outputs later, from the same lowering: a
    // schedule changed since does not reach it.
    p.out.parallel(p.y);
    m.compile({{OutputFileType::stmt, dir.file("later.stmt")},
               {OutputFileType::object, dir.file("later.o")}});
    CHECK(read_bytes(dir.file("later.stmt")) == read_bytes(dir.file("m.stmt")));
    CHECK(read_bytes(dir.file("later.o"))
              .rfind("\x7f"
                     "ELF",
                     0) == 0);
    p.out.compile_to({{OutputFileType::stmt, dir.file("parallel.stmt")}}, {p.in, p.scale},
                     "scaled_mod", t);
    CHECK(read_bytes(dir.file("parallel.stmt")) != read_bytes(dir.file("m.stmt")));
}

TEST_CASE("compat module: Pipeline::compile_to_module names the Module after the first output",
          "[compat][module]") {
    ScratchDir dir("pipeline");
    Var x("x");
    Func a("first_out"), b("second_out");
    a(x) = x * 2;
    b(x) = x + 1;
    Pipeline p({a, b});
    Module m = p.compile_to_module({});
    CHECK(m.name() == "first_out");
    CHECK(m.target() == get_target_from_environment());
    REQUIRE(m.functions().size() == 1);
    REQUIRE(m.functions()[0].args.size() == 2); // the two outputs
    CHECK(m.functions()[0].args[0].kind == Argument::OutputBuffer);
    CHECK(m.functions()[0].args[1].kind == Argument::OutputBuffer);
    m.compile({{OutputFileType::c_header, dir.file("p.h")}});
    CHECK_THAT(read_bytes(dir.file("p.h")), Contains("int first_out("));
    // Func::compile_to_module defaults the name to the Func's.
    CHECK(b.compile_to_module({}).name() == "second_out");
}

TEST_CASE("compat module: bad modules and outputs are errors naming what is wrong",
          "[compat][module][error]") {
    ScratchDir dir("errors");
    Scale p;
    Module m = p.out.compile_to_module({p.in, p.scale});
    CHECK_THROWS_WITH(m.compile({{OutputFileType::object, dir.file("t.o")},
                                 {OutputFileType::python_extension, dir.file("t.py.cpp")}}),
                      Contains("Module::compile: Loom cannot write the python_extension output") &&
                          Contains("t.py.cpp") && Contains("static_library"));
    CHECK_FALSE(std::filesystem::exists(dir.file("t.o")));
    CHECK_THROWS_WITH(m.compile({{OutputFileType::c_header, ""}}),
                      Contains("Module::compile: the c_header output has no file name"));
    CHECK_THROWS_WITH(m.compile({{OutputFileType::c_header, dir.file("no/such/dir/x.h")}}),
                      Contains("Cannot open") && Contains("x.h"));
    CHECK_THROWS_WITH(p.out.compile_to_module({p.in, p.scale}, "9lives"),
                      Contains("compile_to_module: the function name \"9lives\" is not a C "
                               "identifier"));
    CHECK_THROWS_WITH(Pipeline().compile_to_module({}),
                      Contains("compile_to_module of an empty Pipeline"));
    Func undefined("undefined");
    CHECK_THROWS_WITH(undefined.compile_to_module({}),
                      Contains("Func undefined is compiled by compile_to_module but has no "
                               "definition"));
}
