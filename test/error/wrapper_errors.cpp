// Misuse of Func::in, clone_in and ImageParam::in: each is a CompileError
// that names the Funcs and says what to do instead.

#include <catch2/catch.hpp>

#include "Loom.h"

using namespace loom;
using Catch::Contains;

TEST_CASE("a Func cannot be wrapped for itself", "[error][wrappers]") {
    Var x("x");
    Func f("self_wrapped");
    f(x) = x;
    CHECK_THROWS_WITH(f.in(f), Contains("self_wrapped.in(self_wrapped)") &&
                                   Contains("cannot be wrapped for itself"));
}

TEST_CASE("an undefined Func cannot be wrapped", "[error][wrappers]") {
    Func f("not_yet"), g("reader");
    CHECK_THROWS_WITH(f.in(g),
                      Contains("Func not_yet has no definition") && Contains("not_yet.in(reader)"));
    CHECK_THROWS_WITH(f.in(), Contains("Func not_yet has no definition"));
}

TEST_CASE("in() with an empty or repeated list of callers", "[error][wrappers]") {
    Var x("x");
    Func f("listed"), g("lister");
    f(x) = x;
    CHECK_THROWS_WITH(f.in(std::vector<Func>{}),
                      Contains("names no Func to wrap listed for") && Contains("listed.in()"));
    CHECK_THROWS_WITH(f.in({g, g}), Contains("names Func lister twice"));
}

TEST_CASE("callers that already use different wrappers cannot share one", "[error][wrappers]") {
    Var x("x");
    Func f("shared_src"), g("sg1"), h("sh1"), k("sk1");
    f(x) = x;
    f.in(g);
    f.in(h);
    CHECK_THROWS_WITH(f.in({g, h}), Contains("sg1 and sh1 already use different wrappers") &&
                                        Contains("shared_src_in_sg1") &&
                                        Contains("shared_src_in_sh1"));
    CHECK_THROWS_WITH(f.in({g, k}), Contains("sg1 already uses the wrapper shared_src_in_sg1") &&
                                        Contains("sk1 does not"));
}

TEST_CASE("a caller has either a wrapper or a clone", "[error][wrappers]") {
    Var x("x");
    Func f("twice_src"), g("twice_user");
    f(x) = x;
    f.in(g);
    CHECK_THROWS_WITH(f.clone_in(g), Contains("already has the wrapper twice_src_in_twice_user") &&
                                         Contains("either a wrapper (in) or a clone (clone_in)"));
    ImageParam img(Float(32), 1, "wrapped_img");
    Func r("img_reader");
    r(x) = img(x);
    img.in(r);
    CHECK_THROWS_WITH(Func(img).clone_in(r),
                      Contains("wrapped_img_im.clone_in(img_reader)") &&
                          Contains("already has the wrapper wrapped_img_im_in_img_reader"));
}

TEST_CASE("a Buffer's wrapper names the Funcs that read it", "[error][wrappers]") {
    Buffer<int> b(8, "wrapped_buf");
    Var x("x");
    Func f("buf_reader"), g("buf_reader2");
    f(x) = b(x);
    g(x) = b(x) * 2;
    CHECK_THROWS_WITH(b.in(std::vector<Func>{}),
                      Contains("wrapped_buf.in()") && Contains("names no Func"));
    b.in(f);
    CHECK_THROWS_WITH(b.in({f, g}), Contains("buf_reader already read Buffer wrapped_buf") &&
                                        Contains("wrapped_buf_im_in_buf_reader") &&
                                        Contains("buf_reader2 not"));
}
