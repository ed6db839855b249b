// The DetourCrowd peer of scripts/bench: the scenes of scenes.h moved by
// Recast/Detour's crowd (Debian's librecast-dev) instead of rvo, timed the
// same way. Prints one CSV line:
//   scenario,n,1,detourcrowd,ms_per_step,us_per_agent_step,bytes_per_agent,default,cpu,,
// (ms from the process' CPU time: dtCrowd runs on one thread)
// Usage: detour_peer [scenario [n [warm [steps]]]]
//
// The navmesh is built by hand, not by Recast's voxeliser: the scene's box
// (goals and starts, plus a margin) cut into rectangles along every obstacle
// edge, those inside an obstacle left out, every obstacle grown and the box
// shrunk by the agent radius (Detour keeps agent centres on the mesh). Each
// agent gets its goal as move target once; dtCrowd plans, steers, avoids
// (its sampling avoidance, default parameters, at most 6 neighbours) and
// resolves collisions every update. bytes_per_agent: the growth of the
// process' resident memory while the crowd is built and run, per agent.
#define SCENES_GEOMETRY_ONLY
#include "scenes.h"

#include <DetourCrowd.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <unistd.h>
#include <vector>

static long rss_bytes() {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(f);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

struct rect {
    double x0, y0, x1, y1;
};

// Rectangles of the obstacles, grown by r (every scene obstacle is an
// axis-aligned square or rectangle).
static std::vector<rect> obstacle_rects(const scene_spec &s, double r) {
    std::vector<rect> out;
    const float *p = s.obst;
    for (int k = 0; k < s.nobst; p += 2 * s.obst_count[k], ++k) {
        rect b = {1e30, 1e30, -1e30, -1e30};
        for (int j = 0; j < s.obst_count[k]; ++j) {
            b.x0 = std::min(b.x0, (double)p[2 * j]);
            b.x1 = std::max(b.x1, (double)p[2 * j]);
            b.y0 = std::min(b.y0, (double)p[2 * j + 1]);
            b.y1 = std::max(b.y1, (double)p[2 * j + 1]);
        }
        out.push_back({b.x0 - r, b.y0 - r, b.x1 + r, b.y1 + r});
    }
    return out;
}

static dtNavMesh *build_navmesh(const scene_spec &s, double r) {
    double x0 = 1e30, y0 = 1e30, x1 = -1e30, y1 = -1e30;
    for (int i = 0; i < s.n; ++i)
        for (const float *q : {&s.start[2 * i], &s.goal[2 * i]}) {
            x0 = std::min(x0, (double)q[0]);
            x1 = std::max(x1, (double)q[0]);
            y0 = std::min(y0, (double)q[1]);
            y1 = std::max(y1, (double)q[1]);
        }
    x0 -= 10, y0 -= 10, x1 += 10, y1 += 10;
    const std::vector<rect> obst = obstacle_rects(s, r);
    std::vector<double> xs = {x0, x1}, ys = {y0, y1};
    for (const rect &o : obst) {
        if (o.x0 > x0 && o.x0 < x1) xs.push_back(o.x0);
        if (o.x1 > x0 && o.x1 < x1) xs.push_back(o.x1);
        if (o.y0 > y0 && o.y0 < y1) ys.push_back(o.y0);
        if (o.y1 > y0 && o.y1 < y1) ys.push_back(o.y1);
    }
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    std::sort(ys.begin(), ys.end());
    ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
    const int nx = (int)xs.size(), ny = (int)ys.size();
    if ((long)nx * ny > 65000) {
        fprintf(stderr, "detour_peer: navmesh too fine (%d x %d vertices)\n", nx, ny);
        exit(1);
    }
    // Voxel units: Detour stores vertices as 16-bit integers.
    const double cs = std::max(x1 - x0, y1 - y0) / 60000.0;
    std::vector<unsigned short> verts;
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            verts.push_back((unsigned short)((xs[i] - x0) / cs + 0.5));
            verts.push_back(0);
            verts.push_back((unsigned short)((ys[j] - y0) / cs + 0.5));
        }
    // Cell (i, j) between xs[i..i+1] and ys[j..j+1] is walkable unless an
    // obstacle covers its centre.
    std::vector<int> poly_of((size_t)(nx - 1) * (ny - 1), -1);
    int npolys = 0;
    for (int j = 0; j + 1 < ny; ++j)
        for (int i = 0; i + 1 < nx; ++i) {
            const double cx = (xs[i] + xs[i + 1]) / 2, cy = (ys[j] + ys[j + 1]) / 2;
            bool inside = false;
            for (const rect &o : obst)
                if (cx > o.x0 && cx < o.x1 && cy > o.y0 && cy < o.y1) inside = true;
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
            const int p = cell(i, j);
            if (p < 0) continue;
            unsigned short *q = &polys[(size_t)p * 2 * nvp];
            // Corners in Detour's winding (x, z): (i,j) (i,j+1) (i+1,j+1) (i+1,j);
            // edge k runs from corner k to k + 1, its neighbour follows.
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
    params.bmin[0] = (float)x0, params.bmin[1] = -1.0f, params.bmin[2] = (float)y0;
    params.bmax[0] = (float)x1, params.bmax[1] = 1.0f, params.bmax[2] = (float)y1;
    params.cs = (float)cs;
    params.ch = 0.1f;
    params.buildBvTree = true;
    unsigned char *data = nullptr;
    int size = 0;
    if (!dtCreateNavMeshData(&params, &data, &size)) {
        fprintf(stderr, "detour_peer: dtCreateNavMeshData failed\n");
        exit(1);
    }
    dtNavMesh *nav = dtAllocNavMesh();
    if (!nav || dtStatusFailed(nav->init(data, size, DT_TILE_FREE_DATA))) {
        fprintf(stderr, "detour_peer: dtNavMesh::init failed\n");
        exit(1);
    }
    return nav;
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
    dtNavMesh *nav = build_navmesh(s, s.radius);
    dtCrowd *crowd = dtAllocCrowd();
    if (!crowd->init(n, s.radius, nav)) {
        fprintf(stderr, "detour_peer: dtCrowd::init failed\n");
        return 1;
    }
    dtCrowdAgentParams ap;
    memset(&ap, 0, sizeof ap);
    ap.radius = s.radius;
    ap.height = 2.0f;
    ap.maxAcceleration = 1000.0f; // RVO2 changes velocity at once
    ap.maxSpeed = s.pref_speed;
    ap.collisionQueryRange = s.neighbor_dist;
    ap.pathOptimizationRange = 30.0f;
    ap.separationWeight = 2.0f;
    ap.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION |
                     DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO;
    ap.obstacleAvoidanceType = 3; // dtCrowd's defaults for every type: adaptive sampling
    const dtNavMeshQuery *query = crowd->getNavMeshQuery();
    const dtQueryFilter *filter = crowd->getFilter(0);
    const float *ext = crowd->getQueryExtents();
    int placed = 0, targeted = 0;
    for (int i = 0; i < n; ++i) {
        float p[3] = {s.start[2 * i], 0.0f, s.start[2 * i + 1]}, g[3] = {s.goal[2 * i], 0.0f, s.goal[2 * i + 1]};
        const int idx = crowd->addAgent(p, &ap);
        if (idx < 0) continue;
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
    for (int k = 0; k < warm; ++k) crowd->update(dt, nullptr);
    const double t0 = cpu_ms();
    for (int k = 0; k < steps; ++k) crowd->update(dt, nullptr);
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
