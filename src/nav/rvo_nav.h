/*
 * rvo_nav — navmesh building and path search (librvo_nav, optional).
 *
 * A C API over Recast and Detour (recastnavigation 1.5.1, Debian's
 * librecast-dev), in a library of its own so that the core stays C and
 * builds without them. One navmesh is one Detour tile (a level, not a
 * continent).
 *
 * Frame: Recast's. Points are (x, y, z) with y up; the ground plane is
 * x, z. Walkable faces face up (+y), as a y-up Wavefront OBJ exports them:
 * (0,0,0) (0,0,1) (1,0,0) is an upward triangle. The Lua layer (rvo.nav)
 * maps the ground plane to the avoidance world: world x = x, world y = z.
 *
 * Errors: calls that can fail take an rvo_error (may be NULL) and return
 * NULL or a negative rvo_status; nothing in the input can crash them.
 */
#ifndef RVO_NAV_H
#define RVO_NAV_H

#include "rvo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rvo_navmesh rvo_navmesh;

/* Build parameters, as Recast's sample names them. Lengths in metres. */
typedef struct rvo_nav_config {
    float cell_size;               /* voxel size on the ground plane     [Limit: > 0], default 0.3 */
    float cell_height;             /* voxel size along y                 [Limit: > 0], default 0.2 */
    float agent_height;            /* clearance an agent needs           [Limit: > 0], default 2 */
    float agent_radius;            /* walls are kept this far away       [Limit: >= 0], default 0.6 */
    float agent_max_climb;         /* highest step walked up             [Limit: >= 0], default 0.9 */
    float agent_max_slope;         /* steepest walkable slope [degrees]  [Limit: 0..90], default 45 */
    float region_min_size;         /* smaller islands are dropped [cells, side] [Limit: >= 0], default 8 */
    float region_merge_size;       /* smaller regions merge [cells, side] [Limit: >= 0], default 20 */
    float edge_max_len;            /* longest contour edge               [Limit: >= 0, 0 = any], default 12 */
    float edge_max_error;          /* contour simplification [cells]     [Limit: >= 0], default 1.3 */
    int32_t verts_per_poly;        /* polygon size                       [Limit: 3..6], default 6 */
    float detail_sample_dist;      /* height detail sampling [cells]     [Limit: 0 or >= 0.9], default 6 */
    float detail_sample_max_error; /* height detail error [cell heights] [Limit: >= 0], default 1 */
} rvo_nav_config;

RVO_API rvo_nav_config rvo_nav_config_default(void);
/* RVO_OK when cfg is valid, else RVO_ERR_INVALID_ARGUMENT and err names
 * the bad field. */
RVO_API rvo_status rvo_nav_config_check(const rvo_nav_config *cfg, rvo_error *err);

/* Builds a navmesh from a triangle soup: verts holds nverts points
 * (x, y, z) [finite, |c| <= 1e9], tris ntris triangles of 0-based vertex
 * indices. cfg NULL means the defaults. Returns NULL on error:
 * RVO_ERR_INVALID_ARGUMENT for bad input (argument 1..5),
 * RVO_ERR_DEGENERATE when nothing is walkable, RVO_ERR_CAPACITY when the
 * voxel grid or the mesh is too large for one tile. */
RVO_API rvo_navmesh *rvo_nav_build(const float *verts, int32_t nverts, const int32_t *tris, int32_t ntris,
                                   const rvo_nav_config *cfg, rvo_error *err);
RVO_API void rvo_nav_destroy(rvo_navmesh *m); /* NULL is fine */

/* The box holding the walkable polygons. */
RVO_API void rvo_nav_bounds(const rvo_navmesh *m, float bmin[3], float bmax[3]);
/* The polygon mesh: *nverts points (x, y, z) and *npolys polygons of *nvp
 * indices (-1 pads smaller ones), valid until the navmesh is destroyed.
 * rvo_outline_build(x, z of these points) gives its outline. */
RVO_API const float *rvo_nav_verts(const rvo_navmesh *m, int32_t *nverts);
RVO_API const int32_t *rvo_nav_polys(const rvo_navmesh *m, int32_t *npolys, int32_t *nvp);

/* Searches are boxes around a point: half_extents (x, y, z) [> 0, finite];
 * NULL means (2, 4, 2), Recast's sample's. */

/* The point of the navmesh nearest to p, written to out. Returns 1 when
 * found, 0 when no polygon lies within the box, negative on error. */
RVO_API int rvo_nav_nearest(const rvo_navmesh *m, const float p[3], const float half_extents[3], float out[3],
                            rvo_error *err);

/* Path from start to end: polygon A* and string pulling. Writes up to cap
 * corners (x, y, z) to xyz, the first the start (moved onto the mesh), the
 * last the end (or the reachable point nearest to it: *partial = 1).
 * Returns the number of corners (it may exceed cap: call again with more
 * room); 0 when start or end lies off the mesh (no polygon within the box
 * around it: err->arg is 1 for start, 2 for end, err->status RVO_OK); or a
 * negative rvo_status, RVO_ERR_INVALID_ARGUMENT for non-finite points (arg
 * 1, 2), bad extents (3) or bad xyz/cap (4, 5). Arguments count after m. */
RVO_API int32_t rvo_nav_find_path(const rvo_navmesh *m, const float start[3], const float end[3],
                                  const float half_extents[3], float *xyz, int32_t cap, int *partial,
                                  rvo_error *err);

#ifdef __cplusplus
}
#endif

#endif /* RVO_NAV_H */
