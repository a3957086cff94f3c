// Lesson 11: cross-compilation.
//
// An ahead-of-time output can be compiled for another machine than the one
// running Loom: the Target names its architecture, bit width, OS and
// features, and LLVM (which carries a back end for every architecture Loom
// supports) writes the object file for it. This lesson compiles one
// pipeline for 64-bit ARM Linux, 32-bit x86 Linux and 64-bit x86 Windows,
// and reads the headers of the object files to check what they are.
//
// Writes lesson_11_*.o / .obj and .h into the current directory (ctest
// then inspects them with readelf and objdump as well).

#include <Loom.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace loom;

namespace {

bool ok = true;

void expect(const std::string &what, bool good) {
    std::printf("%s: %s\n", what.c_str(), good ? "correct" : "WRONG");
    if (!good) ok = false;
}

std::vector<uint8_t> read_file(const std::string &name) {
    std::ifstream in(name, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in),
                                std::istreambuf_iterator<char>());
}

// Little-endian 16-bit field at offset.
int u16_at(const std::vector<uint8_t> &bytes, size_t offset) {
    return bytes.size() < offset + 2 ? -1 : bytes[offset] | (bytes[offset + 1] << 8);
}

// An ELF relocatable object of this class (1: 32-bit, 2: 64-bit), little
// endian, for this machine (e_machine: 3 is x86, 183 is AArch64)?
bool is_elf_object(const std::vector<uint8_t> &bytes, int elf_class, int machine) {
    const uint8_t magic[] = {0x7f, 'E', 'L', 'F'};
    if (bytes.size() < 20) return false;
    for (int i = 0; i < 4; i++)
        if (bytes[i] != magic[i]) return false;
    const int relocatable = 1;
    return bytes[4] == elf_class && bytes[5] == 1 /* little endian */ &&
           u16_at(bytes, 16) == relocatable && u16_at(bytes, 18) == machine;
}

} // namespace

int main() {
    // The same pipeline as lesson 10: brighten an 8-bit image by an offset.
    ImageParam input(UInt(8), 2, "input");
    Param<uint8_t> offset("offset");
    Func brighter("brighter");
    Var x("x"), y("y");
    brighter(x, y) = input(x, y) + offset;
    brighter.vectorize(x, 16).parallel(y);
    std::vector<Argument> args = {input, offset};

    // 1. 64-bit ARM Linux (a Raspberry Pi 4, a Graviton server, ...). A
    // target string names the architecture, bit width and OS.
    Target arm_64_linux("arm-64-linux");
    brighter.compile_to_file("lesson_11_arm_64_linux", args, "brighter", arm_64_linux);

    // 2. 32-bit x86 Linux with SSE4.1. A Target can also be built from its
    // parts, and features added one by one.
    Target x86_32_linux;
    x86_32_linux.os = Target::Linux;
    x86_32_linux.arch = Target::X86;
    x86_32_linux.bits = 32;
    x86_32_linux.set_feature(Target::SSE41);
    brighter.compile_to_file("lesson_11_x86_32_linux", args, "brighter", x86_32_linux);

    // 3. 64-bit x86 Windows with AVX: a COFF object (.obj), for MSVC's linker.
    Target x86_64_windows(Target::Windows, Target::X86, 64, {Target::SSE41, Target::AVX});
    brighter.compile_to_file("lesson_11_x86_64_windows", args, "brighter", x86_64_windows);
    std::printf("Compiled for %s, %s and %s\n", arm_64_linux.to_string().c_str(),
                x86_32_linux.to_string().c_str(), x86_64_windows.to_string().c_str());

    // Check the objects' headers. ELF objects start with 0x7f "ELF", their
    // class (32 or 64 bits), byte order and, at offset 18, the machine.
    expect("lesson_11_arm_64_linux.o is a 64-bit AArch64 ELF object",
           is_elf_object(read_file("lesson_11_arm_64_linux.o"), 2, 183));
    expect("lesson_11_x86_32_linux.o is a 32-bit x86 ELF object",
           is_elf_object(read_file("lesson_11_x86_32_linux.o"), 1, 3));
    // A COFF object starts with its machine: 0x8664 for x86-64.
    std::vector<uint8_t> coff = read_file("lesson_11_x86_64_windows.obj");
    expect("lesson_11_x86_64_windows.obj is an x86-64 COFF object", u16_at(coff, 0) == 0x8664);

    // Each object comes with the same C header: the entry point's signature
    // does not depend on the machine.
    for (const char *name :
         {"lesson_11_arm_64_linux.h", "lesson_11_x86_32_linux.h", "lesson_11_x86_64_windows.h"}) {
        std::vector<uint8_t> header = read_file(name);
        std::string text(header.begin(), header.end());
        expect(std::string(name) + " declares brighter()",
               text.find("int brighter(") != std::string::npos);
    }

    // 4. Target strings accept every Halide architecture and OS, but Loom
    // generates code only for x86, ARM and RISC-V on Linux, macOS, Windows
    // and bare metal. Compiling for the others (Android, iOS, Hexagon,
    // WebAssembly, ...) is an error that names the target.
    Target android("arm-64-android");
    expect("arm-64-android parses and prints back", android.to_string() == "arm-64-android");
    expect("but Loom cannot generate code for it", !android.can_generate_code());
    bool refused = false;
    try {
        brighter.compile_to_file("lesson_11_arm_64_android", args, "brighter", android);
    } catch (const CompileError &e) {
        std::printf("As expected: %s\n", e.what());
        refused = std::string(e.what()).find("arm-64-android") != std::string::npos;
    }
    expect("compiling for Android is refused, naming the target", refused);

    std::printf(ok ? "Success!\n" : "Lesson 11 FAILED\n");
    return ok ? 0 : 1;
}
