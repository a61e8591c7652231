/* Scatter through the C API: generate the 5 x 5 chunks around the origin, list the world's
 * scatter layers and their kinds, and fetch every layer's instances in the middle 3 x 3 chunks
 * (ask the count, then fetch). Prints "layer NAME RADIUS KINDS", "kind LAYER NAME", and per
 * chunk and layer "scatter X Z LAYER COUNT" followed by one "instance KIND X Y Z YAW SCALE
 * UPX UPY UPZ" line per instance, floats as their bit patterns in hex (exact to compare).
 *
 * usage: scatter SEED */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stratagen.h"

#define RADIUS 2

static void check(sg_result r, const char *what) {
    if (r != SG_RESULT_OK) {
        fprintf(stderr, "%s: %s\n", what, sg_result_message(r));
        exit(1);
    }
}

static uint32_t bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: scatter SEED\n");
        return 2;
    }
    sg_world_def def = sg_world_def_default();
    def.seed = strtoll(argv[1], NULL, 10);
    sg_world *w = NULL;
    check(sg_world_create(&def, &w), "create");
    for (int z = -RADIUS; z <= RADIUS; z++)
        for (int x = -RADIUS; x <= RADIUS; x++) {
            uint64_t ticket;
            check(sg_world_request(w, x, z, SG_STATUS_FULL, SG_PRIORITY_SOON, &ticket), "request");
        }
    size_t ran = 0;
    check(sg_world_run_inline(w, (size_t)-1, &ran), "run");

    uint32_t layers = 0;
    check(sg_world_scatter_layer_count(w, &layers), "layer count");
    for (uint32_t l = 0; l < layers; l++) {
        sg_scatter_layer_info info;
        check(sg_world_scatter_layer_info(w, l, &info), "layer info");
        printf("layer %s %.3f %u\n", info.name, info.radius, info.kind_count);
        for (uint32_t k = 0; k < info.kind_count; k++) {
            const char *name = NULL;
            check(sg_world_scatter_kind_name(w, l, k, &name), "kind name");
            printf("kind %s %s\n", info.name, name);
        }
    }
    for (int z = -RADIUS + 1; z <= RADIUS - 1; z++)
        for (int x = -RADIUS + 1; x <= RADIUS - 1; x++)
            for (uint32_t l = 0; l < layers; l++) {
                size_t n = 0;
                sg_result r = sg_world_scatter(w, l, x, z, NULL, 0, &n);
                if (r != SG_RESULT_OK && r != SG_RESULT_BUFFER_TOO_SMALL) check(r, "count");
                sg_scatter_instance *v = malloc((n ? n : 1) * sizeof *v);
                check(sg_world_scatter(w, l, x, z, v, n, &n), "scatter");
                printf("scatter %d %d %u %zu\n", x, z, l, n);
                for (size_t i = 0; i < n; i++)
                    printf("instance %u %08x %08x %08x %08x %08x %08x %08x %08x\n", v[i].kind,
                           bits(v[i].position[0]), bits(v[i].position[1]), bits(v[i].position[2]),
                           bits(v[i].yaw), bits(v[i].scale), bits(v[i].up[0]), bits(v[i].up[1]),
                           bits(v[i].up[2]));
                free(v);
            }
    check(sg_world_destroy(w), "destroy");
    return 0;
}
