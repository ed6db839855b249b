// The hand-built Detour navmesh and agent parameters shared by the two
// DetourCrowd peers (detour_peer.cpp for scripts/bench, detour_quality.cpp
// for scripts/quality): one copy, so both columns run dtCrowd on the same
// kind of mesh with the same settings.
//
// The mesh is not Recast's voxeliser output: the box around every start and
// goal (plus a 10 m margin) is cut into rectangles along every obstacle edge,
// each obstacle grown by the agent radius (Detour keeps agent centres on the
// mesh); a rectangle whose centre lies inside an obstacle is left out. Every
// obstacle of both scene sets is an axis-aligned box. Any scene type with
// n, start, goal (2n floats each), nobst, obst_count and obst fits.
#pragma once

#include <DetourCrowd.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct detour_rect {
    double x0, y0, x1, y1;
};

// Bounding boxes of the obstacles, grown by r.
template <class Scene> static std::vector<detour_rect> detour_obstacle_rects(const Scene &s, double r) {
    std::vector<detour_rect> out;
    const float *p = s.obst;
    for (int k = 0; k < s.nobst; p += 2 * s.obst_count[k], ++k) {
        detour_rect b = {1e30, 1e30, -1e30, -1e30};
        for (int j = 0; j < s.obst_count[k]; ++j) {
            b.x0 = std::min(b.x0, (double)p[2 * j]), b.x1 = std::max(b.x1, (double)p[2 * j]);
            b.y0 = std::min(b.y0, (double)p[2 * j + 1]), b.y1 = std::max(b.y1, (double)p[2 * j + 1]);
        }
        out.push_back({b.x0 - r, b.y0 - r, b.x1 + r, b.y1 + r});
    }
    return out;
}

// The navmesh for agents of radius r, its floor at height floor_y (Detour's
// y is up; the mesh spans floor_y .. floor_y + 2). who names the program in
// error messages; any failure exits.
template <class Scene>
static dtNavMesh *detour_build_navmesh(const Scene &s, double r, float floor_y, const char *who) {
    double x0 = 1e30, y0 = 1e30, x1 = -1e30, y1 = -1e30;
    for (int i = 0; i < s.n; ++i)
        for (const float *q : {&s.start[2 * i], &s.goal[2 * i]}) {
            x0 = std::min(x0, (double)q[0]), x1 = std::max(x1, (double)q[0]);
            y0 = std::min(y0, (double)q[1]), y1 = std::max(y1, (double)q[1]);
        }
    x0 -= 10, y0 -= 10, x1 += 10, y1 += 10;
    const std::vector<detour_rect> obst = detour_obstacle_rects(s, r);
    std::vector<double> xs = {x0, x1}, ys = {y0, y1};
    for (const detour_rect &o : obst) {
        for (double v : {o.x0, o.x1})
            if (v > x0 && v < x1)
                xs.push_back(v);
        for (double v : {o.y0, o.y1})
            if (v > y0 && v < y1)
                ys.push_back(v);
    }
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    std::sort(ys.begin(), ys.end());
    ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
    const int nx = (int)xs.size(), ny = (int)ys.size();
    // Vertex indices are 16-bit.
    if ((long)nx * ny > 65000) {
        fprintf(stderr, "%s: navmesh too fine (%d x %d vertices)\n", who, nx, ny);
        exit(1);
    }
    const double cs = std::max(x1 - x0, y1 - y0) / 60000.0; // vertices are 16-bit voxel units too
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
            for (const detour_rect &o : obst)
                inside = inside || (cx > o.x0 && cx < o.x1 && cy > o.y0 && cy < o.y1);
            if (!inside)
                poly_of[(size_t)j * (nx - 1) + i] = npolys++;
        }
    const int nvp = 6;
    std::vector<unsigned short> polys((size_t)npolys * 2 * nvp, 0xffff);
    auto cell = [&](int i, int j) -> int {
        if (i < 0 || j < 0 || i + 1 >= nx || j + 1 >= ny)
            return -1;
        return poly_of[(size_t)j * (nx - 1) + i];
    };
    for (int j = 0; j + 1 < ny; ++j)
        for (int i = 0; i + 1 < nx; ++i) {
            const int c = cell(i, j);
            if (c < 0)
                continue;
            unsigned short *q = &polys[(size_t)c * 2 * nvp];
            // Corners in Detour's winding (x, z): (i,j) (i,j+1) (i+1,j+1) (i+1,j);
            // edge k runs from corner k to k + 1, its neighbour follows.
            q[0] = (unsigned short)(j * nx + i);
            q[1] = (unsigned short)((j + 1) * nx + i);
            q[2] = (unsigned short)((j + 1) * nx + i + 1);
            q[3] = (unsigned short)(j * nx + i + 1);
            const int nb[4] = {cell(i - 1, j), cell(i, j + 1), cell(i + 1, j), cell(i, j - 1)};
            for (int k = 0; k < 4; ++k)
                q[nvp + k] = nb[k] < 0 ? 0xffff : (unsigned short)nb[k];
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
    params.bmin[0] = (float)x0, params.bmin[1] = floor_y, params.bmin[2] = (float)y0;
    params.bmax[0] = (float)x1, params.bmax[1] = floor_y + 2.0f, params.bmax[2] = (float)y1;
    params.cs = (float)cs;
    params.ch = 0.1f;
    params.buildBvTree = true;
    unsigned char *data = nullptr;
    int size = 0;
    if (!dtCreateNavMeshData(&params, &data, &size)) {
        fprintf(stderr, "%s: dtCreateNavMeshData failed\n", who);
        exit(1);
    }
    dtNavMesh *nav = dtAllocNavMesh();
    if (!nav || dtStatusFailed(nav->init(data, size, DT_TILE_FREE_DATA))) {
        fprintf(stderr, "%s: dtNavMesh::init failed\n", who);
        exit(1);
    }
    return nav;
}

// dtCrowd's agent settings for both peers: plans, steers, avoids with its
// adaptive sampling (its default parameters) and separates.
static inline dtCrowdAgentParams detour_agent_params(float radius, float max_speed, float neighbor_dist) {
    dtCrowdAgentParams ap;
    memset(&ap, 0, sizeof ap);
    ap.radius = radius;
    ap.height = 2.0f;
    ap.maxAcceleration = 1000.0f; // as rvo (and RVO2): the velocity changes at once
    ap.maxSpeed = max_speed;
    ap.collisionQueryRange = neighbor_dist;
    ap.pathOptimizationRange = 30.0f;
    ap.separationWeight = 2.0f;
    ap.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION |
                     DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO;
    ap.obstacleAvoidanceType = 3; // adaptive sampling, dtCrowd's defaults for every type
    return ap;
}
