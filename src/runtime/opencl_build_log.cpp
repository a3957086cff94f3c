// Quotes the kernel source lines a compiler's build log points at, so that a
// build failure shows the offending generated code next to the diagnostic.
// Compilers based on clang (PoCL, most GPU drivers) write
// "<source>:LINE:COL: error: ..."; the file part varies by driver, and lines
// in headers (".h") are skipped since they are not the program's source.

#include <cctype>
#include <vector>

#include "opencl_internal.h"

namespace loom_rt {

namespace {

// Parses "LINE:COL:" at s[i..]; returns false when it is not there.
bool parse_line_col(const std::string &s, size_t i, int *line, int *col) {
    auto number = [&](size_t &k, int *out) {
        size_t start = k;
        long v = 0;
        while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k])) && k - start < 9)
            v = v * 10 + (s[k++] - '0');
        *out = int(v);
        return k > start;
    };
    size_t k = i;
    if (!number(k, line) || k >= s.size() || s[k] != ':') return false;
    k++;
    return number(k, col) && k < s.size() && s[k] == ':';
}

// The first "FILE:LINE:COL:" of a log line whose FILE is not a header.
bool locate(const std::string &log_line, int *line, int *col) {
    for (size_t i = log_line.find(':'); i != std::string::npos; i = log_line.find(':', i + 1)) {
        if (i == 0 || !parse_line_col(log_line, i + 1, line, col)) continue;
        size_t start = log_line.rfind(' ', i);
        std::string file = log_line.substr(start == std::string::npos ? 0 : start + 1,
                                           i - (start == std::string::npos ? 0 : start + 1));
        if (file.size() >= 2 && file.compare(file.size() - 2, 2, ".h") == 0) return false;
        return true;
    }
    return false;
}

std::vector<std::string> split_lines(const std::string &text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

} // namespace

std::string quote_source_lines_from_log(const std::string &source, const std::string &log) {
    const size_t max_quoted = 10;
    std::vector<std::string> source_lines = split_lines(source);
    std::vector<int> seen;
    std::string out;
    for (const std::string &log_line : split_lines(log)) {
        int line = 0, col = 0;
        if (!locate(log_line, &line, &col)) continue;
        if (line < 1 || size_t(line) > source_lines.size()) continue;
        bool repeated = false;
        for (int l : seen) repeated = repeated || l == line;
        if (repeated) continue;
        if (seen.size() == max_quoted) break;
        seen.push_back(line);
        const std::string &text = source_lines[size_t(line - 1)];
        std::string number = std::to_string(line);
        out += "  " + number + " | " + text + "\n";
        // A caret under the column, keeping the line's tabs so that it aligns.
        std::string caret = "  " + std::string(number.size(), ' ') + " | ";
        for (int c = 1; c < col && size_t(c - 1) < text.size(); c++)
            caret += text[size_t(c - 1)] == '\t' ? '\t' : ' ';
        out += caret + "^\n";
    }
    if (!out.empty()) out.pop_back();
    return out;
}

} // namespace loom_rt
