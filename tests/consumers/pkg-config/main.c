/* Print "chunk X Z DIGEST" for the chunks of X0,Z0,X1,Z1 in the world of SEED, as
 * `stratagen digest` does; built with `pkg-config --cflags --libs stratagen`.
 *   consumer SEED X0 Z0 X1 Z1 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <stratagen.h>

#define CHECK(call)                                                             \
    do {                                                                        \
        sg_result r_ = (call);                                                  \
        if (r_ != SG_RESULT_OK) {                                               \
            fprintf(stderr, "%s: %s\n", #call, sg_result_message(r_));          \
            return 1;                                                           \
        }                                                                       \
    } while (0)

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: consumer SEED X0 Z0 X1 Z1\n");
        return 2;
    }
    const uint32_t header = (SG_VERSION_MAJOR << 16) | (SG_VERSION_MINOR << 8) | SG_VERSION_PATCH;
    if (sg_version() != header) {
        fprintf(stderr, "header %s, library %06x\n", SG_VERSION_STRING, (unsigned)sg_version());
        return 1;
    }
    int x0 = atoi(argv[2]), z0 = atoi(argv[3]), x1 = atoi(argv[4]), z1 = atoi(argv[5]);
    sg_world_def def = sg_world_def_default();
    def.seed = strtoll(argv[1], NULL, 10);
    sg_world *world = NULL;
    CHECK(sg_world_create(&def, &world));
    for (int z = z0; z <= z1; z++)
        for (int x = x0; x <= x1; x++) {
            uint64_t ticket = 0; /* held until the world is destroyed */
            CHECK(sg_world_request(world, x, z, SG_STATUS_FULL, SG_PRIORITY_SOON, &ticket));
        }
    CHECK(sg_world_run_inline(world, SIZE_MAX, NULL));
    for (int z = z0; z <= z1; z++)
        for (int x = x0; x <= x1; x++) {
            uint64_t digest = 0;
            CHECK(sg_chunk_digest(world, x, z, &digest));
            printf("chunk %d %d %016" PRIx64 "\n", x, z, digest);
        }
    CHECK(sg_world_destroy(world));
    return 0;
}
