/* A settings struct whose struct_size is smaller than the library's must be refused from its
 * first four bytes alone. Each versioned struct is placed so that its struct_size field ends
 * exactly at the end of a readable page followed by a PROT_NONE page: a library that read one
 * byte past struct_size would crash here. Every export that takes a versioned struct is called
 * this way and must answer SG_RESULT_BAD_STRUCT_SIZE; the same structs placed whole at the page
 * end with their real size, or with a larger size inside a larger allocation, must be accepted.
 * Prints "guard_page: N passed, M failed"; exits non-zero on failure. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "stratagen.h"

static int passed, failed;

static void expect(const char *what, sg_result got, sg_result want) {
    if (got == want) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s: got %u (%s), want %u (%s)\n", what, (unsigned)got, sg_result_message(got),
               (unsigned)want, sg_result_message(want));
    }
}

/* One readable page followed by one PROT_NONE page. */
static unsigned char *page;
static size_t page_size;

/* `size` bytes of `src` at the very end of the readable page; the next byte faults. */
static const void *at_page_end(const void *src, size_t size) {
    unsigned char *p = page + page_size - size;
    memcpy(p, src, size);
    return p;
}

/* Only the leading struct_size field of a struct, at the very end of the readable page. */
static const void *short_struct(void) {
    uint32_t four = 4;
    return at_page_end(&four, sizeof four);
}

int main(void) {
    page_size = (size_t)sysconf(_SC_PAGESIZE);
    page = mmap(NULL, 2 * page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED || mprotect(page + page_size, page_size, PROT_NONE) != 0) {
        perror("mmap");
        return 2;
    }

    sg_world *w = NULL;
    const char *doc = "base = \"default\"\n";
    char err[256];
    expect("world create", sg_world_create(short_struct(), &w), SG_RESULT_BAD_STRUCT_SIZE);
    expect("world create from definition",
           sg_world_create_from_definition(short_struct(), doc, strlen(doc), &w, err, sizeof err),
           SG_RESULT_BAD_STRUCT_SIZE);
    expect("no world made", w == NULL ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);

    float out[17 * 17 * 4];
    sg_grid2 g2 = {0.0, 0.0, 1.0, 1.0, 4, 4};
    sg_grid3 g3 = {{0.0, 0.0, 0.0}, {1.0, 1.0, 1.0}, 2, 2, 2};
    expect("noise fill 2d", sg_noise_fill_2d(short_struct(), &g2, out, 16), SG_RESULT_BAD_STRUCT_SIZE);
    expect("noise fill 3d", sg_noise_fill_3d(short_struct(), &g3, out, 8), SG_RESULT_BAD_STRUCT_SIZE);
    expect("heightmap fill", sg_heightmap_fill(short_struct(), 0, 0, 4, out, 16), SG_RESULT_BAD_STRUCT_SIZE);
    expect("heightmap fill apron", sg_heightmap_fill_apron(short_struct(), 0, 0, 4, out, 49),
           SG_RESULT_BAD_STRUCT_SIZE);

    /* A world with one full chunk, for a real mesh source. */
    sg_world_def wd = sg_world_def_default();
    expect("world create whole at the page end", sg_world_create(at_page_end(&wd, sizeof wd), &w), SG_RESULT_OK);
    uint64_t ticket = 0;
    size_t ran = 0;
    expect("request", sg_world_request(w, 0, 0, SG_STATUS_FULL, SG_PRIORITY_IMMEDIATE, &ticket), SG_RESULT_OK);
    expect("run", sg_world_run_inline(w, (size_t)-1, &ran), SG_RESULT_OK);
    sg_mesh_source *src = NULL;
    expect("mesh source", sg_world_mesh_source(w, 0, 0, &src), SG_RESULT_OK);
    sg_mesh *mesh = NULL;
    expect("mesh build", sg_mesh_build(src, short_struct(), &mesh), SG_RESULT_BAD_STRUCT_SIZE);
    expect("no mesh made", mesh == NULL ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);

    sg_noise_def nd = sg_noise_def_default();
    expect("apron samples", sg_heightmap_fill_apron(at_page_end(&nd, sizeof nd), 0, 0, 4, out, 49), SG_RESULT_OK);
    float positions[3 * 64], normals[3 * 64], uvs[2 * 64];
    uint32_t indices[6 * 64];
    sg_heightmap_mesh_buffers hb = {positions, normals, uvs, 64, indices, 6 * 64};
    size_t vertices = 0, index_count = 0;
    expect("heightmap mesh", sg_heightmap_mesh(out, 49, short_struct(), &hb, &vertices, &index_count),
           SG_RESULT_BAD_STRUCT_SIZE);
    expect("counts untouched", vertices == 0 && index_count == 0 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC,
           SG_RESULT_OK);

    /* Whole structs at the page end, and a larger struct_size (a newer header), are read. */
    sg_mesh_def md = sg_mesh_def_default();
    expect("mesh build whole at the page end", sg_mesh_build(src, at_page_end(&md, sizeof md), &mesh), SG_RESULT_OK);
    expect("mesh destroy", sg_mesh_destroy(mesh), SG_RESULT_OK);
    sg_heightmap_mesh_def hd = sg_heightmap_mesh_def_default();
    hd.res = 4;
    expect("heightmap mesh whole at the page end",
           sg_heightmap_mesh(out, 49, at_page_end(&hd, sizeof hd), &hb, &vertices, &index_count), SG_RESULT_OK);
    struct {
        sg_noise_def def;
        unsigned char newer_fields[32];
    } larger;
    memset(&larger, 0, sizeof larger);
    larger.def = sg_noise_def_default();
    larger.def.struct_size = (uint32_t)sizeof larger;
    float a[16], b[16];
    expect("noise with a larger struct_size", sg_noise_fill_2d(&larger.def, &g2, a, 16), SG_RESULT_OK);
    expect("noise with its own size", sg_noise_fill_2d(&nd, &g2, b, 16), SG_RESULT_OK);
    expect("same samples", memcmp(a, b, sizeof a) == 0 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);

    expect("mesh source destroy", sg_mesh_source_destroy(src), SG_RESULT_OK);
    expect("world destroy", sg_world_destroy(w), SG_RESULT_OK);
    munmap(page, 2 * page_size);
    printf("guard_page: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
