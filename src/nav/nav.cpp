// rvo_nav: the C API of rvo_nav.h over Recast (voxelise -> regions ->
// contours -> polygon mesh -> detail mesh) and Detour (one tile, polygon A*,
// string pulling). Follows the build of Recast's solo-mesh sample; every
// input is checked first, so nothing reaches Recast that could make it
// assert or overflow. No exceptions leave this file (allocation is by
// malloc and Recast's allocators, which return NULL).
#include "rvo_nav.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>
#include <Recast.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr int kMaxPathPolys = 4096;
constexpr float kMaxCoord = 1e9f;
// Voxel grids beyond this many columns are refused: a too-small cell size
// on a big level would take gigabytes.
constexpr double kMaxColumns = 64.0 * 1024 * 1024;
constexpr unsigned short kWalkFlag = 1;

void fail(rvo_error *err, rvo_status st, int arg, const char *fmt, ...) {
    if (!err)
        return;
    err->status = st;
    err->arg = arg;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

void clear(rvo_error *err) {
    if (!err)
        return;
    err->status = RVO_OK;
    err->arg = 0;
    err->message[0] = '\0';
}

// Keeps Recast's last error message for the caller.
class Context : public rcContext {
  public:
    Context() : rcContext(true) { last[0] = '\0'; }
    char last[120];

  protected:
    void doLog(const rcLogCategory category, const char *msg, const int len) override {
        if (category != RC_LOG_ERROR)
            return;
        const int n = len < (int)sizeof last - 1 ? len : (int)sizeof last - 1;
        memcpy(last, msg, (size_t)n);
        last[n] = '\0';
    }
};

bool finite3(const float *p) {
    return p && std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]);
}

} // namespace

struct rvo_navmesh {
    dtNavMesh *nav;
    dtNavMeshQuery *query;
    float *verts;   // xyz per vertex
    int32_t *polys; // nvp per polygon, -1 padded
    int32_t nverts, npolys, nvp;
    float bmin[3], bmax[3];
};

rvo_nav_config rvo_nav_config_default(void) {
    rvo_nav_config c;
    c.cell_size = 0.3f;
    c.cell_height = 0.2f;
    c.agent_height = 2.0f;
    c.agent_radius = 0.6f;
    c.agent_max_climb = 0.9f;
    c.agent_max_slope = 45.0f;
    c.region_min_size = 8.0f;
    c.region_merge_size = 20.0f;
    c.edge_max_len = 12.0f;
    c.edge_max_error = 1.3f;
    c.verts_per_poly = 6;
    c.detail_sample_dist = 6.0f;
    c.detail_sample_max_error = 1.0f;
    return c;
}

static const char *config_why(const rvo_nav_config *c) {
    if (!c)
        return "config is missing";
    if (!(std::isfinite(c->cell_size) && c->cell_size > 0))
        return "cell_size must be finite and > 0";
    if (!(std::isfinite(c->cell_height) && c->cell_height > 0))
        return "cell_height must be finite and > 0";
    if (!(std::isfinite(c->agent_height) && c->agent_height > 0))
        return "agent_height must be finite and > 0";
    if (!(std::isfinite(c->agent_radius) && c->agent_radius >= 0))
        return "agent_radius must be finite and >= 0";
    if (!(std::isfinite(c->agent_max_climb) && c->agent_max_climb >= 0))
        return "agent_max_climb must be finite and >= 0";
    if (!(c->agent_max_slope >= 0 && c->agent_max_slope <= 90))
        return "agent_max_slope must be in [0, 90]";
    if (!(std::isfinite(c->region_min_size) && c->region_min_size >= 0 && c->region_min_size <= 1e4f))
        return "region_min_size must be in [0, 10000]";
    if (!(std::isfinite(c->region_merge_size) && c->region_merge_size >= 0 && c->region_merge_size <= 1e4f))
        return "region_merge_size must be in [0, 10000]";
    if (!(std::isfinite(c->edge_max_len) && c->edge_max_len >= 0))
        return "edge_max_len must be finite and >= 0";
    if (!(std::isfinite(c->edge_max_error) && c->edge_max_error >= 0))
        return "edge_max_error must be finite and >= 0";
    if (c->verts_per_poly < 3 || c->verts_per_poly > DT_VERTS_PER_POLYGON)
        return "verts_per_poly must be in [3, 6]";
    if (!(std::isfinite(c->detail_sample_dist) &&
          (c->detail_sample_dist == 0 || c->detail_sample_dist >= 0.9f)))
        return "detail_sample_dist must be 0 or >= 0.9";
    if (!(std::isfinite(c->detail_sample_max_error) && c->detail_sample_max_error >= 0))
        return "detail_sample_max_error must be finite and >= 0";
    // Recast keeps heights and climbs in voxel counts of limited width.
    if (c->agent_height / c->cell_height > 1000 || c->agent_max_climb / c->cell_height > 1000)
        return "agent_height and agent_max_climb must be within 1000 cell heights";
    if (c->agent_radius / c->cell_size > 1000)
        return "agent_radius must be within 1000 cell sizes";
    if (c->edge_max_len / c->cell_size > 1e6f)
        return "edge_max_len must be within 1e6 cell sizes";
    return nullptr;
}

namespace {

// Everything a build allocates; freed in one place whatever happens.
struct Build {
    rcHeightfield *solid = nullptr;
    unsigned char *areas = nullptr;
    rcCompactHeightfield *chf = nullptr;
    rcContourSet *cset = nullptr;
    rcPolyMesh *pmesh = nullptr;
    rcPolyMeshDetail *dmesh = nullptr;
    unsigned char *navdata = nullptr;
    ~Build() {
        rcFreeHeightField(solid);
        free(areas);
        rcFreeCompactHeightfield(chf);
        rcFreeContourSet(cset);
        rcFreePolyMesh(pmesh);
        rcFreePolyMeshDetail(dmesh);
        if (navdata)
            dtFree(navdata);
    }
};

bool check_soup(const float *verts, int32_t nverts, const int32_t *tris, int32_t ntris, rvo_error *err) {
    if (nverts < 0)
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 2, "vertex count must be >= 0"), false;
    if (nverts > INT32_MAX / 3)
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 2, "too many vertices"), false;
    if (!verts && nverts > 0)
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 1, "points are missing"), false;
    if (ntris < 0)
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 4, "triangle count must be >= 0"), false;
    if (ntris > INT32_MAX / 3)
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 4, "too many triangles"), false;
    if (!tris && ntris > 0)
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 3, "triangles are missing"), false;
    for (int32_t k = 0; k < 3 * nverts; ++k) {
        if (!std::isfinite(verts[k]) || std::fabs(verts[k]) > kMaxCoord)
            return fail(err, RVO_ERR_INVALID_ARGUMENT, 1,
                        "coordinate %d must be finite and within [-1e9, 1e9]", (int)k + 1),
                   false;
    }
    for (int32_t k = 0; k < 3 * ntris; ++k) {
        if (tris[k] < 0 || tris[k] >= nverts)
            return fail(err, RVO_ERR_INVALID_ARGUMENT, 3, "index %d refers to no vertex (there are %d)",
                        (int)k + 1, (int)nverts),
                   false;
    }
    if (nverts == 0 || ntris == 0)
        return fail(err, RVO_ERR_DEGENERATE, 0, "the mesh is empty"), false;
    return true;
}

} // namespace

rvo_status rvo_nav_config_check(const rvo_nav_config *cfg, rvo_error *err) {
    clear(err);
    if (const char *why = config_why(cfg))
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 1, "%s", why), RVO_ERR_INVALID_ARGUMENT;
    return RVO_OK;
}

rvo_navmesh *rvo_nav_build(const float *verts, int32_t nverts, const int32_t *tris, int32_t ntris,
                           const rvo_nav_config *cfg_in, rvo_error *err) {
    clear(err);
    const rvo_nav_config cfg = cfg_in ? *cfg_in : rvo_nav_config_default();
    if (const char *why = config_why(&cfg))
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 5, "%s", why), nullptr;
    if (!check_soup(verts, nverts, tris, ntris, err))
        return nullptr;

    rcConfig rc;
    memset(&rc, 0, sizeof rc);
    rc.cs = cfg.cell_size;
    rc.ch = cfg.cell_height;
    rc.walkableSlopeAngle = cfg.agent_max_slope;
    rc.walkableHeight = (int)std::ceil(cfg.agent_height / rc.ch);
    rc.walkableClimb = (int)std::floor(cfg.agent_max_climb / rc.ch);
    rc.walkableRadius = (int)std::ceil(cfg.agent_radius / rc.cs);
    rc.maxEdgeLen = (int)(cfg.edge_max_len / rc.cs);
    rc.maxSimplificationError = cfg.edge_max_error;
    rc.minRegionArea = (int)(cfg.region_min_size * cfg.region_min_size);
    rc.mergeRegionArea = (int)(cfg.region_merge_size * cfg.region_merge_size);
    rc.maxVertsPerPoly = cfg.verts_per_poly;
    rc.detailSampleDist = cfg.detail_sample_dist < 0.9f ? 0 : rc.cs * cfg.detail_sample_dist;
    rc.detailSampleMaxError = rc.ch * cfg.detail_sample_max_error;
    rcCalcBounds(verts, nverts, rc.bmin, rc.bmax);
    const double cols_x = std::ceil(((double)rc.bmax[0] - rc.bmin[0]) / rc.cs);
    const double cols_z = std::ceil(((double)rc.bmax[2] - rc.bmin[2]) / rc.cs);
    if (cols_x * cols_z > kMaxColumns || cols_x > 30000 || cols_z > 30000)
        return fail(err, RVO_ERR_CAPACITY, 5, "the voxel grid would be %.0f x %.0f cells: raise cell_size",
                    cols_x, cols_z),
               nullptr;
    rcCalcGridSize(rc.bmin, rc.bmax, rc.cs, &rc.width, &rc.height);
    if (rc.width < 1)
        rc.width = 1;
    if (rc.height < 1)
        rc.height = 1;

    Context ctx;
    Build b;
    const char *oom = "out of memory";
    // 1. voxelise the walkable triangles
    b.solid = rcAllocHeightfield();
    b.areas = (unsigned char *)calloc((size_t)ntris, 1);
    if (!b.solid || !b.areas)
        return fail(err, RVO_ERR_OUT_OF_MEMORY, 0, "%s", oom), nullptr;
    if (!rcCreateHeightfield(&ctx, *b.solid, rc.width, rc.height, rc.bmin, rc.bmax, rc.cs, rc.ch))
        return fail(err, RVO_ERR_OUT_OF_MEMORY, 0, "%s", oom), nullptr;
    rcMarkWalkableTriangles(&ctx, rc.walkableSlopeAngle, verts, nverts, tris, ntris, b.areas);
    if (!rcRasterizeTriangles(&ctx, verts, nverts, tris, b.areas, ntris, *b.solid, rc.walkableClimb))
        return fail(err, RVO_ERR_OUT_OF_MEMORY, 0, "rasterising: %s", ctx.last), nullptr;
    // 2. drop what an agent cannot stand on
    rcFilterLowHangingWalkableObstacles(&ctx, rc.walkableClimb, *b.solid);
    rcFilterLedgeSpans(&ctx, rc.walkableHeight, rc.walkableClimb, *b.solid);
    rcFilterWalkableLowHeightSpans(&ctx, rc.walkableHeight, *b.solid);
    // 3. regions (watershed over the distance field)
    b.chf = rcAllocCompactHeightfield();
    if (!b.chf || !rcBuildCompactHeightfield(&ctx, rc.walkableHeight, rc.walkableClimb, *b.solid, *b.chf))
        return fail(err, RVO_ERR_OUT_OF_MEMORY, 0, "compacting: %s", ctx.last), nullptr;
    rcFreeHeightField(b.solid);
    b.solid = nullptr;
    if (!rcErodeWalkableArea(&ctx, rc.walkableRadius, *b.chf) || !rcBuildDistanceField(&ctx, *b.chf) ||
        !rcBuildRegions(&ctx, *b.chf, 0, rc.minRegionArea, rc.mergeRegionArea))
        return fail(err, RVO_ERR_OUT_OF_MEMORY, 0, "regions: %s", ctx.last), nullptr;
    // 4. contours, polygons, height detail
    b.cset = rcAllocContourSet();
    if (!b.cset || !rcBuildContours(&ctx, *b.chf, rc.maxSimplificationError, rc.maxEdgeLen, *b.cset))
        return fail(err, RVO_ERR_OUT_OF_MEMORY, 0, "contours: %s", ctx.last), nullptr;
    b.pmesh = rcAllocPolyMesh();
    if (!b.pmesh || !rcBuildPolyMesh(&ctx, *b.cset, rc.maxVertsPerPoly, *b.pmesh))
        return fail(err, RVO_ERR_CAPACITY, 0, "polygon mesh: %s", ctx.last), nullptr;
    if (b.pmesh->npolys == 0)
        return fail(err, RVO_ERR_DEGENERATE, 0,
                    "nothing is walkable (no upward face wide and tall enough for the agent)"),
               nullptr;
    b.dmesh = rcAllocPolyMeshDetail();
    if (!b.dmesh || !rcBuildPolyMeshDetail(&ctx, *b.pmesh, *b.chf, rc.detailSampleDist,
                                           rc.detailSampleMaxError, *b.dmesh))
        return fail(err, RVO_ERR_OUT_OF_MEMORY, 0, "detail mesh: %s", ctx.last), nullptr;
    if (b.pmesh->nverts >= 0xffff)
        return fail(err, RVO_ERR_CAPACITY, 0,
                    "the polygon mesh has %d vertices, more than one tile holds (65534)", b.pmesh->nverts),
               nullptr;
    // 5. Detour data: every polygon walkable
    for (int i = 0; i < b.pmesh->npolys; ++i)
        b.pmesh->flags[i] = kWalkFlag;
    dtNavMeshCreateParams p;
    memset(&p, 0, sizeof p);
    p.verts = b.pmesh->verts;
    p.vertCount = b.pmesh->nverts;
    p.polys = b.pmesh->polys;
    p.polyAreas = b.pmesh->areas;
    p.polyFlags = b.pmesh->flags;
    p.polyCount = b.pmesh->npolys;
    p.nvp = b.pmesh->nvp;
    p.detailMeshes = b.dmesh->meshes;
    p.detailVerts = b.dmesh->verts;
    p.detailVertsCount = b.dmesh->nverts;
    p.detailTris = b.dmesh->tris;
    p.detailTriCount = b.dmesh->ntris;
    p.walkableHeight = cfg.agent_height;
    p.walkableRadius = cfg.agent_radius;
    p.walkableClimb = cfg.agent_max_climb;
    rcVcopy(p.bmin, b.pmesh->bmin);
    rcVcopy(p.bmax, b.pmesh->bmax);
    p.cs = rc.cs;
    p.ch = rc.ch;
    p.buildBvTree = true;
    int navsize = 0;
    if (!dtCreateNavMeshData(&p, &b.navdata, &navsize))
        return fail(err, RVO_ERR_CAPACITY, 0, "Detour could not take the polygon mesh"), nullptr;

    rvo_navmesh *m = (rvo_navmesh *)calloc(1, sizeof *m);
    if (!m)
        return fail(err, RVO_ERR_OUT_OF_MEMORY, 0, "%s", oom), nullptr;
    m->nav = dtAllocNavMesh();
    m->query = dtAllocNavMeshQuery();
    m->nverts = b.pmesh->nverts;
    m->npolys = b.pmesh->npolys;
    m->nvp = b.pmesh->nvp;
    m->verts = (float *)malloc(sizeof(float) * 3 * (size_t)m->nverts);
    m->polys = (int32_t *)malloc(sizeof(int32_t) * (size_t)m->nvp * (size_t)m->npolys);
    if (!m->nav || !m->query || !m->verts || !m->polys) {
        rvo_nav_destroy(m);
        return fail(err, RVO_ERR_OUT_OF_MEMORY, 0, "%s", oom), nullptr;
    }
    if (dtStatusFailed(m->nav->init(b.navdata, navsize, DT_TILE_FREE_DATA))) {
        rvo_nav_destroy(m);
        return fail(err, RVO_ERR_OUT_OF_MEMORY, 0, "%s", oom), nullptr;
    }
    b.navdata = nullptr; // the navmesh owns it now
    if (dtStatusFailed(m->query->init(m->nav, 2048))) {
        rvo_nav_destroy(m);
        return fail(err, RVO_ERR_OUT_OF_MEMORY, 0, "%s", oom), nullptr;
    }
    // The polygon mesh in metres, as Detour places it.
    for (int i = 0; i < m->nverts; ++i) {
        const unsigned short *v = &b.pmesh->verts[3 * i];
        m->verts[3 * i] = b.pmesh->bmin[0] + v[0] * rc.cs;
        m->verts[3 * i + 1] = b.pmesh->bmin[1] + v[1] * rc.ch;
        m->verts[3 * i + 2] = b.pmesh->bmin[2] + v[2] * rc.cs;
    }
    for (int i = 0; i < m->npolys; ++i) {
        for (int j = 0; j < m->nvp; ++j) {
            const unsigned short v = b.pmesh->polys[i * 2 * m->nvp + j];
            m->polys[i * m->nvp + j] = v == RC_MESH_NULL_IDX ? -1 : (int32_t)v;
        }
    }
    rcVcopy(m->bmin, b.pmesh->bmin);
    rcVcopy(m->bmax, b.pmesh->bmax);
    return m;
}

void rvo_nav_destroy(rvo_navmesh *m) {
    if (!m)
        return;
    dtFreeNavMeshQuery(m->query);
    dtFreeNavMesh(m->nav);
    free(m->verts);
    free(m->polys);
    free(m);
}

void rvo_nav_bounds(const rvo_navmesh *m, float bmin[3], float bmax[3]) {
    for (int k = 0; k < 3; ++k) {
        if (bmin)
            bmin[k] = m ? m->bmin[k] : 0;
        if (bmax)
            bmax[k] = m ? m->bmax[k] : 0;
    }
}

const float *rvo_nav_verts(const rvo_navmesh *m, int32_t *nverts) {
    if (nverts)
        *nverts = m ? m->nverts : 0;
    return m ? m->verts : nullptr;
}

const int32_t *rvo_nav_polys(const rvo_navmesh *m, int32_t *npolys, int32_t *nvp) {
    if (npolys)
        *npolys = m ? m->npolys : 0;
    if (nvp)
        *nvp = m ? m->nvp : 0;
    return m ? m->polys : nullptr;
}

namespace {

const float kDefaultExtents[3] = {2, 4, 2};

// Checks half extents (argument arg); returns the ones to use or NULL.
const float *extents_or_fail(const float *he, int arg, rvo_error *err) {
    if (!he)
        return kDefaultExtents;
    for (int k = 0; k < 3; ++k) {
        if (!(std::isfinite(he[k]) && he[k] > 0 && he[k] <= kMaxCoord)) {
            fail(err, RVO_ERR_INVALID_ARGUMENT, arg, "half extents must be finite and > 0");
            return nullptr;
        }
    }
    return he;
}

} // namespace

int rvo_nav_nearest(const rvo_navmesh *m, const float p[3], const float half_extents[3], float out[3],
                    rvo_error *err) {
    clear(err);
    if (!m)
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 0, "navmesh is missing"), RVO_ERR_INVALID_ARGUMENT;
    if (!finite3(p))
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 1, "point must be finite"), RVO_ERR_INVALID_ARGUMENT;
    const float *he = extents_or_fail(half_extents, 2, err);
    if (!he)
        return RVO_ERR_INVALID_ARGUMENT;
    if (!out)
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 3, "out is missing"), RVO_ERR_INVALID_ARGUMENT;
    dtQueryFilter filter;
    dtPolyRef ref = 0;
    float pt[3];
    if (dtStatusFailed(m->query->findNearestPoly(p, he, &filter, &ref, pt)) || ref == 0)
        return 0;
    rcVcopy(out, pt);
    return 1;
}

int32_t rvo_nav_find_path(const rvo_navmesh *m, const float start[3], const float end[3],
                          const float half_extents[3], float *xyz, int32_t cap, int *partial,
                          rvo_error *err) {
    clear(err);
    if (partial)
        *partial = 0;
    if (!m)
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 0, "navmesh is missing"), RVO_ERR_INVALID_ARGUMENT;
    if (!finite3(start))
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 1, "start must be finite"), RVO_ERR_INVALID_ARGUMENT;
    if (!finite3(end))
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 2, "end must be finite"), RVO_ERR_INVALID_ARGUMENT;
    const float *he = extents_or_fail(half_extents, 3, err);
    if (!he)
        return RVO_ERR_INVALID_ARGUMENT;
    if (cap < 0)
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 5, "cap must be >= 0"), RVO_ERR_INVALID_ARGUMENT;
    if (!xyz && cap > 0)
        return fail(err, RVO_ERR_INVALID_ARGUMENT, 4, "corners are missing"), RVO_ERR_INVALID_ARGUMENT;
    dtQueryFilter filter;
    dtPolyRef sref = 0, eref = 0;
    float spos[3], epos[3];
    if (dtStatusFailed(m->query->findNearestPoly(start, he, &filter, &sref, spos)) || sref == 0) {
        fail(err, RVO_OK, 1, "start is not on the navmesh");
        return 0;
    }
    if (dtStatusFailed(m->query->findNearestPoly(end, he, &filter, &eref, epos)) || eref == 0) {
        fail(err, RVO_OK, 2, "end is not on the navmesh");
        return 0;
    }
    dtPolyRef *path = (dtPolyRef *)malloc(sizeof(dtPolyRef) * kMaxPathPolys);
    float *corners = (float *)malloc(sizeof(float) * 3 * kMaxPathPolys);
    if (!path || !corners) {
        free(path);
        free(corners);
        return fail(err, RVO_ERR_OUT_OF_MEMORY, 0, "out of memory"), RVO_ERR_OUT_OF_MEMORY;
    }
    int npath = 0, ncorners = 0;
    const dtStatus st = m->query->findPath(sref, eref, spos, epos, &filter, path, &npath, kMaxPathPolys);
    if (dtStatusFailed(st) || npath == 0) {
        free(path);
        free(corners);
        return fail(err, RVO_ERR_OUT_OF_MEMORY, 0, "path search failed"), RVO_ERR_OUT_OF_MEMORY;
    }
    if (path[npath - 1] != eref || dtStatusDetail(st, DT_PARTIAL_RESULT)) {
        // The end is not reachable: head for the nearest reachable point.
        if (partial)
            *partial = 1;
        float closest[3];
        if (dtStatusSucceed(m->query->closestPointOnPoly(path[npath - 1], epos, closest, nullptr)))
            rcVcopy(epos, closest);
    }
    m->query->findStraightPath(spos, epos, path, npath, corners, nullptr, nullptr, &ncorners, kMaxPathPolys);
    for (int i = 0; i < ncorners && i < cap; ++i)
        rcVcopy(&xyz[3 * i], &corners[3 * i]);
    free(path);
    free(corners);
    return ncorners;
}
