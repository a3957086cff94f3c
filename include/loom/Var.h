#ifndef LOOM_VAR_H
#define LOOM_VAR_H

/** \file Var: a named pure coordinate of a Func. */

#include <string>

#include "loom/Expr.h"

namespace loom {

/** A pure coordinate used in Func definitions; converts to an Int(32) Expr. */
class Var {
    std::string name_;

public:
    /** A Var with a unique automatic name. */
    Var();
    explicit Var(const std::string &name);

    explicit Var(const char *name) : Var(std::string(name)) {}

    const std::string &name() const { return name_; }
    bool same_as(const Var &o) const { return name_ == o.name_; }

    /** The Int(32) Variable named after this Var. */
    operator Expr() const;

    /** Implicit Vars (Halide's): where a call or definition has the
     * placeholder `_`, it stands for as many of _0, _1, ... as the Func
     * needs: `f(_) = g(_) + 1` defines f(_0, _1) = g(_0, _1) + 1 for a 2-D g.
     * implicit(n) is the Var named "_n". */
    static Var implicit(int n);
    static bool is_implicit(const std::string &name);
    bool is_implicit() const { return is_implicit(name_); }
    /** n for "_n", -1 for other names. */
    static int implicit_index(const std::string &name);
    int implicit_index() const { return implicit_index(name_); }
    static bool is_placeholder(const std::string &name) { return name == "_"; }
    bool is_placeholder() const { return is_placeholder(name_); }

    /** The loop (Halide's `__outermost`) outside all loops of a stage, inside
     * its production: `g.compute_at(f, Var::outermost())` computes g once
     * per production of f, before f's loops run. */
    static Var outermost() { return Var(outermost_name()); }
    static const char *outermost_name() { return "__outermost"; }
};

/** The placeholder for implicit arguments, and the first ten implicit Vars
 * (for schedules of Funcs defined with `_`). */
inline const Var _("_");
inline const Var _0("_0"), _1("_1"), _2("_2"), _3("_3"), _4("_4"), _5("_5"), _6("_6"), _7("_7"),
    _8("_8"), _9("_9");

} // namespace loom

#endif
