// The DetourCrowd column of the avoidance-quality suite (scripts/quality):
// the scenes of quality_scenes.h moved by Recast/Detour's crowd (Debian's
// librecast-dev) and measured exactly as quality.c measures rvo. Usage:
//   detour_quality <scene> [n] [max_steps]
// max_steps 0 (the default) means 3 x the free-walking time. Prints one CSV
// line in quality.c's columns, mode "detourcrowd":
//   scene,n,detourcrowd,worst_overlap_pct,worst_intrusion_pct,makespan,
//   free_steps,deadlock,p50,p90,p99,ms_per_step
//
// The navmesh is built by hand (detour_mesh.h, shared with
// tests/bench/detour_peer.cpp): the scene's box cut into rectangles along every obstacle edge
// grown by the agent radius, those inside an obstacle left out (every
// obstacle of the suite is an axis-aligned box). Each agent gets its goal
// as move target once; dtCrowd plans its path (through the door, in the
// doorway), steers, avoids (adaptive sampling, its default parameters, at
// most 6 neighbours) and pushes overlapping agents apart. It has no input
// for a per-step jitter, so each small scene is run once, as is.
#include "quality_scenes.h"

#include "detour_mesh.h"

#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

static double now_ms() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "circle";
    const int n_arg = argc > 2 ? atoi(argv[2]) : 250;
    int max_steps = argc > 3 ? atoi(argv[3]) : 0;
    if (!qs_known(name) || n_arg < 0) {
        fprintf(stderr,
                "usage: detour_quality <circle|crossing|headon|cross4|corridor|doorway> [n] [max_steps]\n");
        return 2;
    }
    qscene s = qs_make(name, n_arg);
    const int n = s.n, free_steps = qs_free_steps(&s);
    if (max_steps <= 0)
        max_steps = 3 * free_steps;
    dtNavMesh *nav = detour_build_navmesh(s, s.radius, 0.0f, "detour_quality");
    dtCrowd *crowd = dtAllocCrowd();
    if (!crowd || !crowd->init(n, s.radius, nav)) {
        fprintf(stderr, "detour_quality: dtCrowd::init failed\n");
        return 1;
    }
    const dtCrowdAgentParams ap = detour_agent_params(s.radius, s.max_speed, s.neighbor_dist);
    const dtNavMeshQuery *query = crowd->getNavMeshQuery();
    const dtQueryFilter *filter = crowd->getFilter(0);
    const float *ext = crowd->getQueryExtents();
    for (int i = 0; i < n; ++i) {
        const float p[3] = {s.start[2 * i], 0.0f, s.start[2 * i + 1]},
                    g[3] = {s.goal[2 * i], 0.0f, s.goal[2 * i + 1]};
        const int idx = crowd->addAgent(p, &ap);
        dtPolyRef ref = 0;
        float nearest[3];
        if (idx != i || dtStatusFailed(query->findNearestPoly(g, ext, filter, &ref, nearest)) || !ref ||
            !crowd->requestMoveTarget(idx, ref, nearest)) {
            fprintf(stderr, "detour_quality: agent %d not placed or targeted\n", i);
            return 1;
        }
    }
    std::vector<float> pos((size_t)2 * (n > 0 ? n : 1));
    qs_grid grid = {nullptr, nullptr, 0};
    double worst = 0, intrusion = 0, ms = 0;
    int makespan = -1, steps = 0, p50 = -1, p90 = -1, p99 = -1;
    const double r2 = (double)s.radius * s.radius;
    for (;; ++steps) {
        int home = 0;
        for (int i = 0; i < n; ++i) {
            const float *q = crowd->getAgent(i)->npos;
            pos[2 * i] = q[0], pos[2 * i + 1] = q[2];
            const double dx = q[0] - s.goal[2 * i], dy = q[2] - s.goal[2 * i + 1];
            home += dx * dx + dy * dy <= r2;
        }
        if (steps > 0) {
            worst = std::max(worst, qs_worst_overlap(&s, pos.data(), &grid));
            if (s.nobst > 0)
                intrusion = std::max(intrusion, qs_worst_intrusion(&s, pos.data()));
        }
        if (p50 < 0 && 2 * home >= n)
            p50 = steps;
        if (p90 < 0 && 10 * home >= 9 * n)
            p90 = steps;
        if (p99 < 0 && 100 * home >= 99 * n)
            p99 = steps;
        if (home == n) {
            makespan = steps;
            break;
        }
        if (steps == max_steps)
            break;
        const double t0 = now_ms();
        crowd->update(s.dt, nullptr);
        ms += now_ms() - t0;
    }
    const bool deadlock = makespan < 0 || makespan > 2 * free_steps;
    printf("%s,%d,detourcrowd,%.3f,%.3f,%d,%d,%d,%d,%d,%d,%.3f\n", name, n, 100.0 * worst, 100.0 * intrusion,
           makespan, free_steps, deadlock ? 1 : 0, p50, p90, p99, steps ? ms / steps : 0.0);
    free(grid.head);
    free(grid.next);
    dtFreeCrowd(crowd);
    dtFreeNavMesh(nav);
    qs_free(&s);
    return 0;
}
