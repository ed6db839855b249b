/* Scenes and measurements of the avoidance-quality suite (quality.c, and
 * detour_quality.cpp for DetourCrowd), geometry only: no rvo calls here, so
 * a peer linking another library measures exactly the same things.
 *
 *   circle N    RVO2's circle: N agents on a circle of radius
 *               max(200, N*1.5*2.2/(2 pi)) (angles and points in float, as
 *               RVO2's example computes them) swap to the antipode.
 *   crossing N  random crossing: N agents on a 6 m grid (36 m^2 each),
 *               jittered by up to 1 m, walk to a random permutation of the
 *               start points (no start overlaps, every goal reachable).
 *   headon      two agents exactly head-on, 20 m apart.
 *   cross4      four streams of 4 agents meeting at a crossroads.
 *   corridor    3 + 3 agents swap ends of a 2.6 m wide, 16 m long corridor.
 *   doorway     two crowds of 12 pass each other through a 3 m door in a
 *               1 m thick wall. The game's path follower is played by the
 *               caller: quality.c and the tests steer through the door with
 *               rvo_door_steer (two-way door lanes; door_ab, door_thickness);
 *               qs_pref alone is the naive follower (head for the far side
 *               of the door, then for the goal), kept for comparison.
 * circle and crossing use RVO2's parameters (radius 1.5, max_speed 2,
 * neighbor_dist 15, max_neighbors 10, horizons 10); the small scenes game
 * parameters (radius 0.5, max_speed 2, neighbor_dist 10, max_neighbors 10,
 * horizons 2). dt 0.25 everywhere; preferred speed = max_speed.
 *
 * Metrics: worst overlap (ri + rj - distance over ri + rj, every pair, every
 * step), worst intrusion into obstacle clearance (radius - distance to the
 * nearest edge, over radius), makespan (steps until every agent is within
 * its radius of its goal), free time (steps the farthest agent needs
 * walking alone), deadlock (not everyone home within 2 x free time). */
#ifndef RVO_QUALITY_SCENES_H
#define RVO_QUALITY_SCENES_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct qscene {
    int n;
    float dt, radius, max_speed, neighbor_dist, time_horizon, time_horizon_obst;
    int max_neighbors;
    float *start, *goal; /* 2n each */
    float *obst;         /* obstacle points x,y; solid polygons are counter-clockwise */
    int *obst_count;     /* points per obstacle */
    bool *obst_closed;   /* polygon (true) or open polyline */
    int nobst, obst_cap, npoints;
    bool door;            /* doorway: the path goes through the door */
    float door_ab[4];     /* the door's opening, jamb to jamb (x, y, x, y) */
    float door_thickness; /* of its wall */
} qscene;

static inline unsigned qs_rand_u(unsigned *seed) {
    *seed = *seed * 1103515245u + 12345u;
    return *seed >> 8; /* 24 bits */
}
static inline double qs_rand(unsigned *seed) { return (double)qs_rand_u(seed) / 16777216.0; }

static inline void qs_add_obstacle(qscene *s, const float *xy, int count, bool closed) {
    if (s->nobst == s->obst_cap) {
        s->obst_cap = s->obst_cap ? 2 * s->obst_cap : 8;
        s->obst_count = (int *)realloc(s->obst_count, sizeof(int) * (size_t)s->obst_cap);
        s->obst_closed = (bool *)realloc(s->obst_closed, sizeof(bool) * (size_t)s->obst_cap);
    }
    s->obst = (float *)realloc(s->obst, sizeof(float) * 2 * (size_t)(s->npoints + count));
    memcpy(s->obst + 2 * s->npoints, xy, sizeof(float) * 2 * (size_t)count);
    s->npoints += count;
    s->obst_count[s->nobst] = count;
    s->obst_closed[s->nobst++] = closed;
}

static inline void qs_alloc(qscene *s, int n) {
    s->n = n;
    s->start = (float *)calloc(2 * (size_t)(n > 0 ? n : 1), sizeof(float));
    s->goal = (float *)calloc(2 * (size_t)(n > 0 ? n : 1), sizeof(float));
}

static inline void qs_set(qscene *s, int i, float x, float y, float gx, float gy) {
    s->start[2 * i] = x;
    s->start[2 * i + 1] = y;
    s->goal[2 * i] = gx;
    s->goal[2 * i + 1] = gy;
}

static inline bool qs_known(const char *name) {
    static const char *const names[] = {"circle", "crossing", "headon", "cross4", "corridor", "doorway"};
    for (size_t k = 0; k < sizeof names / sizeof *names; ++k)
        if (strcmp(name, names[k]) == 0)
            return true;
    return false;
}

/* n is used by circle and crossing only; seed draws the crossing (42 in
 * every test and table: qs_make). */
static inline qscene qs_make_seeded(const char *name, int n, unsigned crossing_seed) {
    qscene s;
    memset(&s, 0, sizeof s);
    s.dt = 0.25f;
    s.radius = 0.5f;
    s.max_speed = 2.0f;
    s.neighbor_dist = 10.0f;
    s.max_neighbors = 10;
    s.time_horizon = s.time_horizon_obst = 2.0f;
    if (strcmp(name, "circle") == 0 || strcmp(name, "crossing") == 0) {
        s.radius = 1.5f;
        s.neighbor_dist = 15.0f;
        s.time_horizon = s.time_horizon_obst = 10.0f;
    }
    if (strcmp(name, "circle") == 0) {
        qs_alloc(&s, n);
        float R = (float)(n * 1.5 * 2.2 / (2 * 3.14159265358979323846));
        if (R < 200.0f)
            R = 200.0f;
        for (int i = 0; i < n; ++i) {
            const float a = (float)i * 2.0f * 3.14159265f * (1.0f / (float)n);
            const float x = R * cosf(a), y = R * sinf(a);
            qs_set(&s, i, x, y, -x, -y);
        }
    } else if (strcmp(name, "crossing") == 0) {
        const int side = (int)ceil(sqrt((double)n));
        qs_alloc(&s, n);
        unsigned seed = crossing_seed;
        int *perm = (int *)malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
        for (int i = 0; i < n; ++i) {
            const double x = (i % side - (side - 1) / 2.0) * 6.0 + (qs_rand(&seed) - 0.5) * 2.0;
            const double y = (i / side - (side - 1) / 2.0) * 6.0 + (qs_rand(&seed) - 0.5) * 2.0;
            s.start[2 * i] = (float)x;
            s.start[2 * i + 1] = (float)y;
            perm[i] = i;
        }
        for (int i = n - 1; i > 0; --i) { /* Fisher-Yates */
            const int j = (int)(qs_rand_u(&seed) % (unsigned)(i + 1));
            const int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int i = 0; i < n; ++i) {
            s.goal[2 * i] = s.start[2 * perm[i]];
            s.goal[2 * i + 1] = s.start[2 * perm[i] + 1];
        }
        free(perm);
    } else if (strcmp(name, "headon") == 0) {
        qs_alloc(&s, 2);
        qs_set(&s, 0, -10, 0, 10, 0);
        qs_set(&s, 1, 10, 0, -10, 0);
    } else if (strcmp(name, "cross4") == 0) {
        qs_alloc(&s, 16);
        for (int k = 0; k < 4; ++k) {
            const float dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
            for (int m = 0; m < 4; ++m) {
                const float d = 12.0f + 1.5f * (float)m; /* a queue behind the first */
                qs_set(&s, 4 * k + m, -dx[k] * d, -dy[k] * d, dx[k] * (24.0f - 1.5f * (float)m),
                       dy[k] * (24.0f - 1.5f * (float)m));
            }
        }
    } else if (strcmp(name, "corridor") == 0) {
        qs_alloc(&s, 6);
        for (int m = 0; m < 3; ++m) {
            const float y = -0.6f + 0.6f * (float)m;
            /* the first out of the corridor parks farthest, out of the way */
            const float gx = 14.0f + 2.0f * (float)(2 - m);
            qs_set(&s, m, -12.0f - 1.2f * (float)m, y, gx, y);
            qs_set(&s, 3 + m, 12.0f + 1.2f * (float)m, -y, -gx, -y);
        }
        /* two walls, solid boxes above and below y = +-1.3, x in [-8, 8] */
        const float top[8] = {-8, 1.3f, 8, 1.3f, 8, 3.3f, -8, 3.3f};
        const float bottom[8] = {-8, -3.3f, 8, -3.3f, 8, -1.3f, -8, -1.3f};
        qs_add_obstacle(&s, top, 4, true);
        qs_add_obstacle(&s, bottom, 4, true);
    } else if (strcmp(name, "doorway") == 0) {
        qs_alloc(&s, 24);
        for (int m = 0; m < 12; ++m) {
            const float x = 4.0f + 1.3f * (float)(m / 4), y = -2.0f + 1.3f * (float)(m % 4);
            /* goals spread out, the first through the door parks farthest */
            const float gx = 10.0f + 2.5f * (float)(2 - m / 4), gy = 2.5f * ((float)(m % 4) - 1.5f);
            qs_set(&s, m, -x, y, gx, gy);
            qs_set(&s, 12 + m, x, -y, -gx, -gy);
        }
        /* a wall at x in [-0.5, 0.5] with a door between y = -1.5 and 1.5 */
        const float upper[8] = {-0.5f, 1.5f, 0.5f, 1.5f, 0.5f, 20, -0.5f, 20};
        const float lower[8] = {-0.5f, -20, 0.5f, -20, 0.5f, -1.5f, -0.5f, -1.5f};
        qs_add_obstacle(&s, upper, 4, true);
        qs_add_obstacle(&s, lower, 4, true);
        s.door = true;
        const float ab[4] = {0, -1.5f, 0, 1.5f};
        memcpy(s.door_ab, ab, sizeof ab);
        s.door_thickness = 1.0f;
    } else {
        qs_alloc(&s, 0);
    }
    return s;
}

static inline qscene qs_make(const char *name, int n) { return qs_make_seeded(name, n, 42u); }

static inline void qs_free(qscene *s) {
    free(s->start);
    free(s->goal);
    free(s->obst);
    free(s->obst_count);
    free(s->obst_closed);
    memset(s, 0, sizeof *s);
}

/* Preferred velocity towards (tx, ty) rotated by jitter radians: the goal
 * at max_speed (the offset itself when nearer), any other point (a path
 * corner) at max_speed; true when within radius of the goal. */
static inline bool qs_pref_to(const qscene *s, int i, float px, float py, float tx, float ty, float jitter,
                              float *vx, float *vy) {
    const float gx = s->goal[2 * i] - px, gy = s->goal[2 * i + 1] - py;
    float dx = tx - px, dy = ty - py;
    const float e2 = dx * dx + dy * dy;
    if (tx != s->goal[2 * i] || ty != s->goal[2 * i + 1]) { /* a corner: full speed */
        const float k = e2 > 0 ? s->max_speed / sqrtf(e2) : 0.0f;
        dx *= k;
        dy *= k;
    } else if (e2 > s->max_speed * s->max_speed) {
        const float k = s->max_speed / sqrtf(e2);
        dx *= k;
        dy *= k;
    }
    const float c = cosf(jitter), sn = sinf(jitter);
    *vx = c * dx - sn * dy;
    *vy = sn * dx + c * dy;
    return gx * gx + gy * gy <= s->radius * s->radius;
}

/* Preferred velocity towards the goal at max_speed (the offset itself when
 * nearer), rotated by jitter radians; true when within radius of the goal.
 * In the doorway, the naive follower: head for the far side of the door
 * (slowing down towards that point like towards a goal), then the goal. */
static inline bool qs_pref(const qscene *s, int i, float px, float py, float jitter, float *vx, float *vy) {
    float dx = s->goal[2 * i] - px, dy = s->goal[2 * i + 1] - py;
    const float d2 = dx * dx + dy * dy;
    const float dir = s->goal[2 * i] > 0 ? 1.0f : -1.0f;
    if (s->door && px * dir < 1.0f) { /* not through the door yet */
        dx = dir - px;
        dy = (py > 1.0f ? 1.0f : py < -1.0f ? -1.0f : py) - py;
        if (dx * dx + dy * dy < 0.04f)
            dx = dir * 0.2f; /* at the waypoint: step through */
    }
    const float e2 = dx * dx + dy * dy;
    if (e2 > s->max_speed * s->max_speed) {
        const float k = s->max_speed / sqrtf(e2);
        dx *= k;
        dy *= k;
    }
    const float c = cosf(jitter), sn = sinf(jitter);
    *vx = c * dx - sn * dy;
    *vy = sn * dx + c * dy;
    return d2 <= s->radius * s->radius;
}

/* Steps the farthest agent needs alone at max_speed. */
static inline int qs_free_steps(const qscene *s) {
    double worst = 0;
    for (int i = 0; i < s->n; ++i) {
        const double sx = s->start[2 * i], sy = s->start[2 * i + 1], gx = s->goal[2 * i],
                     gy = s->goal[2 * i + 1];
        double d = hypot(gx - sx, gy - sy);
        if (s->door) { /* through the waypoint */
            const double vx = gx > 0 ? 1.0 : -1.0, vy = sy > 1 ? 1 : sy < -1 ? -1 : sy;
            d = hypot(vx - sx, vy - sy) + hypot(gx - vx, gy - vy);
        }
        if (d > worst)
            worst = d;
    }
    return (int)ceil((worst - s->radius) / (s->max_speed * s->dt));
}

/* Worst overlap of equal-radius agents at pos, as a fraction of 2 * radius,
 * through a uniform grid of cell 2 * radius (scratch: 2n + cells ints). */
typedef struct qs_grid {
    int *head, *next, cells;
} qs_grid;

static inline double qs_worst_overlap(const qscene *s, const float *pos, qs_grid *g) {
    const int n = s->n;
    if (n < 2)
        return 0;
    const double comb = 2.0 * s->radius;
    double minx = pos[0], miny = pos[1], maxx = pos[0], maxy = pos[1];
    for (int i = 1; i < n; ++i) {
        minx = fmin(minx, pos[2 * i]), maxx = fmax(maxx, pos[2 * i]);
        miny = fmin(miny, pos[2 * i + 1]), maxy = fmax(maxy, pos[2 * i + 1]);
    }
    int nx = (int)((maxx - minx) / comb) + 1, ny = (int)((maxy - miny) / comb) + 1;
    if ((int64_t)nx * ny > 4 * (int64_t)n + 64) { /* sparse: coarser cells keep memory bounded */
        const double k = sqrt((double)nx * ny / (4.0 * n + 64));
        nx = (int)(nx / k) + 1;
        ny = (int)(ny / k) + 1;
    }
    const double cw = (maxx - minx) / nx + 1e-9, ch = (maxy - miny) / ny + 1e-9;
    if (g->cells < nx * ny) {
        g->cells = nx * ny;
        g->head = (int *)realloc(g->head, sizeof(int) * (size_t)g->cells);
    }
    g->next = (int *)realloc(g->next, sizeof(int) * (size_t)n);
    for (int c = 0; c < nx * ny; ++c)
        g->head[c] = -1;
    for (int i = 0; i < n; ++i) {
        const int cx = (int)((pos[2 * i] - minx) / cw), cy = (int)((pos[2 * i + 1] - miny) / ch);
        const int c = (cy < ny ? cy : ny - 1) * nx + (cx < nx ? cx : nx - 1);
        g->next[i] = g->head[c];
        g->head[c] = i;
    }
    double worst = 0;
    for (int i = 0; i < n; ++i) {
        const int cx = (int)((pos[2 * i] - minx) / cw), cy = (int)((pos[2 * i + 1] - miny) / ch);
        for (int y = cy - 1; y <= cy + 1; ++y)
            for (int x = cx - 1; x <= cx + 1; ++x) {
                if (x < 0 || y < 0 || x >= nx || y >= ny)
                    continue;
                for (int j = g->head[y * nx + x]; j >= 0; j = g->next[j]) {
                    if (j <= i)
                        continue;
                    const double d =
                        hypot((double)pos[2 * i] - pos[2 * j], (double)pos[2 * i + 1] - pos[2 * j + 1]);
                    if (comb - d > worst * comb)
                        worst = (comb - d) / comb;
                }
            }
    }
    return worst;
}

/* Worst intrusion into obstacle clearance, as a fraction of the radius
 * (an agent whose centre is inside a solid polygon counts from the edge
 * inwards). Brute force: the suite's scenes have a handful of edges. */
static inline double qs_worst_intrusion(const qscene *s, const float *pos) {
    double worst = 0;
    for (int i = 0; i < s->n; ++i) {
        const double px = pos[2 * i], py = pos[2 * i + 1];
        const float *p = s->obst;
        for (int k = 0; k < s->nobst; p += 2 * s->obst_count[k], ++k) {
            const int m = s->obst_count[k];
            const int edges = s->obst_closed[k] ? m : m - 1;
            double dmin = INFINITY;
            bool inside = false;
            for (int e = 0; e < edges; ++e) {
                const double ax = p[2 * e], ay = p[2 * e + 1];
                const double bx = p[2 * ((e + 1) % m)], by = p[2 * ((e + 1) % m) + 1];
                const double ex = bx - ax, ey = by - ay;
                double t = ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey);
                t = t < 0 ? 0 : t > 1 ? 1 : t;
                dmin = fmin(dmin, hypot(px - (ax + t * ex), py - (ay + t * ey)));
                if (s->obst_closed[k] && ((ay > py) != (by > py)) && px < ax + (py - ay) * ex / ey)
                    inside = !inside;
            }
            const double intr = inside ? s->radius + dmin : s->radius - dmin;
            if (intr / s->radius > worst)
                worst = intr / s->radius;
        }
    }
    return worst;
}

#endif
