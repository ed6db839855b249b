// The DetourCrowd peer of scripts/bench: the scenes of scenes.h moved by
// Recast/Detour's crowd (Debian's librecast-dev) instead of rvo, timed the
// same way. Prints one CSV line:
//   scenario,n,1,detourcrowd,ms_per_step,us_per_agent_step,bytes_per_agent,default,cpu,,
// (ms from the process' CPU time: dtCrowd runs on one thread)
// Usage: detour_peer [scenario [n [warm [steps]]]]
//
// The navmesh is built by hand, not by Recast's voxeliser (detour_mesh.h:
// the scene's box cut into rectangles along every obstacle edge grown by the
// agent radius, those inside an obstacle left out). Each agent gets its goal
// as move target once; dtCrowd plans, steers, avoids (its sampling
// avoidance, default parameters, at most 6 neighbours) and resolves
// collisions every update. bytes_per_agent: the growth of the
// process' resident memory while the crowd is built and run, per agent.
#define SCENES_GEOMETRY_ONLY
#include "scenes.h"

#include "detour_mesh.h"

#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <unistd.h>
#include <vector>

static long rss_bytes() {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "circle";
    const int n_arg = argc > 2 ? atoi(argv[2]) : 1000;
    const int warm = argc > 3 ? atoi(argv[3]) : 100;
    const int steps = argc > 4 ? atoi(argv[4]) : 200;
    if (!scene_known(name) || n_arg < 1 || warm < 0 || steps < 0) {
        fprintf(stderr, "usage: detour_peer [circle|random|plaza|blocks [n [warm [steps]]]]\n");
        return 2;
    }
    const long rss0 = rss_bytes();
    scene_spec s = spec_make(name, n_arg);
    const int n = s.n;
    dtNavMesh *nav = detour_build_navmesh(s, s.radius, -1.0f, "detour_peer");
    dtCrowd *crowd = dtAllocCrowd();
    if (!crowd->init(n, s.radius, nav)) {
        fprintf(stderr, "detour_peer: dtCrowd::init failed\n");
        return 1;
    }
    const dtCrowdAgentParams ap = detour_agent_params(s.radius, s.pref_speed, s.neighbor_dist);
    const dtNavMeshQuery *query = crowd->getNavMeshQuery();
    const dtQueryFilter *filter = crowd->getFilter(0);
    const float *ext = crowd->getQueryExtents();
    int placed = 0, targeted = 0;
    for (int i = 0; i < n; ++i) {
        float p[3] = {s.start[2 * i], 0.0f, s.start[2 * i + 1]},
              g[3] = {s.goal[2 * i], 0.0f, s.goal[2 * i + 1]};
        const int idx = crowd->addAgent(p, &ap);
        if (idx < 0)
            continue;
        ++placed;
        dtPolyRef ref = 0;
        float nearest[3];
        if (dtStatusSucceed(query->findNearestPoly(g, ext, filter, &ref, nearest)) && ref &&
            crowd->requestMoveTarget(idx, ref, nearest))
            ++targeted;
    }
    if (placed != n || targeted != n) {
        fprintf(stderr, "detour_peer: %d of %d agents placed, %d targeted\n", placed, n, targeted);
        return 1;
    }
    const float dt = s.dt;
    for (int k = 0; k < warm; ++k)
        crowd->update(dt, nullptr);
    const double t0 = cpu_ms();
    for (int k = 0; k < steps; ++k)
        crowd->update(dt, nullptr);
    const double ms = steps > 0 ? (cpu_ms() - t0) / steps : 0.0;
    // The crowd must have moved: some agent left its start.
    double moved = 0;
    for (int i = 0; i < n; ++i) {
        const float *p = crowd->getAgent(i)->npos;
        moved = std::max(moved, hypot((double)p[0] - s.start[2 * i], (double)p[2] - s.start[2 * i + 1]));
    }
    if (warm + steps > 10 && moved < 1.0) {
        fprintf(stderr, "detour_peer: no agent moved\n");
        return 1;
    }
    printf("%s,%d,1,detourcrowd,%.4f,%.4f,%.0f,default,cpu,,\n", name, n, ms, ms * 1000.0 / n,
           (double)(rss_bytes() - rss0) / n);
    dtFreeCrowd(crowd);
    dtFreeNavMesh(nav);
    spec_free(&s);
    return 0;
}
