// Lesson 15: Generators
//
// So far every lesson compiled its pipeline with the JIT, inside the program
// that uses it. A *generator* packages a pipeline so that it can be compiled
// ahead of time, at build time, into a static library and a C header. The
// program that runs the pipeline then needs neither Loom nor LLVM: only the
// small runtime library Loom::Runtime.
//
// This file contains two generators and no main(). It is linked with
// Loom::Generator, which supplies a main() that runs a generator by name:
//
//     lesson_15_generate -g my_first_generator -o out_dir
//     lesson_15_generate -g my_second_generator -o out_dir -f second \
//         scale=3 flip=horizontal output_type=float32 target=x86-64-linux
//
// writes out_dir/my_first_generator.{a,h} and out_dir/second.{a,h}.
// `lesson_15_generate --list` prints every generator with its parameters.
// tutorials/CMakeLists.txt does this at build time with add_loom_library,
// and runners/lesson_15_runner.cpp calls the generated functions.

#include "Loom.h"

using namespace loom;

// A generator is a class deriving from Generator<itself>.
class MyFirstGenerator : public Generator<MyFirstGenerator> {
public:
    // Inputs become the arguments of the generated function, in the order
    // they are declared here; Outputs come after them. A buffer Input is
    // used like an ImageParam, a scalar Input like a Param.
    Input<Buffer<uint8_t, 2>> input{"input"};
    Input<uint8_t> offset{"offset"};

    // An Output is a Func that generate() must define with the declared
    // element type and dimension count.
    Output<Buffer<uint8_t, 2>> brighter{"brighter"};

    Var x{"x"}, y{"y"};

    // generate() defines the algorithm and (here) the schedule.
    void generate() {
        brighter(x, y) = input(x, y) + offset;
        // natural_vector_size uses the target the generator compiles for.
        brighter.vectorize(x, natural_vector_size<uint8_t>()).parallel(y);
    }
};

// Register the class under the name the command line uses (-g).
LOOM_REGISTER_GENERATOR(MyFirstGenerator, my_first_generator)

// GeneratorParams are compile-time knobs: each value set on the command
// line produces a different library. They can be numbers (with a range),
// bools, enums, Types and strings.
class MySecondGenerator : public Generator<MySecondGenerator> {
public:
    GeneratorParam<bool> parallel{"parallel", true};
    GeneratorParam<float> scale{"scale", 1.0f, 0.0f, 100.0f};

    enum class Flip { None, Horizontal, Vertical };
    GeneratorParam<Flip> flip{
        "flip",
        Flip::None,
        {{"none", Flip::None}, {"horizontal", Flip::Horizontal}, {"vertical", Flip::Vertical}}};

    GeneratorParam<Type> output_type{"output_type", UInt(8)};

    Input<Buffer<uint8_t, 2>> input{"input"};
    // The element type of this output depends on a GeneratorParam, so the
    // declaration leaves it open (Buffer<void, 2>).
    Output<Buffer<void, 2>> output{"output"};

    Var x{"x"}, y{"y"};

    void generate() {
        // GeneratorParams read like their values.
        Func brighter("brighter");
        brighter(x, y) = cast<float>(input(x, y)) * scale;

        Func flipped("flipped");
        switch (flip.value()) {
        case Flip::None:
            flipped(x, y) = brighter(x, y);
            break;
        case Flip::Horizontal:
            flipped(x, y) = brighter(input.width() - 1 - x, y);
            break;
        case Flip::Vertical:
            flipped(x, y) = brighter(x, input.height() - 1 - y);
            break;
        }
        output(x, y) = cast(output_type, flipped(x, y));
    }

    // The schedule may also live in its own method, run after generate().
    void schedule() {
        output.vectorize(x, natural_vector_size(output_type));
        if (parallel) output.parallel(y);
    }
};

LOOM_REGISTER_GENERATOR(MySecondGenerator, my_second_generator)
