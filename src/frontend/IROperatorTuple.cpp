// select and mux over Tuples and Func calls (loom/IROperator.h).

#include "ir/Error.h"
#include "loom/Func.h"
#include "loom/IROperator.h"

namespace loom {

namespace {

void check_same_size(size_t a, size_t b, const char *what) {
    if (a != b)
        user_error(what << " of Tuples of different sizes (" << a << " and " << b
                        << "); the Tuples must have one size");
}

} // namespace

Tuple select(const Tuple &condition, const Tuple &true_value, const Tuple &false_value) {
    check_same_size(condition.size(), true_value.size(), "select");
    check_same_size(true_value.size(), false_value.size(), "select");
    std::vector<Expr> r;
    for (size_t i = 0; i < true_value.size(); i++)
        r.push_back(select(condition[i], true_value[i], false_value[i]));
    return Tuple(r);
}

Tuple select(const Expr &condition, const Tuple &true_value, const Tuple &false_value) {
    check_same_size(true_value.size(), false_value.size(), "select");
    std::vector<Expr> r;
    for (size_t i = 0; i < true_value.size(); i++)
        r.push_back(select(condition, true_value[i], false_value[i]));
    return Tuple(r);
}

Expr select(const Expr &condition, const FuncRef &true_value, const FuncRef &false_value) {
    return select(condition, Expr(true_value), Expr(false_value));
}

Expr mux(const Expr &index, const std::initializer_list<Expr> &values) {
    return mux(index, std::vector<Expr>(values));
}

Expr mux(const Expr &index, const Tuple &values) {
    return mux(index, values.as_vector());
}

Expr mux(const Expr &index, const std::initializer_list<FuncRef> &values) {
    std::vector<Expr> v;
    for (const FuncRef &f : values) v.push_back(Expr(f));
    return mux(index, v);
}

Tuple mux(const Expr &index, const std::initializer_list<Tuple> &values) {
    return mux(index, std::vector<Tuple>(values));
}

Tuple mux(const Expr &index, const std::vector<Tuple> &values) {
    if (values.empty()) user_error("mux needs at least one value");
    size_t n = values[0].size();
    for (const Tuple &t : values) check_same_size(n, t.size(), "mux");
    std::vector<Expr> r;
    for (size_t i = 0; i < n; i++) {
        std::vector<Expr> column;
        for (const Tuple &t : values) column.push_back(t[i]);
        r.push_back(mux(index, column));
    }
    return Tuple(r);
}

} // namespace loom
