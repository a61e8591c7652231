/* A world from a definition document: read a preset's text (sg_definition_preset), make a
 * world of it (sg_world_create_from_definition), generate a square inline, and print its
 * chunk digests, the definition digest and a block looked up by name in the world's own
 * palette. Then show what a document with problems gives: SG_RESULT_INVALID_DEFINITION and
 * every problem, with its line:column, in the error buffer.
 *
 * usage: definition PRESET SEED RADIUS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stratagen.h"

static void check(sg_result r, const char *what) {
    if (r != SG_RESULT_OK) {
        fprintf(stderr, "%s: %s\n", what, sg_result_message(r));
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: definition PRESET SEED RADIUS\n");
        return 2;
    }
    int64_t seed = strtoll(argv[2], NULL, 10);
    int radius = atoi(argv[3]);

    /* The preset's text: ask its size, then copy it. */
    size_t len = 0;
    sg_result r = sg_definition_preset(argv[1], NULL, 0, &len);
    if (r != SG_RESULT_BUFFER_TOO_SMALL) check(r, "preset size");
    char *text = malloc(len);
    check(sg_definition_preset(argv[1], text, len, &len), "preset");

    sg_world_def def = sg_world_def_default();
    def.seed = seed;
    sg_world *w = NULL;
    char err[1024];
    check(sg_world_create_from_definition(&def, text, strlen(text), &w, err, sizeof err),
          "create from definition");
    free(text);

    for (int z = -radius; z <= radius; z++)
        for (int x = -radius; x <= radius; x++) {
            uint64_t ticket;
            check(sg_world_request(w, x, z, SG_STATUS_FULL, SG_PRIORITY_SOON, &ticket), "request");
        }
    size_t ran = 0;
    check(sg_world_run_inline(w, (size_t)-1, &ran), "run");
    for (int z = -radius; z <= radius; z++)
        for (int x = -radius; x <= radius; x++) {
            uint64_t d;
            check(sg_chunk_digest(w, x, z, &d), "digest");
            printf("chunk %d %d %016llx\n", x, z, (unsigned long long)d);
        }

    uint64_t digest;
    check(sg_world_definition_digest(w, &digest), "definition digest");
    printf("definition %016llx\n", (unsigned long long)digest);
    uint32_t blocks, id;
    check(sg_world_block_count(w, &blocks), "block count");
    check(sg_world_block_by_name(w, "glowstone", &id), "block by name");
    sg_block_info info;
    check(sg_world_block_info(w, id, &info), "block info");
    printf("blocks %u glowstone %u emission %u name %s\n", blocks, id, info.emission, info.name);
    check(sg_world_destroy(w), "destroy");

    /* A document with two problems: nothing is made, both are reported. */
    const char *bad = "format = 1\nname = \"bad\"\nbase = \"default\"\n"
                      "[terrain]\nstone = \"granite\"\nbedrock_layers = 9\n";
    sg_world *none = NULL;
    r = sg_world_create_from_definition(&def, bad, strlen(bad), &none, err, sizeof err);
    printf("bad document: %s, world %s\n%s\n", sg_result_message(r), none ? "made" : "not made",
           err);
    return r == SG_RESULT_INVALID_DEFINITION && none == NULL ? 0 : 1;
}
