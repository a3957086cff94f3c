// loom_can_use_cpu_features(): which x86 extensions the running CPU has, for
// the dispatching wrapper of multitarget libraries.

#include <cstring>

#include "LoomRuntime.h"

namespace {

#if defined(__x86_64__) || defined(__i386__)
// __builtin_cpu_supports needs a literal name, hence one line per extension
// (the names x86_isa_extensions() gives targets).
bool cpu_has(const char *name, size_t length) {
    __builtin_cpu_init();
#define LOOM_CPU_FEATURE(literal)                                                                  \
    if (length == sizeof(literal) - 1 && std::strncmp(name, literal, length) == 0)                 \
        return __builtin_cpu_supports(literal);
    LOOM_CPU_FEATURE("sse4.1")
    LOOM_CPU_FEATURE("avx")
    LOOM_CPU_FEATURE("avx2")
    LOOM_CPU_FEATURE("fma")
    LOOM_CPU_FEATURE("fma4")
    LOOM_CPU_FEATURE("f16c")
    LOOM_CPU_FEATURE("avx512f")
    LOOM_CPU_FEATURE("avx512cd")
    LOOM_CPU_FEATURE("avx512bw")
    LOOM_CPU_FEATURE("avx512dq")
    LOOM_CPU_FEATURE("avx512vl")
    LOOM_CPU_FEATURE("avx512ifma")
    LOOM_CPU_FEATURE("avx512vbmi")
    LOOM_CPU_FEATURE("avx512vnni")
    LOOM_CPU_FEATURE("avx512bf16")
    LOOM_CPU_FEATURE("avxvnni")
    LOOM_CPU_FEATURE("avx512bitalg")
    LOOM_CPU_FEATURE("avx512vbmi2")
    LOOM_CPU_FEATURE("avx512vpopcntdq")
    LOOM_CPU_FEATURE("avx512vp2intersect")
#undef LOOM_CPU_FEATURE
    return false; // unknown, or too new for this compiler: do not use it
}
#else
bool cpu_has(const char *, size_t) {
    return false;
}
#endif

} // namespace

extern "C" int loom_can_use_cpu_features(const char *features) {
    if (!features) return 1;
    const char *p = features;
    while (*p) {
        const char *end = std::strchr(p, ',');
        size_t length = end ? size_t(end - p) : std::strlen(p);
        if (length && !cpu_has(p, length)) return 0;
        p += length;
        if (*p == ',') p++;
    }
    return 1;
}
