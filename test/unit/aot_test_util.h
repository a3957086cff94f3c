#ifndef LOOM_TEST_UNIT_AOT_TEST_UTIL_H
#define LOOM_TEST_UNIT_AOT_TEST_UTIL_H

// Scratch files for the tests of ahead-of-time outputs.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace aot_test {

/** A fresh directory per test case, removed afterwards. */
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string &tag) {
        static int counter = 0;
        path = std::filesystem::temp_directory_path() /
               ("loom_aot_" + tag + "_" + std::to_string(::getpid()) + "_" +
                std::to_string(counter++));
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    std::string file(const std::string &name) const { return (path / name).string(); }
};

inline std::string read_file(const std::string &name) {
    std::ifstream in(name, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

} // namespace aot_test

#endif
