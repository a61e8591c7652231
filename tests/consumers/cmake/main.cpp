// Print "chunk X Z DIGEST" for the chunks of X0,Z0,X1,Z1 in the world of SEED, as
// `stratagen digest` does, after checking that the header, the library and the CMake
// package agree on the version.
//   consumer SEED X0 Z0 X1 Z1
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <stratagen.hpp>

int main(int argc, char** argv) {
    if (argc != 6) {
        std::fprintf(stderr, "usage: consumer SEED X0 Z0 X1 Z1\n");
        return 2;
    }
    if (std::strcmp(SG_VERSION_STRING, STRATAGEN_PACKAGE_VERSION) != 0) {
        std::fprintf(stderr, "header %s, package %s\n", SG_VERSION_STRING, STRATAGEN_PACKAGE_VERSION);
        return 1;
    }
    const int x0 = std::atoi(argv[2]), z0 = std::atoi(argv[3]);
    const int x1 = std::atoi(argv[4]), z1 = std::atoi(argv[5]);
    try {
        stratagen::check_version();
        sg_world_def def = sg_world_def_default();
        def.seed = std::strtoll(argv[1], nullptr, 10);
        stratagen::World world(def);
        for (int z = z0; z <= z1; z++)
            for (int x = x0; x <= x1; x++) world.request(x, z);
        while (world.run_inline(256) > 0) {
        }
        for (int z = z0; z <= z1; z++)
            for (int x = x0; x <= x1; x++)
                std::printf("chunk %d %d %016" PRIx64 "\n", x, z, world.digest(x, z));
    } catch (const stratagen::Error& e) {
        std::fprintf(stderr, "stratagen error %u: %s\n", static_cast<unsigned>(e.code()), e.what());
        return 1;
    }
    return 0;
}
