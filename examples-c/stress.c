/* Every call the C API allows from several threads, at once, for a few seconds, under a
 * watchdog (alarm: a hang kills the process, so its test fails instead of waiting).
 *
 * The main thread owns a world and walks a viewer over it: it requests and releases
 * chunks, takes tasks, finishes what the workers ran, edits blocks and reads them back, and
 * hands out mesh sources of full chunks. WORKERS threads meanwhile run status bodies, build
 * each mesh source twice (the two digests must agree), fill one shared noise handle
 * (every fill must equal the one made before the threads started) and read the palette;
 * each also calls an owner-only function and must get SG_RESULT_WRONG_THREAD.
 *
 * usage: stress SEED SECONDS WORKERS
 * prints "calls tasks=N meshes=N fills=N wrong_thread=N", then the digests of the square
 * of radius 2 around chunk (40, 40) (never edited): "chunk X Z DIGEST" lines. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "queue.h"
#include "stratagen.h"

#define MAX_WORKERS 16
#define FILL_SIDE 64
/* Seconds the watchdog allows past the run before it kills the process. */
#define WATCHDOG_GRACE 60
/* The viewer's square: chunks within this radius of it are requested. */
#define VIEW 2
#define WALK 8

/* A mesh source built by two workers; the second to finish compares and frees it. */
typedef struct {
    sg_mesh_source *source;
    uint64_t digest;
    int builds;
    pthread_mutex_t mu;
} mesh_job;

static queue todo, done, meshes;
static sg_world *world;
static sg_noise *noise;
static float reference[FILL_SIDE * FILL_SIDE];
static pthread_mutex_t counters_mu = PTHREAD_MUTEX_INITIALIZER;
static long n_tasks, n_meshes, n_fills, n_wrong_thread, n_failures;

static void sleep_us(long us) {
    struct timespec t = {.tv_sec = us / 1000000L, .tv_nsec = (us % 1000000L) * 1000L};
    nanosleep(&t, NULL);
}

static void count(long *c, long by) {
    pthread_mutex_lock(&counters_mu);
    *c += by;
    pthread_mutex_unlock(&counters_mu);
}

static void fail(const char *what, sg_result r) {
    fprintf(stderr, "%s: %s\n", what, sg_result_message(r));
    count(&n_failures, 1);
}

static sg_grid2 fill_grid(void) {
    sg_grid2 g = {.x0 = -3.5, .y0 = 11.25, .dx = 0.75, .dy = 1.5, .width = FILL_SIDE, .height = FILL_SIDE};
    return g;
}

static void build_mesh(mesh_job *job) {
    sg_mesh_def def = sg_mesh_def_default();
    sg_mesh *mesh = NULL;
    sg_result r = sg_mesh_build(job->source, &def, &mesh); /* any thread */
    if (r != SG_RESULT_OK) {
        fail("sg_mesh_build", r);
        return;
    }
    uint64_t d = 0;
    if ((r = sg_mesh_digest(mesh, &d)) != SG_RESULT_OK) fail("sg_mesh_digest", r);
    sg_mesh_destroy(mesh);
    pthread_mutex_lock(&job->mu);
    int last = ++job->builds == 2;
    if (job->builds == 1) {
        job->digest = d;
    } else if (job->digest != d) {
        fprintf(stderr, "two builds of one mesh source differ\n");
        count(&n_failures, 1);
    }
    pthread_mutex_unlock(&job->mu);
    if (last) {
        sg_mesh_source_destroy(job->source); /* any thread */
        pthread_mutex_destroy(&job->mu);
        free(job);
    }
    count(&n_meshes, 1);
}

static void *worker(void *arg) {
    (void)arg;
    float out[FILL_SIDE * FILL_SIDE];
    sg_grid2 grid = fill_grid();
    for (;;) {
        sg_task *t = q_pop_wait(&todo, 2);
        if (t != NULL) {
            sg_result r = sg_task_run(t); /* any thread */
            if (r != SG_RESULT_OK) fail("sg_task_run", r);
            while (!q_push(&done, t)) sleep_us(100);
            continue;
        }
        mesh_job *job = q_pop_wait(&meshes, 0);
        if (job != NULL) {
            build_mesh(job);
            continue;
        }
        if (q_closed(&todo)) return NULL;
        /* Nothing queued: the calls any thread may make. */
        sg_result r = sg_noise_fill_grid_2d(noise, &grid, out, FILL_SIDE * FILL_SIDE);
        if (r != SG_RESULT_OK) fail("sg_noise_fill_grid_2d", r);
        else if (memcmp(out, reference, sizeof out) != 0) {
            fprintf(stderr, "a fill on a worker differs from the reference\n");
            count(&n_failures, 1);
        }
        count(&n_fills, 1);
        uint32_t id = 0;
        if ((r = sg_world_block_by_name(world, "stone", &id)) != SG_RESULT_WRONG_THREAD) {
            fail("sg_world_block_by_name off the owner thread", r);
        } else {
            count(&n_wrong_thread, 1);
        }
        size_t ready = 0, in_flight = 0;
        if ((r = sg_world_pending(world, &ready, &in_flight)) != SG_RESULT_WRONG_THREAD) {
            fail("sg_world_pending off the owner thread", r);
        } else {
            count(&n_wrong_thread, 1);
        }
    }
}

#define CHECK(call)                                                              \
    do {                                                                         \
        sg_result r_ = (call);                                                   \
        if (r_ != SG_RESULT_OK) {                                                \
            fprintf(stderr, "%s failed: %s\n", #call, sg_result_message(r_));    \
            return 1;                                                            \
        }                                                                        \
    } while (0)

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Finish every task the workers ran; how many. */
static int finish_done(size_t *outstanding) {
    sg_task *t;
    while ((t = q_pop_wait(&done, 0)) != NULL) {
        sg_result r = sg_world_finish_task(world, t); /* owner thread */
        if (r != SG_RESULT_OK) {
            fail("sg_world_finish_task", r);
            return 1;
        }
        (*outstanding)--;
        count(&n_tasks, 1);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s SEED SECONDS WORKERS\n", argv[0]);
        return 2;
    }
    long long seed = atoll(argv[1]);
    double seconds = atof(argv[2]);
    int workers = atoi(argv[3]);
    if (seconds <= 0 || seconds > 600 || workers < 1 || workers > MAX_WORKERS) return 2;
    alarm((unsigned)seconds + WATCHDOG_GRACE);

    sg_world_def def = sg_world_def_default();
    def.seed = seed;
    CHECK(sg_world_create(&def, &world));
    sg_noise_def nd = sg_noise_def_default();
    nd.seed = 77;
    CHECK(sg_noise_create(&nd, &noise));
    sg_grid2 grid = fill_grid();
    CHECK(sg_noise_fill_grid_2d(noise, &grid, reference, FILL_SIDE * FILL_SIDE));

    q_init(&todo);
    q_init(&done);
    q_init(&meshes);
    pthread_t threads[MAX_WORKERS];
    for (int i = 0; i < workers; i++) pthread_create(&threads[i], NULL, worker, NULL);

    /* The viewer walks back and forth along x over WALK chunks; its square is requested. */
    uint64_t tickets[2 * VIEW + 1][2 * VIEW + 1];
    int have = 0, vx = 0, step = 1;
    size_t outstanding = 0;
    double stop = now_s() + seconds, moved = now_s();
    long frame = 0;
    while (now_s() < stop) {
        if (!have || now_s() - moved > 0.25) {
            uint64_t old[2 * VIEW + 1][2 * VIEW + 1];
            memcpy(old, tickets, sizeof old);
            int had = have;
            if (have) {
                vx += step;
                if (vx == WALK || vx == 0) step = -step;
            }
            for (int z = -VIEW; z <= VIEW; z++)
                for (int x = -VIEW; x <= VIEW; x++)
                    CHECK(sg_world_request(world, vx + x, z, SG_STATUS_FULL, SG_PRIORITY_SOON,
                                           &tickets[z + VIEW][x + VIEW]));
            if (had)
                for (int z = 0; z < 2 * VIEW + 1; z++)
                    for (int x = 0; x < 2 * VIEW + 1; x++) CHECK(sg_world_release(world, old[z][x]));
            have = 1;
            moved = now_s();
        }
        sg_task *batch[64];
        size_t n = 0;
        CHECK(sg_world_take_tasks(world, batch, 64, &n));
        for (size_t i = 0; i < n; i++) {
            while (!q_push(&todo, batch[i])) {
                if (finish_done(&outstanding)) return 1;
            }
            outstanding++;
        }
        if (finish_done(&outstanding)) return 1;

        /* Edits near the viewer, read back at once. */
        int bx = vx * 16 + (int)(frame % 16);
        uint16_t want = (uint16_t)(1 + frame % 2), got = 0;
        CHECK(sg_world_set_block(world, bx, 90, 3, want));
        CHECK(sg_world_block(world, bx, 90, 3, &got));
        if (got != want) {
            fprintf(stderr, "edit at (%d, 90, 3) reads %u, not %u\n", bx, got, want);
            return 1;
        }
        /* A mesh source of the viewer's chunk once it is full, built by two workers. */
        if (frame % 8 == 0) {
            sg_mesh_source *source = NULL;
            sg_result r = sg_world_mesh_source(world, vx, 0, &source);
            if (r == SG_RESULT_OK) {
                mesh_job *job = calloc(1, sizeof *job);
                if (job == NULL) return 3;
                job->source = source;
                pthread_mutex_init(&job->mu, NULL);
                if (!q_push(&meshes, job) || !q_push(&meshes, job)) {
                    fprintf(stderr, "mesh queue full\n");
                    return 1;
                }
            } else if (r != SG_RESULT_NOT_READY) {
                fail("sg_world_mesh_source", r);
            }
        }
        frame++;
        if (n == 0) sleep_us(200);
    }
    /* Drain: every task taken is finished before the world goes. */
    while (outstanding > 0) {
        if (finish_done(&outstanding)) return 1;
        sleep_us(200);
    }
    q_close(&todo);
    q_close(&meshes);
    for (int i = 0; i < workers; i++) pthread_join(threads[i], NULL);
    /* Mesh jobs no worker took are freed here. */
    mesh_job *job;
    while ((job = q_pop_wait(&meshes, 0)) != NULL) {
        pthread_mutex_lock(&job->mu);
        int last = ++job->builds == 2;
        pthread_mutex_unlock(&job->mu);
        if (last) {
            sg_mesh_source_destroy(job->source);
            pthread_mutex_destroy(&job->mu);
            free(job);
        }
    }
    for (int z = 0; z < 2 * VIEW + 1; z++)
        for (int x = 0; x < 2 * VIEW + 1; x++) CHECK(sg_world_release(world, tickets[z][x]));

    /* A square far from the walk, generated inline: the library's digests. */
    uint64_t far[5][5];
    for (int z = 0; z < 5; z++)
        for (int x = 0; x < 5; x++)
            CHECK(sg_world_request(world, 38 + x, 38 + z, SG_STATUS_FULL, SG_PRIORITY_SOON, &far[z][x]));
    size_t ran = 0;
    CHECK(sg_world_run_inline(world, SIZE_MAX, &ran));
    printf("calls tasks=%ld meshes=%ld fills=%ld wrong_thread=%ld failures=%ld\n", n_tasks, n_meshes,
           n_fills, n_wrong_thread, n_failures);
    for (int z = 0; z < 5; z++)
        for (int x = 0; x < 5; x++) {
            uint64_t d = 0;
            CHECK(sg_chunk_digest(world, 38 + x, 38 + z, &d));
            printf("chunk %d %d %016" PRIx64 "\n", 38 + x, 38 + z, d);
        }
    CHECK(sg_noise_destroy(noise));
    CHECK(sg_world_destroy(world));
    return n_failures == 0 ? 0 : 1;
}
