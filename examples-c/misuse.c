/* Misuse of the C API must give the documented error codes, never a crash.
 * Prints one line per check and "misuse: N passed, M failed"; exits non-zero on failure. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The deprecated built-in palette calls must keep working: this program calls them on purpose. */
#define SG_NO_DEPRECATED
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

static sg_world *shared_world;
static sg_result thread_result;
static void *other_thread(void *arg) {
    (void)arg;
    uint64_t t = 0;
    thread_result = sg_world_request(shared_world, 0, 0, SG_STATUS_FULL, SG_PRIORITY_SOON, &t);
    return NULL;
}

int main(void) {
    sg_world_def def = sg_world_def_default();
    sg_world *w = NULL, *w2 = NULL;
    expect("create NULL def", sg_world_create(NULL, &w), SG_RESULT_NULL_ARGUMENT);
    expect("create NULL out", sg_world_create(&def, NULL), SG_RESULT_NULL_ARGUMENT);
    sg_world_def bad = def;
    bad.height = 100;
    expect("create bad height", sg_world_create(&bad, &w), SG_RESULT_INVALID_ARGUMENT);
    expect("outputs untouched on error", w == NULL ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
    bad = def;
    bad.struct_size = 4;
    expect("create small struct_size", sg_world_create(&bad, &w), SG_RESULT_BAD_STRUCT_SIZE);
    expect("create", sg_world_create(&def, &w), SG_RESULT_OK);
    expect("create second", sg_world_create(&def, &w2), SG_RESULT_OK);

    uint64_t ticket = 0;
    expect("request NULL world", sg_world_request(NULL, 0, 0, SG_STATUS_FULL, SG_PRIORITY_SOON, &ticket), SG_RESULT_NULL_ARGUMENT);
    expect("request NULL ticket", sg_world_request(w, 0, 0, SG_STATUS_FULL, SG_PRIORITY_SOON, NULL), SG_RESULT_NULL_ARGUMENT);
    expect("request bad status", sg_world_request(w, 0, 0, 10, SG_PRIORITY_SOON, &ticket), SG_RESULT_BAD_ENUM);
    expect("request bad priority", sg_world_request(w, 0, 0, SG_STATUS_FULL, 7, &ticket), SG_RESULT_BAD_ENUM);
    expect("request out of range", sg_world_request(w, 1 << 21, 0, SG_STATUS_FULL, SG_PRIORITY_SOON, &ticket), SG_RESULT_OUT_OF_RANGE);
    expect("retention NULL world", sg_world_set_retention(NULL, SG_RETENTION_FULL_CHUNKS), SG_RESULT_NULL_ARGUMENT);
    expect("retention bad enum", sg_world_set_retention(w, 2), SG_RESULT_BAD_ENUM);
    expect("retention full chunks", sg_world_set_retention(w, SG_RETENTION_FULL_CHUNKS), SG_RESULT_OK);
    expect("retention all statuses", sg_world_set_retention(w, SG_RETENTION_ALL_STATUSES), SG_RESULT_OK);
    expect("request", sg_world_request(w, 0, 0, SG_STATUS_STRUCTURE_REFERENCES, SG_PRIORITY_SOON, &ticket), SG_RESULT_OK);

    shared_world = w;
    pthread_t th;
    pthread_create(&th, NULL, other_thread, NULL);
    pthread_join(th, NULL);
    expect("owner function from another thread", thread_result, SG_RESULT_WRONG_THREAD);

    sg_task *tasks[4];
    size_t n = 0;
    expect("take NULL count", sg_world_take_tasks(w, tasks, 4, NULL), SG_RESULT_NULL_ARGUMENT);
    expect("take NULL out", sg_world_take_tasks(w, NULL, 4, &n), SG_RESULT_NULL_ARGUMENT);
    expect("take", sg_world_take_tasks(w, tasks, 4, &n), SG_RESULT_OK);
    expect("took tasks", n >= 2 ? SG_RESULT_OK : SG_RESULT_NOT_READY, SG_RESULT_OK);
    expect("finish before run", sg_world_finish_task(w, tasks[0]), SG_RESULT_TASK_NOT_RUN);
    expect("run NULL", sg_task_run(NULL), SG_RESULT_NULL_ARGUMENT);
    expect("run", sg_task_run(tasks[0]), SG_RESULT_OK);
    expect("run twice", sg_task_run(tasks[0]), SG_RESULT_TASK_ALREADY_RUN);
    expect("finish on another world", sg_world_finish_task(w2, tasks[0]), SG_RESULT_FOREIGN_HANDLE);
    expect("finish NULL task", sg_world_finish_task(w, NULL), SG_RESULT_NULL_ARGUMENT);
    expect("finish", sg_world_finish_task(w, tasks[0]), SG_RESULT_OK);
    expect("finish twice", sg_world_finish_task(w, tasks[0]), SG_RESULT_STALE_HANDLE);
    expect("run after finish", sg_task_run(tasks[0]), SG_RESULT_STALE_HANDLE);
    expect("run second task", sg_task_run(tasks[1]), SG_RESULT_OK);

    uint16_t blocks[4];
    size_t needed = 0;
    expect("copy not ready", sg_chunk_copy_blocks(w, 0, 0, blocks, 4, &needed), SG_RESULT_NOT_READY);
    uint32_t status = 99;
    expect("status of untouched chunk", sg_world_chunk_status(w, 100, 100, &status), SG_RESULT_NOT_READY);
    expect("status untouched on error", status == 99 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);

    expect("release", sg_world_release(w, ticket), SG_RESULT_OK);
    expect("release twice", sg_world_release(w, ticket), SG_RESULT_STALE_HANDLE);
    expect("release unknown", sg_world_release(w, 123456), SG_RESULT_STALE_HANDLE);
    expect("finish after release drops the result", sg_world_finish_task(w, tasks[1]), SG_RESULT_OK);

    /* A full chunk: buffer-size protocol. */
    expect("request full", sg_world_request(w, 3, 3, SG_STATUS_FULL, SG_PRIORITY_IMMEDIATE, &ticket), SG_RESULT_OK);
    size_t ran = 0;
    expect("run inline", sg_world_run_inline(w, (size_t)-1, &ran), SG_RESULT_OK);
    expect("size query", sg_chunk_copy_blocks(w, 3, 3, NULL, 0, &needed), SG_RESULT_BUFFER_TOO_SMALL);
    expect("needed is 16*16*384", needed == 16 * 16 * 384 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
    memset(blocks, 0xAB, sizeof blocks);
    expect("too small", sg_chunk_copy_blocks(w, 3, 3, blocks, 4, &needed), SG_RESULT_BUFFER_TOO_SMALL);
    expect("buffer untouched", blocks[0] == 0xABAB ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
    int32_t hm[256];
    expect("heightmap bad kind", sg_chunk_copy_heightmap(w, 3, 3, 9, hm, 256, &needed), SG_RESULT_BAD_ENUM);
    expect("heightmap", sg_chunk_copy_heightmap(w, 3, 3, SG_HEIGHTMAP_WORLD_SURFACE, hm, 256, &needed), SG_RESULT_OK);
    sg_chunk_view view;
    expect("view", sg_world_chunk_view(w, 3, 3, &view), SG_RESULT_OK);
    expect("view height", view.block_count == 16 * 16 * 384 && view.world_surface[0] == hm[0] ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
    uint64_t digest = 0;
    expect("digest NULL", sg_chunk_digest(w, 3, 3, NULL), SG_RESULT_NULL_ARGUMENT);
    expect("digest", sg_chunk_digest(w, 3, 3, &digest), SG_RESULT_OK);

    /* Every call that takes a chunk position answers OUT_OF_RANGE outside |x|, |z| < 2^21. */
    const int32_t far = 1 << 21;
    sg_block_entity be[1];
    sg_spawn_request sp[1];
    uint8_t bytes[4];
    expect("status out of range", sg_world_chunk_status(w, far, 0, &status), SG_RESULT_OUT_OF_RANGE);
    expect("copy blocks out of range", sg_chunk_copy_blocks(w, 0, -far, blocks, 4, &needed), SG_RESULT_OUT_OF_RANGE);
    expect("copy biomes out of range", sg_chunk_copy_biomes(w, far, 0, bytes, 4, &needed), SG_RESULT_OUT_OF_RANGE);
    expect("copy heightmap out of range", sg_chunk_copy_heightmap(w, far, 0, SG_HEIGHTMAP_OCEAN_FLOOR, hm, 256, &needed), SG_RESULT_OUT_OF_RANGE);
    expect("copy light out of range", sg_chunk_copy_light(w, far, 0, SG_LIGHT_SKY, bytes, 4, &needed), SG_RESULT_OUT_OF_RANGE);
    expect("copy block entities out of range", sg_chunk_copy_block_entities(w, far, 0, be, 1, &needed), SG_RESULT_OUT_OF_RANGE);
    expect("copy spawns out of range", sg_chunk_copy_spawns(w, far, 0, sp, 1, &needed), SG_RESULT_OUT_OF_RANGE);
    expect("digest out of range", sg_chunk_digest(w, INT32_MIN, 0, &digest), SG_RESULT_OUT_OF_RANGE);
    expect("view out of range", sg_world_chunk_view(w, 0, far, &view), SG_RESULT_OUT_OF_RANGE);
    sg_mesh_source *far_src = NULL;
    expect("mesh source out of range", sg_world_mesh_source(w, far, 0, &far_src), SG_RESULT_OUT_OF_RANGE);

    /* Noise misuse. */
    sg_noise_def nd = sg_noise_def_default();
    sg_grid2 g = {0.0, 0.0, 1.0, 1.0, 8, 8};
    float out[64];
    expect("noise NULL def", sg_noise_fill_2d(NULL, &g, out, 64), SG_RESULT_NULL_ARGUMENT);
    expect("noise NULL grid", sg_noise_fill_2d(&nd, NULL, out, 64), SG_RESULT_NULL_ARGUMENT);
    expect("noise small buffer", sg_noise_fill_2d(&nd, &g, out, 63), SG_RESULT_BUFFER_TOO_SMALL);
    nd.noise_type = 42;
    expect("noise bad type", sg_noise_fill_2d(&nd, &g, out, 64), SG_RESULT_BAD_ENUM);
    nd = sg_noise_def_default();
    nd.cellular_return = 9;
    expect("noise bad cellular return", sg_noise_fill_2d(&nd, &g, out, 64), SG_RESULT_BAD_ENUM);
    nd = sg_noise_def_default();
    nd.frequency = 0.0 / 0.0;
    expect("noise NaN frequency", sg_noise_fill_2d(&nd, &g, out, 64), SG_RESULT_INVALID_ARGUMENT);
    nd = sg_noise_def_default();
    nd.octaves = 0;
    expect("noise zero octaves", sg_noise_fill_2d(&nd, &g, out, 64), SG_RESULT_INVALID_ARGUMENT);
    nd = sg_noise_def_default();
    g.width = 0;
    expect("noise empty grid", sg_noise_fill_2d(&nd, &g, out, 64), SG_RESULT_INVALID_ARGUMENT);
    expect("heightmap res 0", sg_heightmap_fill(&nd, 0, 0, 0, out, 64), SG_RESULT_INVALID_ARGUMENT);

    /* Noise handles: built once, the same samples as the definition-per-call fills. */
    sg_noise *noise = NULL;
    g.width = 8;
    expect("noise create NULL def", sg_noise_create(NULL, &noise), SG_RESULT_NULL_ARGUMENT);
    expect("noise create NULL out", sg_noise_create(&nd, NULL), SG_RESULT_NULL_ARGUMENT);
    nd.octaves = 0;
    expect("noise create zero octaves", sg_noise_create(&nd, &noise), SG_RESULT_INVALID_ARGUMENT);
    expect("noise create wrote nothing", noise == NULL ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
    nd = sg_noise_def_default();
    nd.precision = 2;
    expect("noise create unknown precision", sg_noise_create(&nd, &noise), SG_RESULT_BAD_ENUM);
    expect("noise create wrote nothing", noise == NULL ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
    nd.precision = SG_PRECISION_F32;
    expect("noise create f32", sg_noise_create(&nd, &noise), SG_RESULT_OK);
    /* Shader source of an f32 noise: ask the size, then fill; a NUL ends it. */
    size_t shader_len = 0;
    expect("shader size", sg_noise_shader(noise, SG_SHADER_LANGUAGE_WGSL, 2, NULL, 0, &shader_len), SG_RESULT_BUFFER_TOO_SMALL);
    char *shader = malloc(shader_len);
    expect("shader", sg_noise_shader(noise, SG_SHADER_LANGUAGE_WGSL, 2, shader, shader_len, NULL), SG_RESULT_OK);
    expect("shader is the function", shader[shader_len - 1] == 0 && strstr(shader, "fn sg_noise_2d(p: vec2<f32>) -> f32") ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
    expect("shader short buffer", sg_noise_shader(noise, SG_SHADER_LANGUAGE_GLSL, 3, shader, 8, NULL), SG_RESULT_BUFFER_TOO_SMALL);
    expect("shader unknown language", sg_noise_shader(noise, 3, 2, shader, shader_len, NULL), SG_RESULT_BAD_ENUM);
    expect("shader dims 4", sg_noise_shader(noise, SG_SHADER_LANGUAGE_GODOT, 4, shader, shader_len, NULL), SG_RESULT_INVALID_ARGUMENT);
    expect("shader NULL handle", sg_noise_shader(NULL, SG_SHADER_LANGUAGE_WGSL, 2, shader, shader_len, NULL), SG_RESULT_NULL_ARGUMENT);
    free(shader);
    expect("noise destroy f32", sg_noise_destroy(noise), SG_RESULT_OK);
    noise = NULL;
    nd = sg_noise_def_default();
    expect("noise create", sg_noise_create(&nd, &noise), SG_RESULT_OK);
    char f64_shader[64];
    expect("no shader of an f64 noise", sg_noise_shader(noise, SG_SHADER_LANGUAGE_WGSL, 2, f64_shader, sizeof f64_shader, NULL), SG_RESULT_INVALID_ARGUMENT);
    float by_def[64], by_handle[64];
    expect("fill by definition", sg_noise_fill_2d(&nd, &g, by_def, 64), SG_RESULT_OK);
    expect("fill by handle", sg_noise_fill_grid_2d(noise, &g, by_handle, 64), SG_RESULT_OK);
    expect("handle fills the same bits", memcmp(by_def, by_handle, sizeof by_def) == 0 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
    double sample = 0.0;
    expect("sample 2d", sg_noise_sample_2d(noise, 3.0, 2.0, &sample), SG_RESULT_OK);
    expect("sample is the fill's", (float)sample == by_handle[2 * 8 + 3] ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
    expect("sample NaN", sg_noise_sample_2d(noise, 0.0 / 0.0, 0.0, &sample), SG_RESULT_INVALID_ARGUMENT);
    expect("sample 3d NULL out", sg_noise_sample_3d(noise, 0.0, 0.0, 0.0, NULL), SG_RESULT_NULL_ARGUMENT);
    expect("fill by handle NULL grid", sg_noise_fill_grid_2d(noise, NULL, by_handle, 64), SG_RESULT_NULL_ARGUMENT);
    expect("fill by handle small buffer", sg_noise_fill_grid_2d(noise, &g, by_handle, 63), SG_RESULT_BUFFER_TOO_SMALL);
    expect("fill by NULL handle", sg_noise_fill_grid_2d(NULL, &g, by_handle, 64), SG_RESULT_NULL_ARGUMENT);
    expect("fill by a world handle", sg_noise_fill_grid_2d((sg_noise *)(void *)w, &g, by_handle, 64), SG_RESULT_STALE_HANDLE);
    float tile_def[16], tile_handle[16];
    expect("heightmap by definition", sg_heightmap_fill(&nd, 5, -7, 4, tile_def, 16), SG_RESULT_OK);
    expect("heightmap by handle", sg_noise_fill_heightmap(noise, 5, -7, 4, tile_handle, 16), SG_RESULT_OK);
    expect("heightmaps alike", memcmp(tile_def, tile_handle, sizeof tile_def) == 0 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
    expect("noise destroy", sg_noise_destroy(noise), SG_RESULT_OK);
    expect("fill after destroy", sg_noise_fill_grid_2d(noise, &g, by_handle, 64), SG_RESULT_STALE_HANDLE);
    expect("noise destroy twice", sg_noise_destroy(noise), SG_RESULT_STALE_HANDLE);

    /* Palette. */
    sg_block_info bi;
    uint32_t id = 12345;
    expect("block info", sg_block_get_info(0, &bi), SG_RESULT_OK);
    expect("block info unknown id", sg_block_get_info(sg_block_count(), &bi), SG_RESULT_INVALID_ARGUMENT);
    expect("block info NULL", sg_block_get_info(0, NULL), SG_RESULT_NULL_ARGUMENT);
    expect("block by name", sg_block_by_name("oak_leaves", &id), SG_RESULT_OK);
    expect("block by name unknown", sg_block_by_name("Oak_Leaves", &id), SG_RESULT_NOT_FOUND);
    expect("block by name NULL", sg_block_by_name(NULL, &id), SG_RESULT_NULL_ARGUMENT);
    sg_biome_info bio;
    expect("biome info unknown id", sg_biome_get_info(sg_biome_count(), &bio), SG_RESULT_INVALID_ARGUMENT);
    expect("biome by name unknown", sg_biome_by_name("atlantis", &id), SG_RESULT_NOT_FOUND);

    /* Meshes: sources need a full chunk and the owner thread; handles are checked. */
    sg_mesh_source *src = NULL;
    sg_mesh *mesh = NULL;
    sg_mesh_def md = sg_mesh_def_default();
    expect("mesh source of a chunk not generated", sg_world_mesh_source(w, 40, 40, &src), SG_RESULT_NOT_READY);
    expect("mesh source NULL out", sg_world_mesh_source(w, 0, 0, NULL), SG_RESULT_NULL_ARGUMENT);
    expect("mesh source NULL world", sg_world_mesh_source(NULL, 0, 0, &src), SG_RESULT_NULL_ARGUMENT);
    uint64_t mt = 0;
    size_t mran = 0;
    expect("request for mesh", sg_world_request(w, 30, 30, SG_STATUS_FULL, SG_PRIORITY_SOON, &mt), SG_RESULT_OK);
    expect("run for mesh", sg_world_run_inline(w, SIZE_MAX, &mran), SG_RESULT_OK);
    expect("mesh source", sg_world_mesh_source(w, 30, 30, &src), SG_RESULT_OK);
    expect("mesh build NULL def", sg_mesh_build(src, NULL, &mesh), SG_RESULT_NULL_ARGUMENT);
    md.mode = 2;
    expect("mesh build bad mode", sg_mesh_build(src, &md, &mesh), SG_RESULT_BAD_ENUM);
    md = sg_mesh_def_default();
    md.missing = 9;
    expect("mesh build bad missing", sg_mesh_build(src, &md, &mesh), SG_RESULT_BAD_ENUM);
    md = sg_mesh_def_default();
    md.struct_size = 4;
    expect("mesh build small struct_size", sg_mesh_build(src, &md, &mesh), SG_RESULT_BAD_STRUCT_SIZE);
    md = sg_mesh_def_default();
    expect("mesh build NULL out", sg_mesh_build(src, &md, NULL), SG_RESULT_NULL_ARGUMENT);
    expect("mesh untouched on error", mesh == NULL ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
    expect("mesh build", sg_mesh_build(src, &md, &mesh), SG_RESULT_OK);
    size_t nv = 0, ni = 0;
    expect("mesh counts bad surface", sg_mesh_counts(mesh, 3, &nv, &ni), SG_RESULT_BAD_ENUM);
    expect("mesh counts", sg_mesh_counts(mesh, SG_SURFACE_OPAQUE, &nv, &ni), SG_RESULT_OK);
    sg_mesh_buffers mb = {0};
    mb.vertex_capacity = nv ? nv - 1 : 0;
    mb.index_capacity = ni;
    expect("mesh copy too small", sg_mesh_copy(mesh, SG_SURFACE_OPAQUE, &mb), nv ? SG_RESULT_BUFFER_TOO_SMALL : SG_RESULT_OK);
    expect("mesh copy NULL buffers", sg_mesh_copy(mesh, SG_SURFACE_OPAQUE, NULL), SG_RESULT_NULL_ARGUMENT);
    uint64_t md_digest = 0;
    expect("mesh digest NULL", sg_mesh_digest(mesh, NULL), SG_RESULT_NULL_ARGUMENT);
    expect("mesh source destroy", sg_mesh_source_destroy(src), SG_RESULT_OK);
    expect("mesh outlives its source", sg_mesh_digest(mesh, &md_digest), SG_RESULT_OK);
    expect("mesh build from destroyed source", sg_mesh_build(src, &md, &mesh), SG_RESULT_STALE_HANDLE);
    expect("mesh source destroy twice", sg_mesh_source_destroy(src), SG_RESULT_STALE_HANDLE);
    expect("mesh destroy", sg_mesh_destroy(mesh), SG_RESULT_OK);
    expect("mesh digest after destroy", sg_mesh_digest(mesh, &md_digest), SG_RESULT_STALE_HANDLE);
    expect("mesh destroy twice", sg_mesh_destroy(mesh), SG_RESULT_STALE_HANDLE);
    expect("mesh destroy NULL", sg_mesh_destroy(NULL), SG_RESULT_NULL_ARGUMENT);
    /* A world handle is not a source handle. */
    expect("mesh build from a world handle", sg_mesh_build((sg_mesh_source *)(void *)w, &md, &mesh), SG_RESULT_STALE_HANDLE);

    sg_heightmap_mesh_def hd = sg_heightmap_mesh_def_default();
    hd.res = 4;
    float samples[49] = {0};
    sg_heightmap_mesh_buffers hb = {0};
    size_t hv = 0, hi = 0;
    expect("heightmap mesh size query", sg_heightmap_mesh(samples, 49, &hd, &hb, &hv, &hi), SG_RESULT_BUFFER_TOO_SMALL);
    expect("heightmap mesh counts", hv == 25 && hi == 96 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
    expect("heightmap mesh too few samples", sg_heightmap_mesh(samples, 48, &hd, &hb, &hv, &hi), SG_RESULT_BUFFER_TOO_SMALL);
    samples[3] = 0.0f / 0.0f;
    expect("heightmap mesh NaN sample", sg_heightmap_mesh(samples, 49, &hd, &hb, &hv, &hi), SG_RESULT_INVALID_ARGUMENT);
    samples[3] = 0.0f;
    hd.skirt_depth = -1.0f;
    expect("heightmap mesh negative skirt", sg_heightmap_mesh(samples, 49, &hd, &hb, &hv, &hi), SG_RESULT_INVALID_ARGUMENT);
    hd = sg_heightmap_mesh_def_default();
    hd.res = 0;
    expect("heightmap mesh res 0", sg_heightmap_mesh(samples, 49, &hd, &hb, &hv, &hi), SG_RESULT_INVALID_ARGUMENT);
    expect("heightmap mesh NULL samples", sg_heightmap_mesh(NULL, 49, &hd, &hb, &hv, &hi), SG_RESULT_NULL_ARGUMENT);
    expect("heightmap apron too small", sg_heightmap_fill_apron(&nd, 0, 0, 4, out, 48), SG_RESULT_BUFFER_TOO_SMALL);

    /* Chunk records: save, and every kind of refusal on load, with the world untouched. */
    {
        sg_world *src_w = NULL, *dst = NULL, *other = NULL;
        sg_world_def other_def = def;
        other_def.seed = 1;
        expect("record world", sg_world_create(&def, &src_w), SG_RESULT_OK);
        expect("record target world", sg_world_create(&def, &dst), SG_RESULT_OK);
        expect("record other world", sg_world_create(&other_def, &other), SG_RESULT_OK);
        uint64_t rt = 0;
        size_t ran = 0;
        expect("record request", sg_world_request(src_w, 0, 0, SG_STATUS_BIOMES, SG_PRIORITY_SOON, &rt), SG_RESULT_OK);
        expect("record generate", sg_world_run_inline(src_w, 100000, &ran), SG_RESULT_OK);
        size_t rlen = 0;
        expect("save NULL world", sg_world_save_chunk(NULL, 0, 0, NULL, 0, &rlen), SG_RESULT_NULL_ARGUMENT);
        expect("save untouched chunk", sg_world_save_chunk(src_w, 500, 500, NULL, 0, &rlen), SG_RESULT_NOT_READY);
        expect("save out of range", sg_world_save_chunk(src_w, 1 << 21, 0, NULL, 0, &rlen), SG_RESULT_OUT_OF_RANGE);
        expect("save size query", sg_world_save_chunk(src_w, 0, 0, NULL, 0, &rlen), SG_RESULT_BUFFER_TOO_SMALL);
        expect("save size known", rlen > 60 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("save NULL buffer", sg_world_save_chunk(src_w, 0, 0, NULL, rlen, NULL), SG_RESULT_NULL_ARGUMENT);
        uint8_t *rec = malloc(rlen), *bad_rec = malloc(rlen);
        expect("save", sg_world_save_chunk(src_w, 0, 0, rec, rlen, NULL), SG_RESULT_OK);
        int32_t lx = 7, lz = 7;
        uint32_t ls = 99;
        expect("load NULL bytes", sg_world_load_chunk(dst, NULL, rlen, &lx, &lz, &ls), SG_RESULT_NULL_ARGUMENT);
        expect("load NULL world", sg_world_load_chunk(NULL, rec, rlen, &lx, &lz, &ls), SG_RESULT_NULL_ARGUMENT);
        expect("load empty", sg_world_load_chunk(dst, rec, 0, &lx, &lz, &ls), SG_RESULT_RECORD_TRUNCATED);
        expect("load truncated", sg_world_load_chunk(dst, rec, rlen - 1, &lx, &lz, &ls), SG_RESULT_RECORD_TRUNCATED);
        memcpy(bad_rec, rec, rlen);
        bad_rec[rlen / 2] ^= 0x04;
        expect("load bit flip", sg_world_load_chunk(dst, bad_rec, rlen, &lx, &lz, &ls), SG_RESULT_RECORD_CHECKSUM);
        memcpy(bad_rec, rec, rlen);
        bad_rec[4] = 9; /* format version */
        expect("load newer version", sg_world_load_chunk(dst, bad_rec, rlen, &lx, &lz, &ls), SG_RESULT_RECORD_VERSION);
        memcpy(bad_rec, rec, rlen);
        bad_rec[0] = 'X'; /* magic */
        expect("load not a record", sg_world_load_chunk(dst, bad_rec, rlen, &lx, &lz, &ls), SG_RESULT_RECORD_MALFORMED);
        expect("load into another world", sg_world_load_chunk(other, rec, rlen, &lx, &lz, &ls), SG_RESULT_RECORD_FOREIGN_WORLD);
        expect("outputs untouched on refusal", lx == 7 && lz == 7 && ls == 99 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("refused record left nothing", sg_world_chunk_status(dst, 0, 0, &ls), SG_RESULT_NOT_READY);
        /* A task of the chunk in flight: its one task (empty at 0, 0) is taken, not finished. */
        sg_task *held[1];
        size_t nheld = 0;
        expect("busy request", sg_world_request(dst, 0, 0, SG_STATUS_EMPTY, SG_PRIORITY_SOON, &rt), SG_RESULT_OK);
        expect("busy take", sg_world_take_tasks(dst, held, 1, &nheld), SG_RESULT_OK);
        expect("load while busy", sg_world_load_chunk(dst, rec, rlen, &lx, &lz, &ls), SG_RESULT_CHUNK_BUSY);
        expect("busy run", sg_task_run(held[0]), SG_RESULT_OK);
        expect("busy finish", sg_world_finish_task(dst, held[0]), SG_RESULT_OK);
        expect("load", sg_world_load_chunk(dst, rec, rlen, &lx, &lz, &ls), SG_RESULT_OK);
        expect("load outputs", lx == 0 && lz == 0 && ls == SG_STATUS_BIOMES ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("loaded status", sg_world_chunk_status(dst, 0, 0, &ls) == SG_RESULT_OK && ls == SG_STATUS_BIOMES ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("load twice", sg_world_load_chunk(dst, rec, rlen, NULL, NULL, NULL), SG_RESULT_ALREADY_RESIDENT);
        free(rec);
        free(bad_rec);
        expect("record world destroy", sg_world_destroy(src_w), SG_RESULT_OK);
        expect("record target destroy", sg_world_destroy(dst), SG_RESULT_OK);
        expect("record other destroy", sg_world_destroy(other), SG_RESULT_OK);
    }

    /* Edits: positions outside the world, unknown ids, batches refused whole, damaged and
     * foreign edit records, use after destroy. */
    {
        sg_world *ew = NULL, *eo = NULL, *gone = NULL;
        sg_world_def other_def = def;
        other_def.seed = 2;
        expect("edit world", sg_world_create(&def, &ew), SG_RESULT_OK);
        expect("edit other world", sg_world_create(&other_def, &eo), SG_RESULT_OK);
        uint32_t count = sg_block_count();
        expect("set block", sg_world_set_block(ew, 3, 70, -5, 1), SG_RESULT_OK);
        expect("set block NULL world", sg_world_set_block(NULL, 3, 70, -5, 1), SG_RESULT_NULL_ARGUMENT);
        expect("set block below the world", sg_world_set_block(ew, 3, -65, -5, 1), SG_RESULT_OUT_OF_RANGE);
        expect("set block above the world", sg_world_set_block(ew, 3, 320, -5, 1), SG_RESULT_OUT_OF_RANGE);
        expect("set block far chunk", sg_world_set_block(ew, 1 << 25, 70, 0, 1), SG_RESULT_OUT_OF_RANGE);
        expect("set block INT32_MIN", sg_world_set_block(ew, INT32_MIN, 70, INT32_MIN, 1), SG_RESULT_OUT_OF_RANGE);
        expect("set block unknown id", sg_world_set_block(ew, 3, 70, -5, (uint16_t)count), SG_RESULT_UNKNOWN_BLOCK);
        expect("set block id 65535", sg_world_set_block(ew, 3, 70, -5, 65535), SG_RESULT_UNKNOWN_BLOCK);
        uint16_t b = 77;
        expect("block of the edit", sg_world_block(ew, 3, 70, -5, &b) == SG_RESULT_OK && b == 1 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        b = 77;
        expect("block not generated", sg_world_block(ew, 3, 71, -5, &b), SG_RESULT_NOT_READY);
        expect("block untouched on error", b == 77 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("block NULL out", sg_world_block(ew, 3, 70, -5, NULL), SG_RESULT_NULL_ARGUMENT);
        expect("block out of range", sg_world_block(ew, 3, 400, -5, &b), SG_RESULT_OUT_OF_RANGE);
        sg_block_edit batch[3] = {{0, 70, 0, 2}, {1, 70, 0, 3}, {2, 70, 0, 60000}};
        size_t failed_at = 99;
        expect("batch with an unknown id", sg_world_set_blocks(ew, batch, 3, &failed_at), SG_RESULT_UNKNOWN_BLOCK);
        expect("batch failed index", failed_at == 2 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("refused batch left nothing", sg_world_block(ew, 0, 70, 0, &b), SG_RESULT_NOT_READY);
        expect("batch NULL edits", sg_world_set_blocks(ew, NULL, 3, NULL), SG_RESULT_NULL_ARGUMENT);
        expect("batch", sg_world_set_blocks(ew, batch, 2, NULL), SG_RESULT_OK);
        sg_chunk_pos cp[1];
        size_t ncp = 0;
        expect("changed size query", sg_world_changed_chunks(ew, NULL, 0, &ncp), SG_RESULT_BUFFER_TOO_SMALL);
        expect("changed too small", sg_world_changed_chunks(ew, cp, 1, &ncp), SG_RESULT_BUFFER_TOO_SMALL);
        expect("changed kept after too small", ncp >= 2 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        sg_chunk_pos *all = malloc(ncp * sizeof *all);
        expect("changed", sg_world_changed_chunks(ew, all, ncp, &ncp), SG_RESULT_OK);
        free(all);
        expect("changed empty after", sg_world_changed_chunks(ew, NULL, 0, &ncp) == SG_RESULT_OK && ncp == 0 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        size_t elen = 0;
        expect("save edits out of range", sg_world_save_edits(ew, 1 << 21, 0, NULL, 0, &elen), SG_RESULT_OUT_OF_RANGE);
        expect("save edits size", sg_world_save_edits(ew, 0, -1, NULL, 0, &elen), SG_RESULT_BUFFER_TOO_SMALL);
        uint8_t *er = malloc(elen), *damaged = malloc(elen);
        expect("save edits", sg_world_save_edits(ew, 0, -1, er, elen, NULL), SG_RESULT_OK);
        int32_t ex = 7, ez = 7;
        expect("load edits NULL bytes", sg_world_load_edits(eo, NULL, elen, &ex, &ez), SG_RESULT_NULL_ARGUMENT);
        expect("load edits truncated", sg_world_load_edits(eo, er, elen - 1, &ex, &ez), SG_RESULT_RECORD_TRUNCATED);
        memcpy(damaged, er, elen);
        damaged[elen - 12] ^= 0x10;
        expect("load edits bit flip", sg_world_load_edits(eo, damaged, elen, &ex, &ez), SG_RESULT_RECORD_CHECKSUM);
        memcpy(damaged, er, elen);
        damaged[3] = 'C'; /* a chunk record's magic */
        expect("load edits not an edit record", sg_world_load_edits(eo, damaged, elen, &ex, &ez), SG_RESULT_RECORD_MALFORMED);
        expect("load edits into another world", sg_world_load_edits(eo, er, elen, &ex, &ez), SG_RESULT_RECORD_FOREIGN_WORLD);
        expect("edit outputs untouched on refusal", ex == 7 && ez == 7 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("gone world", sg_world_create(&def, &gone), SG_RESULT_OK);
        expect("load edits", sg_world_load_edits(gone, er, elen, &ex, &ez), SG_RESULT_OK);
        expect("load edits outputs", ex == 0 && ez == -1 && sg_world_block(gone, 3, 70, -5, &b) == SG_RESULT_OK && b == 1 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("chunk record refused as edits", sg_world_load_chunk(gone, er, elen, NULL, NULL, NULL), SG_RESULT_RECORD_MALFORMED);
        expect("gone destroy", sg_world_destroy(gone), SG_RESULT_OK);
        expect("set block after destroy", sg_world_set_block(gone, 3, 70, -5, 1), SG_RESULT_STALE_HANDLE);
        expect("block after destroy", sg_world_block(gone, 3, 70, -5, &b), SG_RESULT_STALE_HANDLE);
        expect("batch after destroy", sg_world_set_blocks(gone, batch, 2, NULL), SG_RESULT_STALE_HANDLE);
        expect("changed after destroy", sg_world_changed_chunks(gone, NULL, 0, &ncp), SG_RESULT_STALE_HANDLE);
        expect("save edits after destroy", sg_world_save_edits(gone, 0, 0, er, elen, NULL), SG_RESULT_STALE_HANDLE);
        expect("load edits after destroy", sg_world_load_edits(gone, er, elen, NULL, NULL), SG_RESULT_STALE_HANDLE);
        uint32_t nl = 0, layers = 0;
        expect("scatter layers after destroy", sg_world_scatter_layer_count(gone, &nl), SG_RESULT_STALE_HANDLE);
        expect("scatter after destroy", sg_world_scatter(gone, 0, 0, 0, NULL, 0, NULL), SG_RESULT_STALE_HANDLE);
        expect("scatter layer count", sg_world_scatter_layer_count(ew, &layers), SG_RESULT_OK);
        expect("scatter layer count NULL", sg_world_scatter_layer_count(ew, NULL), SG_RESULT_NULL_ARGUMENT);
        sg_scatter_layer_info li;
        expect("scatter layer info", sg_world_scatter_layer_info(ew, 0, &li), layers ? SG_RESULT_OK : SG_RESULT_INVALID_ARGUMENT);
        expect("scatter layer past the last", sg_world_scatter_layer_info(ew, layers, &li), SG_RESULT_INVALID_ARGUMENT);
        expect("scatter layer info NULL", sg_world_scatter_layer_info(ew, 0, NULL), SG_RESULT_NULL_ARGUMENT);
        const char *kname = NULL;
        expect("scatter kind past the last", sg_world_scatter_kind_name(ew, 0, 1000, &kname), SG_RESULT_INVALID_ARGUMENT);
        expect("scatter kind of no layer", sg_world_scatter_kind_name(ew, layers, 0, &kname), SG_RESULT_INVALID_ARGUMENT);
        expect("scatter kind NULL", sg_world_scatter_kind_name(ew, 0, 0, NULL), SG_RESULT_NULL_ARGUMENT);
        size_t nsi = 7;
        expect("scatter not generated", sg_world_scatter(ew, 0, 40, 40, NULL, 0, &nsi), SG_RESULT_NOT_READY);
        expect("scatter far chunk", sg_world_scatter(ew, 0, 1 << 25, 0, NULL, 0, &nsi), SG_RESULT_OUT_OF_RANGE);
        expect("scatter no layer", sg_world_scatter(ew, layers, 0, 0, NULL, 0, &nsi), SG_RESULT_INVALID_ARGUMENT);
        free(er);
        free(damaged);
        expect("edit world destroy", sg_world_destroy(ew), SG_RESULT_OK);
        expect("edit other destroy", sg_world_destroy(eo), SG_RESULT_OK);
    }

    /* World definitions. */
    {
        const char *doc = "format = 1\nname = \"x\"\nbase = \"default\"\n";
        const char *bad_doc = "format = 1\nname = \"x\"\nbase = \"default\"\nseed = 1\n";
        char err[256];
        sg_world *d = NULL;
        memset(err, 'z', sizeof err);
        expect("definition NULL def", sg_world_create_from_definition(NULL, doc, strlen(doc), &d, err, sizeof err), SG_RESULT_NULL_ARGUMENT);
        expect("definition NULL text", sg_world_create_from_definition(&def, NULL, 0, &d, err, sizeof err), SG_RESULT_NULL_ARGUMENT);
        expect("definition NULL out", sg_world_create_from_definition(&def, doc, strlen(doc), NULL, err, sizeof err), SG_RESULT_NULL_ARGUMENT);
        sg_world_def small = def;
        small.struct_size = 4;
        expect("definition small struct_size", sg_world_create_from_definition(&small, doc, strlen(doc), &d, err, sizeof err), SG_RESULT_BAD_STRUCT_SIZE);
        expect("definition with problems", sg_world_create_from_definition(&def, bad_doc, strlen(bad_doc), &d, err, sizeof err), SG_RESULT_INVALID_DEFINITION);
        expect("definition error names the key", strstr(err, "4:8: seed: unknown key") != NULL ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("definition error cut to the buffer", sg_world_create_from_definition(&def, bad_doc, strlen(bad_doc), &d, err, 5) == SG_RESULT_INVALID_DEFINITION && strlen(err) == 4 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("definition without error buffer", sg_world_create_from_definition(&def, bad_doc, strlen(bad_doc), &d, NULL, 0), SG_RESULT_INVALID_DEFINITION);
        const char not_utf8[] = {'f', (char)0xff, 0};
        expect("definition not UTF-8", sg_world_create_from_definition(&def, not_utf8, 2, &d, err, sizeof err), SG_RESULT_INVALID_DEFINITION);
        expect("not UTF-8 at its line and column", strncmp(err, "1:2: the document is not UTF-8", 30) == 0 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("definition shorter than its text", sg_world_create_from_definition(&def, doc, 10, &d, err, sizeof err), SG_RESULT_INVALID_DEFINITION);
        sg_world_def tall = def;
        tall.height = 100;
        expect("definition bad settings", sg_world_create_from_definition(&tall, doc, strlen(doc), &d, err, sizeof err), SG_RESULT_INVALID_ARGUMENT);
        expect("definition made nothing", d == NULL ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("definition", sg_world_create_from_definition(&def, doc, strlen(doc), &d, err, sizeof err), SG_RESULT_OK);
        uint64_t dd = 0, dw = 0;
        expect("definition digest", sg_world_definition_digest(d, &dd), SG_RESULT_OK);
        expect("built-in digest", sg_world_definition_digest(w, &dw), SG_RESULT_OK);
        expect("a document on default is default", dd == dw ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("definition digest NULL", sg_world_definition_digest(d, NULL), SG_RESULT_NULL_ARGUMENT);
        size_t need = 0;
        expect("preset NULL name", sg_definition_preset(NULL, NULL, 0, &need), SG_RESULT_NULL_ARGUMENT);
        expect("preset unknown", sg_definition_preset("moon", NULL, 0, &need), SG_RESULT_NOT_FOUND);
        expect("preset size", sg_definition_preset("caverns", NULL, 0, &need), SG_RESULT_BUFFER_TOO_SMALL);
        char tiny[8] = "keep";
        expect("preset too small", sg_definition_preset("caverns", tiny, sizeof tiny, &need), SG_RESULT_BUFFER_TOO_SMALL);
        expect("preset untouched", strcmp(tiny, "keep") == 0 && need > 100 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        uint32_t count = 0, id = 0;
        sg_block_info bi;
        sg_biome_info mi;
        expect("world block count", sg_world_block_count(d, &count), SG_RESULT_OK);
        expect("world block past the end", sg_world_block_info(d, count, &bi), SG_RESULT_INVALID_ARGUMENT);
        expect("world block NULL out", sg_world_block_info(d, 0, NULL), SG_RESULT_NULL_ARGUMENT);
        expect("world block NULL name", sg_world_block_by_name(d, NULL, &id), SG_RESULT_NULL_ARGUMENT);
        expect("world block unknown name", sg_world_block_by_name(d, "unobtainium", &id), SG_RESULT_NOT_FOUND);
        expect("world biome count", sg_world_biome_count(d, &count), SG_RESULT_OK);
        expect("world biome past the end", sg_world_biome_info(d, count, &mi), SG_RESULT_INVALID_ARGUMENT);
        expect("world biome by name", sg_world_biome_by_name(d, "plains", &id), SG_RESULT_OK);
        expect("world biome info", sg_world_biome_info(d, id, &mi) == SG_RESULT_OK && strcmp(mi.name, "plains") == 0 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
        expect("definition destroy", sg_world_destroy(d), SG_RESULT_OK);
        expect("world palette after destroy", sg_world_block_count(d, &count), SG_RESULT_STALE_HANDLE);
        expect("digest after destroy", sg_world_definition_digest(d, &dd), SG_RESULT_STALE_HANDLE);
    }

    /* Use after destroy. */
    sg_task *t2[1];
    expect("request for destroy", sg_world_request(w2, 0, 0, SG_STATUS_FULL, SG_PRIORITY_SOON, &ticket), SG_RESULT_OK);
    expect("take before destroy", sg_world_take_tasks(w2, t2, 1, &n), SG_RESULT_OK);
    expect("destroy", sg_world_destroy(w2), SG_RESULT_OK);
    expect("destroy twice", sg_world_destroy(w2), SG_RESULT_STALE_HANDLE);
    expect("request after destroy", sg_world_request(w2, 0, 0, SG_STATUS_FULL, SG_PRIORITY_SOON, &ticket), SG_RESULT_STALE_HANDLE);
    expect("run task of destroyed world", sg_task_run(t2[0]), SG_RESULT_STALE_HANDLE);
    expect("destroy NULL", sg_world_destroy(NULL), SG_RESULT_NULL_ARGUMENT);
    expect("unknown message", strcmp(sg_result_message(9999), "unknown result code") == 0 ? SG_RESULT_OK : SG_RESULT_INTERNAL_PANIC, SG_RESULT_OK);
    expect("destroy", sg_world_destroy(w), SG_RESULT_OK);

    printf("misuse: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
