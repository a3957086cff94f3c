// The registry of LOOM_REGISTER_GENERATOR: names to factories.

#include <map>
#include <mutex>

#include "loom/Generator.h"

namespace loom {
namespace Internal {

namespace {

// A function-local static so registrations from static initializers in any
// translation unit find the map constructed.
std::map<std::string, GeneratorFactory> &factories() {
    static std::map<std::string, GeneratorFactory> m;
    return m;
}

std::mutex &registry_mutex() {
    static std::mutex m;
    return m;
}

} // namespace

void GeneratorRegistry::register_factory(const std::string &name, GeneratorFactory factory) {
    std::lock_guard<std::mutex> lock(registry_mutex());
    if (!factories().emplace(name, std::move(factory)).second)
        throw CompileError("Two generators are registered as '" + name + "'");
}

void GeneratorRegistry::unregister_factory(const std::string &name) {
    std::lock_guard<std::mutex> lock(registry_mutex());
    factories().erase(name);
}

std::vector<std::string> GeneratorRegistry::enumerate() {
    std::lock_guard<std::mutex> lock(registry_mutex());
    std::vector<std::string> names;
    for (const auto &entry : factories()) names.push_back(entry.first);
    return names;
}

std::unique_ptr<GeneratorBase> GeneratorRegistry::create(const std::string &name) {
    GeneratorFactory factory;
    {
        std::lock_guard<std::mutex> lock(registry_mutex());
        auto it = factories().find(name);
        if (it != factories().end()) factory = it->second;
    }
    if (!factory) {
        std::string names;
        for (const std::string &n : enumerate()) names += (names.empty() ? "" : ", ") + n;
        throw CompileError("Unknown generator '" + name + "'; registered generators: " +
                           (names.empty() ? std::string("(none)") : names));
    }
    std::unique_ptr<GeneratorBase> g = factory();
    g->set_generator_name(name);
    return g;
}

} // namespace Internal
} // namespace loom
