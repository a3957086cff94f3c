// The autotuner's cache: <key>.schedule.json (the winning schedule) and
// <key>.meta (definition hashes and times, one "name value" per line).

#include "autoschedule/TuningCache.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "frontend/RFactor.h"
#include "ir/IRPrinter.h"

namespace loom {
namespace Internal {

namespace {

uint64_t fnv(const std::string &text) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

std::string hex(uint64_t v) {
    std::ostringstream os;
    os << std::hex << v;
    return os.str();
}

std::string default_dir() {
    if (const char *d = std::getenv("LOOM_TUNING_CACHE"); d && *d) return d;
    if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
        return std::string(x) + "/loom/tuning";
    if (const char *h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/loom/tuning";
    return (std::filesystem::temp_directory_path() / "loom_tuning").string();
}

void print_definition(std::ostream &os, const Definition &d) {
    for (const Expr &e : d.args) os << e << ",";
    os << "=";
    for (const Expr &e : d.values) os << e << ";";
    for (const ReductionVariable &rv : d.rvars)
        os << rv.var << "[" << rv.min << "," << rv.extent << "]";
    for (const Expr &p : d.predicates) os << " where " << p;
    os << "\n";
}

} // namespace

TuningCache::TuningCache(const std::string &dir) : dir_(dir.empty() ? default_dir() : dir) {}

std::string TuningCache::key(const std::vector<Function> &outputs,
                             const std::vector<std::vector<int>> &sizes, const std::string &target,
                             int threads) {
    std::ostringstream os;
    std::string first;
    for (const Function &f : outputs) {
        os << f.name() << ",";
        if (first.empty()) first = f.name();
    }
    for (const auto &s : sizes) {
        os << "[";
        for (int v : s) os << v << ",";
        os << "]";
    }
    os << target << "|" << threads;
    std::string safe;
    for (char c : first) safe += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return safe + "-" + hex(fnv(os.str()));
}

std::vector<std::pair<std::string, uint64_t>>
TuningCache::definitions_of(const std::vector<Function> &all_funcs) {
    // The algorithm as written: updates that rfactor() replaced count as
    // they were defined, and its intermediates not at all (a pipeline
    // keeps the winner's rfactors after tuning).
    std::set<std::string> intermediates;
    for (const Function &f : all_funcs)
        for (const Definition &u : f.updates())
            for (auto r = rfactor_record(u); r; r = rfactor_record(r->original))
                intermediates.insert(r->intermediate);
    std::vector<Function> funcs;
    for (const Function &f : all_funcs)
        if (!intermediates.count(f.name())) funcs.push_back(f);
    std::map<std::string, std::string> position;
    for (size_t i = 0; i < funcs.size(); i++) position[funcs[i].name()] = "#" + std::to_string(i);
    auto is_name_char = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
    };
    std::vector<std::pair<std::string, uint64_t>> out;
    for (const Function &f : funcs) {
        std::ostringstream os;
        for (const std::string &a : f.args()) os << a << ",";
        os << "\n";
        print_definition(os, f.definition());
        for (const Definition &u : f.updates()) {
            Definition d = u;
            while (auto r = rfactor_record(d)) d = r->original;
            print_definition(os, d);
        }
        // Whole names of Funcs become their positions.
        // So do its pure Vars (Loom makes up the names of some).
        std::map<std::string, std::string> names = position;
        for (size_t a = 0; a < f.args().size(); a++) names[f.args()[a]] = "%" + std::to_string(a);
        std::string text = os.str(), canon;
        for (size_t i = 0; i < text.size();) {
            if (!is_name_char(text[i])) {
                canon += text[i++];
                continue;
            }
            size_t j = i;
            while (j < text.size() && is_name_char(text[j])) j++;
            std::string word = text.substr(i, j - i);
            auto it = names.find(word);
            canon += it == names.end() ? word : it->second;
            i = j;
        }
        out.emplace_back(f.name(), fnv(canon));
    }
    return out;
}

std::optional<TuningEntry> TuningCache::load(const std::string &key) const {
    std::ifstream meta(dir_ + "/" + key + ".meta");
    if (!meta) return std::nullopt;
    TuningEntry e;
    std::string what;
    while (meta >> what) {
        if (what == "func") {
            std::string name, h;
            meta >> name >> h;
            e.definitions.emplace_back(name, std::stoull(h, nullptr, 16));
        } else if (what == "best_ms") {
            meta >> e.best_ms;
        } else if (what == "baseline_ms") {
            meta >> e.baseline_ms;
        } else {
            std::string rest;
            std::getline(meta, rest);
        }
    }
    try {
        e.schedule = PipelineSchedule::load(dir_ + "/" + key + ".schedule.json");
    } catch (const std::exception &) {
        return std::nullopt; // a damaged entry is tuned again
    }
    return e;
}

void TuningCache::store(const std::string &key, const TuningEntry &entry) const {
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    try {
        entry.schedule.save(dir_ + "/" + key + ".schedule.json");
    } catch (const std::exception &) {
        return;
    }
    std::ofstream meta(dir_ + "/" + key + ".meta");
    meta << "loom_tuning 1\n";
    for (const auto &[name, h] : entry.definitions)
        meta << "func " << name << " " << hex(h) << "\n";
    meta << "best_ms " << entry.best_ms << "\nbaseline_ms " << entry.baseline_ms << "\n";
}

std::vector<std::string> stale_funcs(const std::vector<std::pair<std::string, uint64_t>> &cached,
                                     const std::vector<std::pair<std::string, uint64_t>> &now) {
    // Compared by position: a Func whose name alone changed is the same Func.
    std::vector<std::string> out;
    for (size_t i = 0; i < std::max(cached.size(), now.size()); i++) {
        if (i >= now.size())
            out.push_back(cached[i].first);
        else if (i >= cached.size() || cached[i].second != now[i].second)
            out.push_back(now[i].first);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace Internal
} // namespace loom
