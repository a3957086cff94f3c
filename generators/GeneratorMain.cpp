// The main() of every generator program: link Loom::Generator and the
// generator classes (registered with LOOM_REGISTER_GENERATOR) into one
// executable, then run it as described in docs/guide/generators.md.

#include "loom/Generator.h"

int main(int argc, char **argv) {
    return loom::Internal::generate_filter_main(argc, argv);
}
