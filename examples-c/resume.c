/* Save and resume through the C API: generate part of a region, save every chunk that has
 * reached any status as a record (sg_world_save_chunk), destroy the world, give the records
 * to a new world (sg_world_load_chunk), request the same region and finish. Prints one line
 * per chunk, "chunk X Z DIGEST", so a test compares them with an uninterrupted run, and how
 * many tasks ran before and after the stop.
 *
 * usage: resume SEED RADIUS STOP_AFTER_TASKS */
#include <stdio.h>
#include <stdlib.h>

#include "stratagen.h"

/* Chunks a request at full can make resident reach this far (the step table's accumulated
 * radius of full is 11; 12 leaves a margin). */
#define REACH 12

static void check(sg_result r, const char *what) {
    if (r != SG_RESULT_OK) {
        fprintf(stderr, "%s: %s\n", what, sg_result_message(r));
        exit(1);
    }
}

static sg_world *world_of(int64_t seed) {
    sg_world_def def = sg_world_def_default();
    def.seed = seed;
    sg_world *w = NULL;
    check(sg_world_create(&def, &w), "create");
    return w;
}

static void request_square(sg_world *w, int radius) {
    for (int z = -radius; z <= radius; z++)
        for (int x = -radius; x <= radius; x++) {
            uint64_t ticket;
            check(sg_world_request(w, x, z, SG_STATUS_FULL, SG_PRIORITY_SOON, &ticket), "request");
        }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: resume SEED RADIUS STOP_AFTER_TASKS\n");
        return 2;
    }
    int64_t seed = strtoll(argv[1], NULL, 10);
    int radius = atoi(argv[2]);
    size_t stop = (size_t)strtoull(argv[3], NULL, 10);

    /* First world: stop part-way. */
    sg_world *first = world_of(seed);
    request_square(first, radius);
    size_t ran = 0;
    check(sg_world_run_inline(first, stop, &ran), "run part");

    /* Save every chunk that has a status (the others answer NOT_READY). */
    int span = radius + REACH, side = 2 * span + 1, saved = 0;
    uint8_t **recs = calloc((size_t)side * side, sizeof *recs);
    size_t *lens = calloc((size_t)side * side, sizeof *lens);
    for (int z = -span; z <= span; z++)
        for (int x = -span; x <= span; x++) {
            size_t i = (size_t)(z + span) * side + (x + span), len = 0;
            sg_result r = sg_world_save_chunk(first, x, z, NULL, 0, &len);
            if (r == SG_RESULT_NOT_READY) continue;
            if (r != SG_RESULT_BUFFER_TOO_SMALL) check(r, "save size");
            recs[i] = malloc(len);
            check(sg_world_save_chunk(first, x, z, recs[i], len, &lens[i]), "save");
            saved++;
        }
    check(sg_world_destroy(first), "destroy");

    /* Second world: records first (they wait for the requests), then the requests. */
    sg_world *second = world_of(seed);
    for (int i = 0; i < side * side; i++) {
        if (!recs[i]) continue;
        check(sg_world_load_chunk(second, recs[i], lens[i], NULL, NULL, NULL), "load");
        free(recs[i]);
    }
    free(recs);
    free(lens);
    request_square(second, radius);
    size_t rest = 0;
    check(sg_world_run_inline(second, (size_t)-1, &rest), "run rest");
    for (int z = -radius; z <= radius; z++)
        for (int x = -radius; x <= radius; x++) {
            uint64_t d = 0;
            check(sg_chunk_digest(second, x, z, &d), "digest");
            printf("chunk %d %d %016llx\n", x, z, (unsigned long long)d);
        }
    printf("resumed: ran %zu tasks before the stop, saved %d records, ran %zu after\n", ran, saved,
           rest);
    check(sg_world_destroy(second), "destroy");
    return 0;
}
