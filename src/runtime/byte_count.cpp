#include "byte_count.h"

#include <cctype>
#include <cstdlib>

namespace loom_runtime {

bool parse_byte_count(const char *text, int64_t *bytes) {
    if (!text || !std::isdigit(static_cast<unsigned char>(*text))) return false;
    char *end = nullptr;
    long long n = std::strtoll(text, &end, 10);
    if (end == text || n < 0) return false;
    int64_t scale = 1;
    if (*end) {
        switch (std::tolower(static_cast<unsigned char>(*end))) {
        case 'k':
            scale = int64_t(1) << 10;
            break;
        case 'm':
            scale = int64_t(1) << 20;
            break;
        case 'g':
            scale = int64_t(1) << 30;
            break;
        default:
            return false;
        }
        if (end[1] != '\0') return false;
    }
    *bytes = n > INT64_MAX / scale ? INT64_MAX : int64_t(n) * scale;
    return true;
}

} // namespace loom_runtime
