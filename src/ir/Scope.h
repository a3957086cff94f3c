#ifndef LOOM_IR_SCOPE_H
#define LOOM_IR_SCOPE_H

// A stack of name -> value bindings, for visitors that track enclosing lets
// and loops. push() shadows, pop() restores the previous binding.

#include <map>
#include <string>
#include <vector>

#include "ir/Error.h"

namespace loom {
namespace Internal {

template <typename T> class Scope {
    std::map<std::string, std::vector<T>> table;
    const Scope *containing = nullptr;

public:
    Scope() = default;
    /** Look names up in `parent` too when not found here. */
    void set_containing_scope(const Scope *parent) { containing = parent; }

    bool contains(const std::string &name) const {
        auto it = table.find(name);
        if (it != table.end() && !it->second.empty()) return true;
        return containing && containing->contains(name);
    }
    const T &get(const std::string &name) const {
        auto it = table.find(name);
        if (it != table.end() && !it->second.empty()) return it->second.back();
        internal_assert(containing, "name not in scope: " << name);
        return containing->get(name);
    }
    const T *find(const std::string &name) const {
        auto it = table.find(name);
        if (it != table.end() && !it->second.empty()) return &it->second.back();
        return containing ? containing->find(name) : nullptr;
    }
    void push(const std::string &name, const T &value) { table[name].push_back(value); }
    void pop(const std::string &name) {
        auto it = table.find(name);
        internal_assert(it != table.end() && !it->second.empty(),
                        "pop of name not in scope: " << name);
        it->second.pop_back();
        if (it->second.empty()) table.erase(it);
    }
    bool empty() const { return table.empty(); }
    /** Innermost bindings, by name. */
    std::map<std::string, T> flatten() const {
        std::map<std::string, T> out;
        if (containing) out = containing->flatten();
        for (auto &kv : table) out[kv.first] = kv.second.back();
        return out;
    }
};

/** Pushes on construction and pops on destruction. */
template <typename T> struct ScopedBinding {
    Scope<T> *scope;
    std::string name;
    ScopedBinding(Scope<T> &s, const std::string &n, const T &v) : scope(&s), name(n) {
        s.push(n, v);
    }
    ~ScopedBinding() { scope->pop(name); }
    ScopedBinding(const ScopedBinding &) = delete;
    ScopedBinding &operator=(const ScopedBinding &) = delete;
};

} // namespace Internal
} // namespace loom

#endif
