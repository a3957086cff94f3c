// Lesson 3: inspecting the generated code.
//
// compile_to_lowered_stmt writes the loop IR Loom generated (text or HTML),
// and compile_to_llvm_assembly the LLVM IR. Setting LOOM_DEBUG=2 in the
// environment prints the IR after every lowering pass.

#include <Loom.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

static std::string read_file(const char *path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

int main() {
    loom::Func gradient("gradient");
    loom::Var x("x"), y("y");
    gradient(x, y) = x + y;

    // The lowered statement: loops over y then x, storing into the output.
    gradient.compile_to_lowered_stmt("gradient.stmt", {});
    gradient.compile_to_lowered_stmt("gradient.html", {}, loom::HTML);
    gradient.compile_to_llvm_assembly("gradient.ll", {}, "gradient");

    std::string stmt = read_file("gradient.stmt");
    std::string html = read_file("gradient.html");
    std::string ll = read_file("gradient.ll");
    std::printf("%s\n", stmt.c_str());

    bool ok = true;
    auto expect = [&](bool cond, const char *what) {
        if (!cond) {
            std::printf("Missing: %s\n", what);
            ok = false;
        }
    };
    expect(stmt.find("for (gradient.s0.y") != std::string::npos, "a loop over y in gradient.stmt");
    expect(stmt.find("for (gradient.s0.x") != std::string::npos, "a loop over x in gradient.stmt");
    expect(html.find("<html") != std::string::npos, "an HTML document in gradient.html");
    expect(ll.find("define") != std::string::npos && ll.find("gradient") != std::string::npos,
           "an LLVM function named gradient in gradient.ll");

    // print_loop_nest shows only the loops.
    gradient.print_loop_nest();

    if (!ok) return 1;
    std::printf("Success!\n");
    return 0;
}
