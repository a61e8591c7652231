/* A bounded FIFO of pointers shared by threads (a mutex and a condition variable): the
 * hand-off between an owner thread and its helpers in the threaded examples. Tasks, meshes
 * and other handles go through it; the library never sees it. */
#ifndef STRATAGEN_EXAMPLES_QUEUE_H
#define STRATAGEN_EXAMPLES_QUEUE_H

#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

/* Items a queue holds at most. */
#define QCAP 4096

typedef struct {
    void *items[QCAP];
    size_t head, len;
    int closed;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} queue;

static inline void q_init(queue *q) {
    memset(q, 0, sizeof *q);
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->cv, NULL);
}

/* Takes the head item, or NULL if the queue is empty. Call with q->mu held. */
static inline void *q_take_locked(queue *q) {
    void *p = NULL;
    if (q->len > 0) {
        p = q->items[q->head];
        q->head = (q->head + 1) % QCAP;
        q->len--;
    }
    return p;
}

/* Pushes one item and wakes one waiting thread; 0 if the queue is full. */
static inline int q_push(queue *q, void *p) {
    pthread_mutex_lock(&q->mu);
    int ok = q->len < QCAP;
    if (ok) {
        q->items[(q->head + q->len) % QCAP] = p;
        q->len++;
        pthread_cond_signal(&q->cv);
    }
    pthread_mutex_unlock(&q->mu);
    return ok;
}

/* Pushes n items (the caller keeps the queue below QCAP) and wakes up to `wake` waiting
 * threads. */
static inline void q_push_many(queue *q, void **ps, size_t n, size_t wake) {
    pthread_mutex_lock(&q->mu);
    for (size_t i = 0; i < n; i++) q->items[(q->head + q->len + i) % QCAP] = ps[i];
    q->len += n;
    for (size_t i = 0; i < wake && i < n; i++) pthread_cond_signal(&q->cv);
    pthread_mutex_unlock(&q->mu);
}

/* Pops one item, waiting for one; NULL once the queue is closed and empty. */
static inline void *q_pop(queue *q) {
    pthread_mutex_lock(&q->mu);
    while (q->len == 0 && !q->closed) pthread_cond_wait(&q->cv, &q->mu);
    void *p = q_take_locked(q);
    pthread_mutex_unlock(&q->mu);
    return p;
}

/* Pops one item, waiting at most `ms` milliseconds; NULL if none came or the queue closed. */
static inline void *q_pop_wait(queue *q, long ms) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += ms * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&q->mu);
    while (q->len == 0 && !q->closed) {
        if (pthread_cond_timedwait(&q->cv, &q->mu, &until) != 0) break;
    }
    void *p = q_take_locked(q);
    pthread_mutex_unlock(&q->mu);
    return p;
}

/* Pops one item without waiting; NULL if the queue is empty. */
static inline void *q_try_pop(queue *q) {
    pthread_mutex_lock(&q->mu);
    void *p = q_take_locked(q);
    pthread_mutex_unlock(&q->mu);
    return p;
}

/* Moves up to cap items out without waiting; how many. */
static inline size_t q_drain(queue *q, void **out, size_t cap) {
    pthread_mutex_lock(&q->mu);
    size_t n = 0;
    while (q->len > 0 && n < cap) out[n++] = q_take_locked(q);
    pthread_mutex_unlock(&q->mu);
    return n;
}

static inline size_t q_len(queue *q) {
    pthread_mutex_lock(&q->mu);
    size_t n = q->len;
    pthread_mutex_unlock(&q->mu);
    return n;
}

/* Whether the queue was closed. */
static inline int q_closed(queue *q) {
    pthread_mutex_lock(&q->mu);
    int c = q->closed;
    pthread_mutex_unlock(&q->mu);
    return c;
}

/* Closes the queue: every waiting thread wakes, and pops of an empty queue return NULL. */
static inline void q_close(queue *q) {
    pthread_mutex_lock(&q->mu);
    q->closed = 1;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
}

#endif
