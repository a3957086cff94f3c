// Files of the kernel cache: "LOOMKC01", then the key's and the binary's
// sizes and an FNV-1a checksum of both (uint64 each, native byte order), then the
// key and the binary. The whole key is stored and compared, so a collision
// of the 64-bit file-name hash costs a rebuild, never a wrong program.

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel_disk_cache.h"

namespace loom_rt {

namespace {

const char magic[8] = {'L', 'O', 'O', 'M', 'K', 'C', '0', '1'};
const size_t header_size = sizeof(magic) + 3 * sizeof(uint64_t);

// mkdir -p; true when the folder exists afterwards.
bool make_dirs(const std::string &dir) {
    for (size_t i = 1; i <= dir.size(); i++) {
        if (i < dir.size() && dir[i] != '/') continue;
        std::string prefix = dir.substr(0, i);
        if (mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) return false;
    }
    struct stat st;
    return stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

uint64_t checksum(const std::string &key, const unsigned char *binary, size_t size) {
    return fnv1a64(binary, size, fnv1a64(key.data(), key.size()));
}

} // namespace

uint64_t fnv1a64(const void *data, size_t size, uint64_t hash) {
    const unsigned char *p = static_cast<const unsigned char *>(data);
    for (size_t i = 0; i < size; i++) hash = (hash ^ p[i]) * 1099511628211ull;
    return hash;
}

std::string kernel_cache_dir() {
    if (const char *dir = std::getenv("LOOM_KERNEL_CACHE_DIR")) return dir;
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/loom/kernels";
    if (const char *home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/loom/kernels";
    return "";
}

std::string kernel_cache_path(const std::string &dir, const char *prefix, const std::string &key) {
    char name[32];
    std::snprintf(name, sizeof(name), "%016llx",
                  static_cast<unsigned long long>(fnv1a64(key.data(), key.size())));
    return dir + "/" + prefix + name + ".bin";
}

bool kernel_cache_load(const std::string &path, const std::string &key,
                       std::vector<unsigned char> *binary) {
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    unsigned char header[header_size];
    bool ok = std::fread(header, 1, header_size, f) == header_size &&
              std::memcmp(header, magic, sizeof(magic)) == 0;
    uint64_t sizes[3] = {0, 0, 0};
    if (ok) std::memcpy(sizes, header + sizeof(magic), sizeof(sizes));
    // Bound the sizes before allocating: a corrupt header must not ask for petabytes.
    ok = ok && sizes[0] == key.size() && sizes[1] > 0 && sizes[1] < (uint64_t(1) << 32);
    std::string stored_key;
    if (ok) {
        stored_key.resize(size_t(sizes[0]));
        binary->resize(size_t(sizes[1]));
        ok = std::fread(&stored_key[0], 1, stored_key.size(), f) == stored_key.size() &&
             std::fread(binary->data(), 1, binary->size(), f) == binary->size() &&
             std::fgetc(f) == EOF && stored_key == key &&
             checksum(key, binary->data(), binary->size()) == sizes[2];
    }
    std::fclose(f);
    if (!ok) binary->clear();
    return ok;
}

void kernel_cache_store(const std::string &path, const std::string &key,
                        const unsigned char *binary, size_t size) {
    size_t slash = path.rfind('/');
    if (slash == std::string::npos || !make_dirs(path.substr(0, slash))) return;
    static std::atomic<unsigned> counter{0};
    std::string tmp =
        path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter.fetch_add(1));
    FILE *f = std::fopen(tmp.c_str(), "wb");
    if (!f) return;
    uint64_t sizes[3] = {key.size(), size, checksum(key, binary, size)};
    bool ok = std::fwrite(magic, 1, sizeof(magic), f) == sizeof(magic) &&
              std::fwrite(sizes, 1, sizeof(sizes), f) == sizeof(sizes) &&
              std::fwrite(key.data(), 1, key.size(), f) == key.size() &&
              std::fwrite(binary, 1, size, f) == size;
    ok = std::fclose(f) == 0 && ok;
    if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) std::remove(tmp.c_str());
}

} // namespace loom_rt
