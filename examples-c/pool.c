/* A C11 host with a pthread pool: requests a square of chunks at FULL, runs tasks on its
 * threads, finishes them on the main (owner) thread, and prints each chunk's digest.
 *
 * THREADS is the number of threads that run status bodies: the main thread and THREADS - 1
 * helpers. The main thread finishes what helpers ran, refills the queue, and when it has
 * nothing to finish runs a queued task itself instead of sleeping; it sleeps only when every
 * outstanding task is running on a helper. THREADS = 0 runs everything through
 * sg_world_run_inline (no helper, no queue): the baseline the pool is measured against.
 *
 * usage: pool SEED RADIUS THREADS [CX CZ]   (a square centred on chunk CX, CZ, default 0 0;
 *        prints "chunk X Z DIGEST" lines, then "region DIGEST"; the generation time goes to
 *        stderr as "elapsed_ms MS") */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "queue.h"
#include "stratagen.h"

static queue todo, done;

static void *worker(void *arg) {
    (void)arg;
    sg_task *t;
    while ((t = q_pop(&todo)) != NULL) {
        sg_result r = sg_task_run(t); /* any thread */
        if (r != SG_RESULT_OK) fprintf(stderr, "run: %s\n", sg_result_message(r));
        q_push(&done, t);
    }
    return NULL;
}

#define CHECK(call)                                                              \
    do {                                                                         \
        sg_result r_ = (call);                                                   \
        if (r_ != SG_RESULT_OK) {                                                \
            fprintf(stderr, "%s failed: %s\n", #call, sg_result_message(r_));    \
            return 1;                                                            \
        }                                                                        \
    } while (0)

/* XXH64 of the per-chunk digests (little-endian), as the library's region digest. */
static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
static const uint64_t P1 = 0x9E3779B185EBCA87ULL, P2 = 0xC2B2AE3D27D4EB4FULL, P3 = 0x165667B19E3779F9ULL,
                      P4 = 0x85EBCA77C2B2AE63ULL, P5 = 0x27D4EB2F165667C5ULL;
static uint64_t round1(uint64_t acc, uint64_t in) { return rotl(acc + in * P2, 31) * P1; }
static uint64_t xxh64_u64s(const uint64_t *v, size_t n) {
    /* Specialised XXH64 (seed 0) for an array of 64-bit lanes; little-endian host assumed
     * (the examples run on x86_64 and aarch64). */
    size_t len = n * 8, i = 0;
    uint64_t h;
    if (len >= 32) {
        uint64_t a = P1 + P2, b = P2, c = 0, d = 0 - P1;
        for (; i + 4 <= n; i += 4) {
            a = round1(a, v[i]);
            b = round1(b, v[i + 1]);
            c = round1(c, v[i + 2]);
            d = round1(d, v[i + 3]);
        }
        h = rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18);
        h = (h ^ round1(0, a)) * P1 + P4;
        h = (h ^ round1(0, b)) * P1 + P4;
        h = (h ^ round1(0, c)) * P1 + P4;
        h = (h ^ round1(0, d)) * P1 + P4;
    } else {
        h = P5;
    }
    h += len;
    for (; i < n; i++) h = rotl(h ^ round1(0, v[i]), 27) * P1 + P4;
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    h ^= h >> 32;
    return h;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 6) {
        fprintf(stderr, "usage: %s SEED RADIUS THREADS [CX CZ]\n", argv[0]);
        return 2;
    }
    long long seed = atoll(argv[1]);
    int radius = atoi(argv[2]), threads = atoi(argv[3]);
    int cx0 = argc == 6 ? atoi(argv[4]) : 0, cz0 = argc == 6 ? atoi(argv[5]) : 0;
    if (radius < 0 || radius > 64 || threads < 0 || threads > 64) return 2;

#ifdef __GLIBC__
    /* Keep freed memory in the process: each chunk allocates and frees a few MiB, and
     * glibc's default trimming makes the next chunk fault the pages in again, which two
     * threads in one process pay for dearly (ARCHITECTURE.md, "The driver"). */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TOP_PAD, 256 << 20);
#endif
    sg_world_def def = sg_world_def_default();
    def.seed = seed;
    sg_world *world = NULL;
    CHECK(sg_world_create(&def, &world));

    int side = 2 * radius + 1;
    uint64_t *tickets = malloc(sizeof(uint64_t) * (size_t)(side * side));
    if (!tickets) return 3;
    for (int z = -radius; z <= radius; z++)
        for (int x = -radius; x <= radius; x++)
            CHECK(sg_world_request(world, cx0 + x, cz0 + z, SG_STATUS_FULL, SG_PRIORITY_SOON, &tickets[(z + radius) * side + x + radius]));

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (threads == 0) {
        size_t ran = 0;
        CHECK(sg_world_run_inline(world, SIZE_MAX, &ran)); /* owner thread, no helpers */
    } else {
        q_init(&todo);
        q_init(&done);
        int helpers = threads - 1;
        pthread_t *pool = malloc(sizeof(pthread_t) * (size_t)(helpers > 0 ? helpers : 1));
        if (!pool) return 3;
        for (int i = 0; i < helpers; i++) pthread_create(&pool[i], NULL, worker, NULL);

        /* Keep 16 tasks per thread queued, so no helper waits while the main thread runs a
         * task of its own: most tasks take microseconds, a light task milliseconds. */
        size_t target = 16 * (size_t)threads, outstanding = 0;
        sg_task *taken[128];
        void *batch[128];
        for (;;) {
            size_t nf = q_drain(&done, batch, 128);
            for (size_t i = 0; i < nf; i++) CHECK(sg_world_finish_task(world, batch[i])); /* owner */
            outstanding -= nf;
            size_t queued = q_len(&todo);
            size_t want = target > queued ? target - queued : 0;
            if (want > 128) want = 128;
            size_t n = 0;
            CHECK(sg_world_take_tasks(world, taken, want, &n));
            for (size_t i = 0; i < n; i++) batch[i] = taken[i];
            q_push_many(&todo, batch, n, (size_t)helpers);
            outstanding += n;
            if (outstanding == 0) break;
            sg_task *mine = q_try_pop(&todo); /* nothing to finish: run one here */
            if (mine != NULL) {
                sg_result r = sg_task_run(mine);
                if (r != SG_RESULT_OK) fprintf(stderr, "run: %s\n", sg_result_message(r));
                CHECK(sg_world_finish_task(world, mine));
                outstanding--;
                continue;
            }
            sg_task *t = q_pop(&done); /* everything outstanding runs on helpers: wait */
            CHECK(sg_world_finish_task(world, t));
            outstanding--;
        }
        q_close(&todo);
        for (int i = 0; i < helpers; i++) pthread_join(pool[i], NULL);
        free(pool);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    fprintf(stderr, "elapsed_ms %.3f\n",
            (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);

    uint64_t *digests = malloc(sizeof(uint64_t) * (size_t)(side * side));
    if (!digests) return 3;
    for (int z = -radius; z <= radius; z++)
        for (int x = -radius; x <= radius; x++) {
            uint64_t d = 0;
            CHECK(sg_chunk_digest(world, cx0 + x, cz0 + z, &d));
            digests[(z + radius) * side + x + radius] = d;
            printf("chunk %d %d %016" PRIx64 "\n", cx0 + x, cz0 + z, d);
        }
    printf("region %016" PRIx64 "\n", xxh64_u64s(digests, (size_t)(side * side)));

    for (int i = 0; i < side * side; i++) CHECK(sg_world_release(world, tickets[i]));
    CHECK(sg_world_destroy(world));
    free(digests);
    free(tickets);
    return 0;
}
