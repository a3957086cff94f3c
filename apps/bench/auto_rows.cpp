#include "auto_rows.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <exception>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace loom_apps_bench {

namespace {

/** The names --auto accepts, lower case, and the sides' names for them. */
const std::map<std::string, std::string> &scheduler_names() {
    static const std::map<std::string, std::string> names = {{"loom", "Loom"},
                                                             {"tuned", tuned_scheduler},
                                                             {"loomtuned", tuned_scheduler},
                                                             {"mullapudi", "Mullapudi2016"},
                                                             {"mullapudi2016", "Mullapudi2016"},
                                                             {"adams", "Adams2019"},
                                                             {"adams2019", "Adams2019"}};
    return names;
}

/** One line, for a table cell and a CSV field. */
std::string one_line(std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    std::replace(text.begin(), text.end(), ',', ';');
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}

/** Compiles (choosing the schedule), runs once and checks one scheduler's
 * pipeline on the side that offers it. */
AutoCandidate prepare_one(const std::string &scheduler, const SideHand &loom,
                          const SideHand &halide) {
    AutoCandidate c;
    c.cell.scheduler = scheduler;
    auto offers = [&](const SideHand &s) {
        return s.side &&
               std::count(s.side->autoschedulers.begin(), s.side->autoschedulers.end(), scheduler);
    };
    c.halide = !offers(loom) && offers(halide);
    const SideHand &side = c.halide ? halide : loom;
    if (!offers(side)) {
        c.cell.failure = "no side of this build offers it";
        return c;
    }
    if (!side.app) {
        c.cell.failure = "the app is missing on this side";
        return c;
    }
    if (!side.hand) {
        // The check below needs the hand output of the same side.
        c.cell.failure = "the side's hand schedule failed, so nothing to check against";
        return c;
    }
    try {
        c.pipeline = side.app->make_auto(scheduler);
        c.pipeline.compile();
        c.cell.choose_ms = c.pipeline.choose_ms();
    } catch (const std::exception &e) {
        c.cell.failure = "choosing or compiling: " + one_line(e.what());
        return c;
    }
    try {
        c.pipeline.run();
    } catch (const std::exception &e) {
        c.cell.failure = "running: " + one_line(e.what());
        return c;
    }
    auto [difference, within] = compare(side.hand->output(), c.pipeline.output(),
                                        side.hand->tolerance, side.hand->tolerance < 1);
    if (!within) {
        std::ostringstream s;
        s << "output differs from the hand schedule's by up to " << difference;
        c.cell.failure = s.str();
    }
    return c;
}

/** A failure short enough for a table line: Halide's internal errors name
 * the source file with its build machine's folders and an empty user
 * location, which push the condition that failed out of sight. */
std::string table_reason(const std::string &failure) {
    static const std::regex folders("[^ ]*/([^/ ]+:[0-9]+)"),
        empty_location(" triggered by user code at :");
    std::string s = std::regex_replace(failure, folders, "$1");
    return std::regex_replace(s, empty_location, "");
}

} // namespace

bool parse_auto_option(const std::string &arg, std::vector<std::string> &schedulers) {
    if (arg != "--auto" && arg.rfind("--auto=", 0) != 0) return false;
    schedulers.clear();
    if (arg == "--auto") {
        for (const char *s : {"Loom", tuned_scheduler, "Mullapudi2016", "Adams2019"})
            schedulers.push_back(s);
        return true;
    }
    std::istringstream list(arg.substr(7));
    for (std::string name; std::getline(list, name, ',');) {
        std::string lower;
        for (char c : name) lower += char(std::tolower(static_cast<unsigned char>(c)));
        auto found = scheduler_names().find(lower);
        if (found == scheduler_names().end())
            throw std::invalid_argument("--auto: unknown auto-scheduler '" + name +
                                        "' (known: loom, tuned, mullapudi, adams)");
        if (!std::count(schedulers.begin(), schedulers.end(), found->second))
            schedulers.push_back(found->second);
    }
    if (schedulers.empty()) throw std::invalid_argument("--auto=: no auto-scheduler named");
    return true;
}

std::vector<AutoCandidate> prepare_autos(const std::vector<std::string> &schedulers,
                                         const SideHand &loom, const SideHand &halide) {
    std::vector<AutoCandidate> candidates;
    for (const std::string &s : schedulers) candidates.push_back(prepare_one(s, loom, halide));
    return candidates;
}

void print_auto_cells(const std::vector<AutoCell> &cells) {
    for (const AutoCell &c : cells) {
        if (c.ok())
            std::printf(
                "  auto %-14s %8.2f ms  hand/auto %5.2f  fastest %5.2f  chosen in %.1f ms\n",
                c.scheduler.c_str(), c.run_ms, c.ratio(), c.fastest_ratio(), c.choose_ms);
        else
            std::printf("  auto %-14s failed: %.200s\n", c.scheduler.c_str(),
                        table_reason(c.failure).c_str());
    }
}

void print_auto_summary(const std::vector<std::string> &schedulers,
                        const std::vector<std::vector<AutoCell>> &apps) {
    std::printf("\nautomatic schedules: geomean of hand/auto on the scheduler's own side (>1: "
                "the auto schedule is faster)\n");
    for (size_t s = 0; s < schedulers.size(); s++) {
        std::vector<double> ratios, fastest, choose;
        int failed = 0;
        for (const std::vector<AutoCell> &cells : apps) {
            if (s >= cells.size()) continue;
            const AutoCell &c = cells[s];
            if (!c.ok()) {
                failed++;
                continue;
            }
            ratios.push_back(c.ratio());
            fastest.push_back(c.fastest_ratio());
            choose.push_back(c.choose_ms);
        }
        std::sort(choose.begin(), choose.end());
        std::printf("  %-14s hand/auto %5.2f  fastest %5.2f  over %zu apps, %d failed",
                    schedulers[s].c_str(), geomean(ratios), geomean(fastest), ratios.size(),
                    failed);
        if (!choose.empty())
            std::printf("; choosing took %.1f ms (median), %.1f ms at most",
                        choose[choose.size() / 2], choose.back());
        std::printf("\n");
    }
}

std::string auto_csv_header(const std::vector<std::string> &schedulers) {
    std::string h;
    for (const std::string &s : schedulers)
        for (const char *field : {"_ms", "_fastest_ms", "_hand_over_auto",
                                  "_fastest_hand_over_auto", "_choose_ms", "_status"})
            h += "," + s + field;
    return h;
}

std::string auto_csv_fields(const std::vector<AutoCell> &cells) {
    std::ostringstream f;
    for (const AutoCell &c : cells)
        f << ',' << c.run_ms << ',' << c.fastest_ms << ',' << c.ratio() << ',' << c.fastest_ratio()
          << ',' << c.choose_ms << ',' << (c.ok() ? std::string("ok") : "failed: " + c.failure);
    return f.str();
}

} // namespace loom_apps_bench
