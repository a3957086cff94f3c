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

    const std::string &name() const { return name_; }
    bool same_as(const Var &o) const { return name_ == o.name_; }

    /** The Int(32) Variable named after this Var. */
    operator Expr() const;
};

} // namespace loom

#endif
