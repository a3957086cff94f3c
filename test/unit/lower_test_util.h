#ifndef LOOM_TEST_LOWER_TEST_UTIL_H
#define LOOM_TEST_LOWER_TEST_UTIL_H

// Helpers for the [lower] tests: build Functions without the front end and
// query the structure of lowered statements.

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "ir/IR.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "loom/Error.h"
#include "loom/Schedule.h"
#include "loom/Target.h"

namespace lower_test {

using namespace loom;
using namespace loom::Internal;

inline Expr ivar(const std::string &name) {
    return Variable::make(Int(32), name);
}

/** A Func defined as name(args) = value. */
inline Function make_func(const std::string &name, const std::vector<std::string> &args,
                          const std::vector<Expr> &values) {
    Function f(name);
    f.define(args, values);
    return f;
}

/** A split of `old` into "<old>.o" and "<old>.i". */
inline Split split_of(const std::string &old, int factor, TailStrategy tail) {
    return Split{Split::SplitVar, old, old + ".o", old + ".i", factor, false, tail};
}

/** Every node of s of type T satisfying pred. */
template <typename T>
std::vector<const T *> find_nodes(
    const Stmt &s, const std::function<bool(const T *)> &pred = [](const T *) { return true; }) {
    std::vector<const T *> out;
    visit_all(s, [&](const IRNode *n) {
        if (n->node_type == T::_node_type && pred(static_cast<const T *>(n)))
            out.push_back(static_cast<const T *>(n));
    });
    return out;
}

inline int count_loom_calls(const Stmt &s) {
    return int(
        find_nodes<Call>(s, [](const Call *c) { return c->call_type == Call::Loom; }).size());
}

inline std::vector<std::string> loop_names(const Stmt &s) {
    std::vector<std::string> names;
    for (const For *f : find_nodes<For>(s)) names.push_back(f->name);
    return names;
}

/** Names of the runtime functions the asserts of s call, in order. */
inline std::vector<std::string> assert_messages(const Stmt &s) {
    std::vector<std::string> names;
    for (const AssertStmt *a : find_nodes<AssertStmt>(s)) {
        const Call *c = a->message.as<Call>();
        names.push_back(c ? c->name : "?");
    }
    return names;
}

/** The string arguments of every assert calling `function`. */
inline std::vector<std::vector<std::string>> assert_strings(const Stmt &s,
                                                            const std::string &function) {
    std::vector<std::vector<std::string>> out;
    for (const AssertStmt *a : find_nodes<AssertStmt>(s)) {
        const Call *c = a->message.as<Call>();
        if (!c || c->name != function) continue;
        std::vector<std::string> strings;
        for (const Expr &e : c->args) {
            if (const StringImm *str = e.as<StringImm>()) strings.push_back(str->value);
        }
        out.push_back(strings);
    }
    return out;
}

} // namespace lower_test

#endif
