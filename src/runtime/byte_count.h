// Byte counts read from environment variables (LOOM_STREAMING_STORES,
// LOOM_ALLOCATION_CACHE): a decimal number with an optional k, m or g
// suffix (powers of 1024, either case).

#ifndef LOOM_RUNTIME_BYTE_COUNT_H
#define LOOM_RUNTIME_BYTE_COUNT_H

#include <cstdint>

namespace loom_runtime {

/** Parses `text` into *bytes (saturated at INT64_MAX); false, leaving
 * *bytes alone, when it is not such a count. */
bool parse_byte_count(const char *text, int64_t *bytes);

} // namespace loom_runtime

#endif
