// Sets (or, with nullptr, unsets) an environment variable for one scope and
// restores what was there before.
#pragma once

#include <cstdlib>
#include <string>

namespace loom_test {

class ScopedEnv {
public:
    ScopedEnv(const char *name, const char *value) : name(name) {
        if (const char *old = std::getenv(name)) saved = old, had_value = true;
        if (value)
            setenv(name, value, 1);
        else
            unsetenv(name);
    }
    ~ScopedEnv() {
        if (had_value)
            setenv(name.c_str(), saved.c_str(), 1);
        else
            unsetenv(name.c_str());
    }
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
    std::string name, saved;
    bool had_value = false;
};

} // namespace loom_test
