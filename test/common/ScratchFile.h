// Helpers for tests that write generated code (assembly, IR, statements) to
// a file and inspect its text.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace loom_test {

/** A file name under the temporary directory, unique to this process and
 * prefix, removed on destruction. */
struct ScratchFile {
    std::string path;
    ScratchFile(const std::string &prefix, const std::string &name)
        : path((std::filesystem::temp_directory_path() /
                ("loom_" + prefix + "_" + std::to_string(getpid()) + "_" + name))
                   .string()) {}
    ~ScratchFile() { std::remove(path.c_str()); }
    ScratchFile(const ScratchFile &) = delete;
    ScratchFile &operator=(const ScratchFile &) = delete;
};

/** A fresh directory under the temporary directory, unique to this process
 * and tag, removed with its files on destruction. */
struct ScratchDir {
    std::filesystem::path path;
    explicit ScratchDir(const std::string &tag) {
        path = std::filesystem::temp_directory_path() /
               ("loom_" + tag + "_" + std::to_string(getpid()));
        std::filesystem::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
    ScratchDir(const ScratchDir &) = delete;
    ScratchDir &operator=(const ScratchDir &) = delete;
    std::string file(const std::string &name) const { return (path / name).string(); }
};

/** The bytes of a file ("" when it cannot be read). */
inline std::string read_bytes(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/** The whole text of a file ("" when it cannot be read). */
inline std::string read_text(const std::string &path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace loom_test
