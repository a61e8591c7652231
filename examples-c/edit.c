/* Edits through the C API: generate the 3 x 3 chunks around the origin, dig a shaft and put
 * glowstone, torches and stone about (one call each, then a batch), list the chunks to remesh,
 * save each chunk's edits as a record (sg_world_save_edits), destroy the world, give the
 * records to a new world before it generates anything (sg_world_load_edits), generate it and
 * compare. Prints "changed X Z" per chunk to remesh, "chunk X Z DIGEST" for the edited world,
 * and exits 1 if the reloaded world differs in any digest or edited block.
 *
 * usage: edit SEED */
#include <stdio.h>
#include <stdlib.h>

#include "stratagen.h"

#define RADIUS 1
#define SIDE (2 * RADIUS + 1)
#define BATCH 48

static void check(sg_result r, const char *what) {
    if (r != SG_RESULT_OK) {
        fprintf(stderr, "%s: %s\n", what, sg_result_message(r));
        exit(1);
    }
}

static sg_world *generated(int64_t seed) {
    sg_world_def def = sg_world_def_default();
    def.seed = seed;
    sg_world *w = NULL;
    check(sg_world_create(&def, &w), "create");
    return w;
}

static void generate(sg_world *w) {
    for (int z = -RADIUS; z <= RADIUS; z++)
        for (int x = -RADIUS; x <= RADIUS; x++) {
            uint64_t ticket;
            check(sg_world_request(w, x, z, SG_STATUS_FULL, SG_PRIORITY_SOON, &ticket), "request");
        }
    size_t ran = 0;
    check(sg_world_run_inline(w, (size_t)-1, &ran), "run");
}

static uint16_t block_id(sg_world *w, const char *name) {
    uint32_t id = 0;
    check(sg_world_block_by_name(w, name, &id), name);
    return (uint16_t)id;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: edit SEED\n");
        return 2;
    }
    int64_t seed = strtoll(argv[1], NULL, 10);
    sg_world *live = generated(seed);
    uint16_t air = block_id(live, "air"), glowstone = block_id(live, "glowstone");
    uint16_t torch = block_id(live, "torch"), stone = block_id(live, "stone");

    generate(live);

    /* A shaft from y 90 down to 40, one call per block. */
    for (int y = 40; y <= 90; y++) check(sg_world_set_block(live, 5, y, 5, air), "set block");
    /* A batch: glowstone, torches and stone over the chunk, up to its borders. */
    sg_block_edit batch[BATCH];
    for (int i = 0; i < BATCH; i++) {
        uint16_t kinds[3] = {glowstone, torch, stone};
        sg_block_edit e = {(i * 5) % 16, 60 + i % 24, (i * 11) % 16, kinds[i % 3]};
        batch[i] = e;
    }
    check(sg_world_set_blocks(live, batch, BATCH, NULL), "set blocks");

    /* The chunks to remesh: ask the count, then fetch. */
    size_t n = 0;
    sg_result r = sg_world_changed_chunks(live, NULL, 0, &n);
    if (r != SG_RESULT_BUFFER_TOO_SMALL && r != SG_RESULT_OK) check(r, "changed count");
    sg_chunk_pos *changed = malloc((n ? n : 1) * sizeof *changed);
    check(sg_world_changed_chunks(live, changed, n, &n), "changed");
    for (size_t i = 0; i < n; i++) printf("changed %d %d\n", changed[i].x, changed[i].z);
    free(changed);

    /* Digests and one edit record per chunk. */
    uint64_t digest[SIDE * SIDE];
    uint8_t *rec[SIDE * SIDE];
    size_t len[SIDE * SIDE], bytes = 0;
    for (int z = -RADIUS; z <= RADIUS; z++)
        for (int x = -RADIUS; x <= RADIUS; x++) {
            int i = (z + RADIUS) * SIDE + (x + RADIUS);
            check(sg_chunk_digest(live, x, z, &digest[i]), "digest");
            printf("chunk %d %d %016llx\n", x, z, (unsigned long long)digest[i]);
            r = sg_world_save_edits(live, x, z, NULL, 0, &len[i]);
            if (r != SG_RESULT_BUFFER_TOO_SMALL) check(r, "edit record size");
            rec[i] = malloc(len[i]);
            check(sg_world_save_edits(live, x, z, rec[i], len[i], &len[i]), "save edits");
            bytes += len[i];
        }
    uint16_t shaft = 0;
    check(sg_world_block(live, 5, 60, 5, &shaft), "block");
    check(sg_world_destroy(live), "destroy");

    /* A new world: the records first (they wait for their chunks), then generation. */
    sg_world *reloaded = generated(seed);
    for (int i = 0; i < SIDE * SIDE; i++) {
        int cx = 0, cz = 0;
        check(sg_world_load_edits(reloaded, rec[i], len[i], &cx, &cz), "load edits");
        free(rec[i]);
    }
    generate(reloaded);
    int differ = 0;
    for (int z = -RADIUS; z <= RADIUS; z++)
        for (int x = -RADIUS; x <= RADIUS; x++) {
            uint64_t d = 0;
            check(sg_chunk_digest(reloaded, x, z, &d), "digest");
            differ += d != digest[(z + RADIUS) * SIDE + (x + RADIUS)];
        }
    for (int i = 0; i < BATCH; i++) {
        uint16_t b = 0;
        check(sg_world_block(reloaded, batch[i].x, batch[i].y, batch[i].z, &b), "block");
        /* A later edit of the same position wins: compare with the last one. */
        uint16_t want = batch[i].block;
        for (int j = i + 1; j < BATCH; j++)
            if (batch[j].x == batch[i].x && batch[j].y == batch[i].y && batch[j].z == batch[i].z)
                want = batch[j].block;
        differ += b != want;
    }
    differ += shaft != air;
    printf("edits %d records %d bytes %zu reloaded %s\n", 51 + BATCH, SIDE * SIDE, bytes,
           differ ? "differs" : "equal");
    check(sg_world_destroy(reloaded), "destroy");
    return differ ? 1 : 0;
}
