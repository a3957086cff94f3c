#ifndef LOOM_APPS_BENCH_BAR_CHART_H
#define LOOM_APPS_BENCH_BAR_CHART_H

// A small horizontal bar chart written as PNG: one row per label, up to two
// bars per row (e.g. run-time and compile-time ratios), a vertical line at
// 1.0 and each bar's value printed at its end. Text uses a built-in 5x7
// font (lower-case letters, digits and a few signs; upper case prints as
// lower case).

#include <string>
#include <vector>

namespace loom_apps_bench {

struct BarRow {
    std::string label;
    /** Values <= 0 (e.g. a side that did not run) draw no bar. */
    double first = 0, second = 0;
};

/** Writes the chart to `path` (throws std::runtime_error if it cannot). */
void write_bar_chart(const std::string &path, const std::string &title,
                     const std::string &first_name, const std::string &second_name,
                     const std::vector<BarRow> &rows);

} // namespace loom_apps_bench

#endif
