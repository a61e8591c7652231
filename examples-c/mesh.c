/* Mesh a region on a pthread pool: the owner thread generates chunks (-R..R)^2 inline,
 * makes one mesh source per chunk of the inner (-R+1..R-1)^2 (a source shares the chunk
 * and its neighbours out of the world), and THREADS workers build the meshes concurrently,
 * without touching the world. Prints one line per chunk,
 *   mesh CX CZ culled DIGEST greedy DIGEST quads N
 * and copies every surface of the first mesh through the size query to check the counts.
 *
 * Usage: mesh [SEED [RADIUS [THREADS]]]   (defaults 0, 2, 2)
 * Thread rules: sg_world_* on the owner (main) thread only; sg_mesh_* on any thread. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "stratagen.h"

#define CHECK(call)                                                                      \
    do {                                                                                 \
        sg_result r_ = (call);                                                           \
        if (r_ != SG_RESULT_OK) {                                                        \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                \
                    sg_result_message(r_));                                              \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

typedef struct job {
    int32_t cx, cz;
    sg_mesh_source *source;
    uint64_t culled, greedy;
    size_t quads;
} job;

static job *jobs;
static size_t job_count;
static size_t next_job;
static pthread_mutex_t next_lock = PTHREAD_MUTEX_INITIALIZER;

/* Number of quads of a mesh, over its three surfaces. */
static size_t quad_count(const sg_mesh *m) {
    size_t quads = 0;
    for (uint32_t s = SG_SURFACE_OPAQUE; s <= SG_SURFACE_TRANSLUCENT; s++) {
        size_t v = 0;
        CHECK(sg_mesh_counts(m, s, &v, NULL));
        quads += v / 4;
    }
    return quads;
}

static void *worker(void *arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&next_lock);
        size_t i = next_job++;
        pthread_mutex_unlock(&next_lock);
        if (i >= job_count) return NULL;
        job *j = &jobs[i];
        sg_mesh_def def = sg_mesh_def_default();
        sg_mesh *m = NULL;
        CHECK(sg_mesh_build(j->source, &def, &m));
        CHECK(sg_mesh_digest(m, &j->culled));
        j->quads = quad_count(m);
        CHECK(sg_mesh_destroy(m));
        def.mode = SG_MESH_MODE_GREEDY;
        CHECK(sg_mesh_build(j->source, &def, &m));
        CHECK(sg_mesh_digest(m, &j->greedy));
        CHECK(sg_mesh_destroy(m));
    }
}

/* Copy every surface of one mesh after asking the sizes; the counts must match. */
static void copy_all(const sg_mesh_source *src) {
    sg_mesh_def def = sg_mesh_def_default();
    sg_mesh *m = NULL;
    CHECK(sg_mesh_build(src, &def, &m));
    for (uint32_t s = SG_SURFACE_OPAQUE; s <= SG_SURFACE_TRANSLUCENT; s++) {
        size_t nv = 0, ni = 0;
        CHECK(sg_mesh_counts(m, s, &nv, &ni));
        sg_mesh_buffers b = {0};
        if (sg_mesh_copy(m, s, &b) != (nv || ni ? SG_RESULT_BUFFER_TOO_SMALL : SG_RESULT_OK)) {
            fprintf(stderr, "size query of surface %u\n", (unsigned)s);
            exit(1);
        }
        b.positions = malloc(sizeof(float) * 3 * (nv + 1));
        b.ao = malloc(nv + 1);
        b.quad_blocks = malloc(sizeof(uint16_t) * (nv / 4 + 1));
        b.indices = malloc(sizeof(uint32_t) * (ni + 1));
        b.vertex_capacity = nv;
        b.index_capacity = ni;
        CHECK(sg_mesh_copy(m, s, &b));
        for (size_t k = 0; k < ni; k++) {
            if (b.indices[k] >= nv) {
                fprintf(stderr, "index %zu out of range\n", k);
                exit(1);
            }
        }
        for (size_t k = 0; k < nv; k++) {
            if (b.ao[k] > 3) {
                fprintf(stderr, "ao %u out of range\n", (unsigned)b.ao[k]);
                exit(1);
            }
        }
        printf("surface %u vertices %zu indices %zu\n", (unsigned)s, nv, ni);
        free(b.positions);
        free(b.ao);
        free(b.quad_blocks);
        free(b.indices);
    }
    CHECK(sg_mesh_destroy(m));
}

int main(int argc, char **argv) {
    int64_t seed = argc > 1 ? strtoll(argv[1], NULL, 10) : 0;
    int radius = argc > 2 ? atoi(argv[2]) : 2;
    int threads = argc > 3 ? atoi(argv[3]) : 2;
    if (radius < 1 || threads < 1 || threads > 64) {
        fprintf(stderr, "usage: mesh [SEED [RADIUS>=1 [THREADS 1..64]]]\n");
        return 2;
    }
    sg_world_def def = sg_world_def_default();
    def.seed = seed;
    sg_world *w = NULL;
    CHECK(sg_world_create(&def, &w));
    for (int z = -radius; z <= radius; z++) {
        for (int x = -radius; x <= radius; x++) {
            uint64_t ticket = 0;
            CHECK(sg_world_request(w, x, z, SG_STATUS_FULL, SG_PRIORITY_SOON, &ticket));
        }
    }
    size_t ran = 0;
    CHECK(sg_world_run_inline(w, SIZE_MAX, &ran));

    int inner = radius - 1;
    job_count = (size_t)(2 * inner + 1) * (size_t)(2 * inner + 1);
    jobs = calloc(job_count, sizeof(job));
    size_t k = 0;
    for (int z = -inner; z <= inner; z++) {
        for (int x = -inner; x <= inner; x++, k++) {
            jobs[k].cx = x;
            jobs[k].cz = z;
            CHECK(sg_world_mesh_source(w, x, z, &jobs[k].source));
        }
    }
    pthread_t pool[64];
    for (int t = 0; t < threads; t++) pthread_create(&pool[t], NULL, worker, NULL);
    for (int t = 0; t < threads; t++) pthread_join(pool[t], NULL);
    for (k = 0; k < job_count; k++) {
        printf("mesh %d %d culled %016" PRIx64 " greedy %016" PRIx64 " quads %zu\n", jobs[k].cx,
               jobs[k].cz, jobs[k].culled, jobs[k].greedy, jobs[k].quads);
    }
    copy_all(jobs[0].source);
    for (k = 0; k < job_count; k++) CHECK(sg_mesh_source_destroy(jobs[k].source));
    free(jobs);
    CHECK(sg_world_destroy(w));
    return 0;
}
