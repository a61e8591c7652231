// A C++17 host with std::thread workers and a moving view: each frame it requests the chunks
// within the view radius of the player, releases those that fell behind, and lets at most
// BUDGET tasks be handed out. At the end it prints the digests of the final view.
//
// usage: walk SEED STEPS THREADS
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "stratagen.h"

namespace {

struct Queue {
    std::mutex mu;
    std::condition_variable cv;
    std::deque<sg_task*> items;
    bool closed = false;
    void push(sg_task* t) {
        { std::lock_guard<std::mutex> g(mu); items.push_back(t); }
        cv.notify_one();
    }
    sg_task* pop() {
        std::unique_lock<std::mutex> g(mu);
        cv.wait(g, [&] { return !items.empty() || closed; });
        if (items.empty()) return nullptr;
        sg_task* t = items.front();
        items.pop_front();
        return t;
    }
    bool try_pop(sg_task** t) {
        std::lock_guard<std::mutex> g(mu);
        if (items.empty()) return false;
        *t = items.front();
        items.pop_front();
        return true;
    }
    void close() {
        { std::lock_guard<std::mutex> g(mu); closed = true; }
        cv.notify_all();
    }
};

void check(sg_result r, const char* what) {
    if (r != SG_RESULT_OK) {
        std::fprintf(stderr, "%s: %s\n", what, sg_result_message(r));
        std::exit(1);
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s SEED STEPS THREADS\n", argv[0]);
        return 2;
    }
    const long long seed = std::atoll(argv[1]);
    const int steps = std::atoi(argv[2]);
    const int threads = std::atoi(argv[3]);
    if (steps < 1 || threads < 1 || threads > 64) return 2;
    const int view = 2;
    const size_t budget = 16;  // tasks handed out per frame at most

    sg_world_def def = sg_world_def_default();
    def.seed = seed;
    sg_world* world = nullptr;
    check(sg_world_create(&def, &world), "create");

    Queue todo, done;
    std::vector<std::thread> pool;
    for (int i = 0; i < threads; i++)
        pool.emplace_back([&] {
            while (sg_task* t = todo.pop()) {
                check(sg_task_run(t), "run");
                done.push(t);
            }
        });

    std::map<std::pair<int, int>, uint64_t> tickets;
    size_t outstanding = 0;
    auto frame = [&]() {
        sg_task* batch[16];
        size_t n = 0;
        check(sg_world_take_tasks(world, batch, budget, &n), "take");
        for (size_t i = 0; i < n; i++) todo.push(batch[i]);
        outstanding += n;
        sg_task* t;
        // Finish what came back, waiting for at least one if nothing else can progress.
        if (outstanding > 0 && n == 0) {
            t = done.pop();
            check(sg_world_finish_task(world, t), "finish");
            outstanding--;
        }
        while (done.try_pop(&t)) {
            check(sg_world_finish_task(world, t), "finish");
            outstanding--;
        }
    };
    int px = 0;
    for (int step = 0; step < steps; step++, px++) {
        for (int z = -view; z <= view; z++)
            for (int x = px - view; x <= px + view; x++)
                if (!tickets.count({x, z})) {
                    uint64_t t = 0;
                    check(sg_world_request(world, x, z, SG_STATUS_FULL, x == px && z == 0 ? SG_PRIORITY_IMMEDIATE : SG_PRIORITY_SOON, &t), "request");
                    tickets[{x, z}] = t;
                }
        for (auto it = tickets.begin(); it != tickets.end();) {
            if (it->first.first < px - view) {
                check(sg_world_release(world, it->second), "release");
                it = tickets.erase(it);
            } else {
                ++it;
            }
        }
        for (int f = 0; f < 4; f++) frame();
    }
    // Drain: keep running frames until the view is complete.
    for (;;) {
        size_t ready = 0, in_flight = 0;
        check(sg_world_pending(world, &ready, &in_flight), "pending");
        if (ready == 0 && in_flight == 0 && outstanding == 0) break;
        frame();
    }
    todo.close();
    for (auto& th : pool) th.join();
    px--;
    for (int z = -view; z <= view; z++)
        for (int x = px - view; x <= px + view; x++) {
            uint64_t d = 0;
            check(sg_chunk_digest(world, x, z, &d), "digest");
            std::printf("chunk %d %d %016" PRIx64 "\n", x, z, d);
        }
    for (auto& kv : tickets) check(sg_world_release(world, kv.second), "release");
    check(sg_world_destroy(world), "destroy");
    return 0;
}
