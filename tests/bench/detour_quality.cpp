// The DetourCrowd column of the avoidance-quality suite (scripts/quality):
// the scenes of quality_scenes.h moved by Recast/Detour's crowd (Debian's
// librecast-dev) and measured exactly as quality.c measures rvo. Usage:
//   detour_quality <scene> [n] [max_steps]
// max_steps 0 (the default) means 3 x the free-walking time. Prints one CSV
// line in quality.c's columns, mode "detourcrowd":
//   scene,n,detourcrowd,worst_overlap_pct,worst_intrusion_pct,makespan,
//   free_steps,deadlock,p50,p90,p99,ms_per_step
//
// The navmesh is built by hand (as tests/bench/detour_peer.cpp does for
// scenes.h): the scene's box cut into rectangles along every obstacle edge
// grown by the agent radius, those inside an obstacle left out (every
// obstacle of the suite is an axis-aligned box). Each agent gets its goal
// as move target once; dtCrowd plans its path (through the door, in the
// doorway), steers, avoids (adaptive sampling, its default parameters, at
// most 6 neighbours) and pushes overlapping agents apart. It has no input
// for a per-step jitter, so each small scene is run once, as is.
#include "quality_scenes.h"

#include <DetourCrowd.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
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

struct rect {
    double x0, y0, x1, y1;
};

static dtNavMesh *build_navmesh(const qscene &s, double r) {
    double x0 = 1e30, y0 = 1e30, x1 = -1e30, y1 = -1e30;
    for (int i = 0; i < s.n; ++i)
        for (const float *q : {&s.start[2 * i], &s.goal[2 * i]}) {
            x0 = std::min(x0, (double)q[0]), x1 = std::max(x1, (double)q[0]);
            y0 = std::min(y0, (double)q[1]), y1 = std::max(y1, (double)q[1]);
        }
    x0 -= 10, y0 -= 10, x1 += 10, y1 += 10;
    std::vector<rect> obst;
    const float *p = s.obst;
    for (int k = 0; k < s.nobst; p += 2 * s.obst_count[k], ++k) {
        rect b = {1e30, 1e30, -1e30, -1e30};
        for (int j = 0; j < s.obst_count[k]; ++j) {
            b.x0 = std::min(b.x0, (double)p[2 * j]), b.x1 = std::max(b.x1, (double)p[2 * j]);
            b.y0 = std::min(b.y0, (double)p[2 * j + 1]), b.y1 = std::max(b.y1, (double)p[2 * j + 1]);
        }
        obst.push_back({b.x0 - r, b.y0 - r, b.x1 + r, b.y1 + r});
    }
    std::vector<double> xs = {x0, x1}, ys = {y0, y1};
    for (const rect &o : obst) {
        for (double v : {o.x0, o.x1})
            if (v > x0 && v < x1) xs.push_back(v);
        for (double v : {o.y0, o.y1})
            if (v > y0 && v < y1) ys.push_back(v);
    }
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    std::sort(ys.begin(), ys.end());
    ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
    const int nx = (int)xs.size(), ny = (int)ys.size();
    const double cs = std::max(x1 - x0, y1 - y0) / 60000.0; // Detour stores 16-bit vertices
    std::vector<unsigned short> verts;
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            verts.push_back((unsigned short)((xs[i] - x0) / cs + 0.5));
            verts.push_back(0);
            verts.push_back((unsigned short)((ys[j] - y0) / cs + 0.5));
        }
    std::vector<int> poly_of((size_t)(nx - 1) * (ny - 1), -1);
    int npolys = 0;
    for (int j = 0; j + 1 < ny; ++j)
        for (int i = 0; i + 1 < nx; ++i) {
            const double cx = (xs[i] + xs[i + 1]) / 2, cy = (ys[j] + ys[j + 1]) / 2;
            bool inside = false;
            for (const rect &o : obst) inside = inside || (cx > o.x0 && cx < o.x1 && cy > o.y0 && cy < o.y1);
            if (!inside) poly_of[(size_t)j * (nx - 1) + i] = npolys++;
        }
    const int nvp = 6;
    std::vector<unsigned short> polys((size_t)npolys * 2 * nvp, 0xffff);
    auto cell = [&](int i, int j) -> int {
        if (i < 0 || j < 0 || i + 1 >= nx || j + 1 >= ny) return -1;
        return poly_of[(size_t)j * (nx - 1) + i];
    };
    for (int j = 0; j + 1 < ny; ++j)
        for (int i = 0; i + 1 < nx; ++i) {
            const int c = cell(i, j);
            if (c < 0) continue;
            unsigned short *q = &polys[(size_t)c * 2 * nvp];
            // Detour's winding in (x, z); edge k runs from corner k to k + 1
            q[0] = (unsigned short)(j * nx + i);
            q[1] = (unsigned short)((j + 1) * nx + i);
            q[2] = (unsigned short)((j + 1) * nx + i + 1);
            q[3] = (unsigned short)(j * nx + i + 1);
            const int nb[4] = {cell(i - 1, j), cell(i, j + 1), cell(i + 1, j), cell(i, j - 1)};
            for (int k = 0; k < 4; ++k) q[nvp + k] = nb[k] < 0 ? 0xffff : (unsigned short)nb[k];
        }
    std::vector<unsigned short> flags((size_t)npolys, 1);
    std::vector<unsigned char> areas((size_t)npolys, 0);
    dtNavMeshCreateParams params;
    memset(&params, 0, sizeof params);
    params.verts = verts.data();
    params.vertCount = nx * ny;
    params.polys = polys.data();
    params.polyFlags = flags.data();
    params.polyAreas = areas.data();
    params.polyCount = npolys;
    params.nvp = nvp;
    params.walkableHeight = 2.0f;
    params.walkableRadius = (float)r;
    params.walkableClimb = 0.5f;
    params.bmin[0] = (float)x0, params.bmin[1] = 0.0f, params.bmin[2] = (float)y0; // the mesh at y = 0
    params.bmax[0] = (float)x1, params.bmax[1] = 2.0f, params.bmax[2] = (float)y1;
    params.cs = (float)cs;
    params.ch = 0.1f;
    params.buildBvTree = true;
    unsigned char *data = nullptr;
    int size = 0;
    dtNavMesh *nav = dtAllocNavMesh();
    if (!dtCreateNavMeshData(&params, &data, &size) || !nav || dtStatusFailed(nav->init(data, size, DT_TILE_FREE_DATA))) {
        fprintf(stderr, "detour_quality: navmesh build failed\n");
        exit(1);
    }
    return nav;
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "circle";
    const int n_arg = argc > 2 ? atoi(argv[2]) : 250;
    int max_steps = argc > 3 ? atoi(argv[3]) : 0;
    if (!qs_known(name) || n_arg < 0) {
        fprintf(stderr, "usage: detour_quality <circle|crossing|headon|cross4|corridor|doorway> [n] [max_steps]\n");
        return 2;
    }
    qscene s = qs_make(name, n_arg);
    const int n = s.n, free_steps = qs_free_steps(&s);
    if (max_steps <= 0) max_steps = 3 * free_steps;
    dtNavMesh *nav = build_navmesh(s, s.radius);
    dtCrowd *crowd = dtAllocCrowd();
    if (!crowd || !crowd->init(n, s.radius, nav)) {
        fprintf(stderr, "detour_quality: dtCrowd::init failed\n");
        return 1;
    }
    dtCrowdAgentParams ap;
    memset(&ap, 0, sizeof ap);
    ap.radius = s.radius;
    ap.height = 2.0f;
    ap.maxAcceleration = 1000.0f; // as rvo: the velocity changes at once
    ap.maxSpeed = s.max_speed;
    ap.collisionQueryRange = s.neighbor_dist;
    ap.pathOptimizationRange = 30.0f;
    ap.separationWeight = 2.0f;
    ap.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION |
                     DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO;
    ap.obstacleAvoidanceType = 3; // adaptive sampling, dtCrowd's defaults
    const dtNavMeshQuery *query = crowd->getNavMeshQuery();
    const dtQueryFilter *filter = crowd->getFilter(0);
    const float *ext = crowd->getQueryExtents();
    for (int i = 0; i < n; ++i) {
        const float p[3] = {s.start[2 * i], 0.0f, s.start[2 * i + 1]}, g[3] = {s.goal[2 * i], 0.0f, s.goal[2 * i + 1]};
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
            if (s.nobst > 0) intrusion = std::max(intrusion, qs_worst_intrusion(&s, pos.data()));
        }
        if (p50 < 0 && 2 * home >= n) p50 = steps;
        if (p90 < 0 && 10 * home >= 9 * n) p90 = steps;
        if (p99 < 0 && 100 * home >= 99 * n) p99 = steps;
        if (home == n) {
            makespan = steps;
            break;
        }
        if (steps == max_steps) break;
        const double t0 = now_ms();
        crowd->update(s.dt, nullptr);
        ms += now_ms() - t0;
    }
    const bool deadlock = makespan < 0 || makespan > 2 * free_steps;
    printf("%s,%d,detourcrowd,%.3f,%.3f,%d,%d,%d,%d,%d,%d,%.3f\n", name, n, 100.0 * worst, 100.0 * intrusion, makespan,
           free_steps, deadlock ? 1 : 0, p50, p90, p99, steps ? ms / steps : 0.0);
    free(grid.head);
    free(grid.next);
    dtFreeCrowd(crowd);
    dtFreeNavMesh(nav);
    qs_free(&s);
    return 0;
}
