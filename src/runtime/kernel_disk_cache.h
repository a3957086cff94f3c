// The on-disk cache of compiled device programs, shared by the device APIs:
// a second process loads the binary instead of compiling the source again.
#ifndef LOOM_RUNTIME_KERNEL_DISK_CACHE_H
#define LOOM_RUNTIME_KERNEL_DISK_CACHE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace loom_rt {

/** FNV-1a, 64 bits. */
uint64_t fnv1a64(const void *data, size_t size, uint64_t hash = 14695981039346656037ull);

/** The cache folder: LOOM_KERNEL_CACHE_DIR, else $XDG_CACHE_HOME/loom/kernels,
 * else $HOME/.cache/loom/kernels; "" (no disk cache) when LOOM_KERNEL_CACHE_DIR
 * is set but empty, or no folder can be named. Read on every call. */
std::string kernel_cache_dir();

/** The file holding `key` (everything that decides the binary: source,
 * options, device, driver) under `dir`, named by `prefix` and a hash. */
std::string kernel_cache_path(const std::string &dir, const char *prefix, const std::string &key);

/** The binary stored for `key`; false when there is none, or the file is
 * unreadable, truncated, corrupt or stores another key (a hash collision). */
bool kernel_cache_load(const std::string &path, const std::string &key,
                       std::vector<unsigned char> *binary);

/** Stores the binary for `key` atomically (a temporary file renamed into
 * place, so a concurrent reader sees the old file or the whole new one).
 * Failures are ignored: the cache only saves time. */
void kernel_cache_store(const std::string &path, const std::string &key,
                        const unsigned char *binary, size_t size);

} // namespace loom_rt

#endif
