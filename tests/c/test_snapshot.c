/* Snapshots: a loaded world continues bit-identically (every solver, saved
 * in either phase, with churned ids, obstacles, locks, groups and heights);
 * the bytes are the documented format; truncated, flipped, foreign and
 * checksum-valid-but-wrong data give a clear error and no world; a load
 * that runs out of memory leaks nothing. */
#include "check.h"
#include "rvo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Our own CRC-32 (IEEE), bit by bit: checks the format independently. */
static uint32_t crc32_ref(const uint8_t *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}
static void fix_crc(uint8_t *s, size_t n) {
    const uint32_t c = crc32_ref(s + 24, n - 24);
    for (int k = 0; k < 4; ++k)
        s[12 + k] = (uint8_t)(c >> (8 * k));
}

static uint8_t *save(const rvo_world *w, size_t *n) {
    *n = rvo_world_save(w, NULL, 0);
    uint8_t *b = malloc(*n);
    CHECK(rvo_world_save(w, b, *n) == *n);
    return b;
}

static rvo_world *load(const uint8_t *b, size_t n) {
    rvo_world *w = NULL;
    rvo_error err;
    const rvo_status st = rvo_world_load(b, n, NULL, &w, &err);
    if (st != RVO_OK)
        fprintf(stderr, "load failed: %s\n", err.message);
    CHECK(st == RVO_OK && w != NULL);
    return w;
}

/* Steers every agent towards the point mirrored through the origin of where
 * it started (kept in goals by id slot); uses only the world's state. */
static void steer(rvo_world *w) {
    const int32_t n = rvo_world_agent_count(w);
    rvo_agent_id *ids = malloc(sizeof *ids * (size_t)(n + 1));
    float *xy = malloc(sizeof(float) * 2 * (size_t)(n + 1));
    rvo_world_agent_ids(w, ids, n);
    rvo_world_positions(w, xy, n);
    for (int32_t i = 0; i < n; ++i) {
        const float gx = (float)((int)(ids[i] % 7) - 3) * 6.0f, gy = (float)((int)(ids[i] % 5) - 2) * 6.0f;
        float dx = gx - xy[2 * i], dy = gy - xy[2 * i + 1];
        const float d = sqrtf(dx * dx + dy * dy);
        if (d > 1.5f)
            dx *= 1.5f / d, dy *= 1.5f / d;
        xy[2 * i] = dx;
        xy[2 * i + 1] = dy;
    }
    CHECK(rvo_world_set_pref_velocities(w, xy, n) == RVO_OK);
    free(ids);
    free(xy);
}

/* A world exercising every kind of state. */
static rvo_world *scene(int threads, rvo_solver solver, bool compat) {
    rvo_world_def wd = rvo_world_def_default();
    wd.threads = threads;
    wd.time_step = 0.1f;
    wd.seed = 0x123456789abcull;
    wd.height_margin = 0.25f;
    wd.agent.neighbor_dist = 6;
    wd.agent.max_neighbors = 7;
    rvo_world *w = rvo_world_create(&wd, NULL);
    rvo_world_set_solver(w, solver);
    if (solver == RVO_SOLVER_RVO)
        rvo_world_set_sampling(w, 40, 2.5f);
    rvo_world_set_rvo2_compat(w, compat);
    const float box[] = {-1, -1, 1, -1, 1, 1, -1, 1};
    const float room[] = {-30, -30, -30, 30, 30, 30, 30, -30}; /* clockwise: an enclosure */
    const float wall[] = {8, -6, 8, 0, 10, 4};
    const float seg[] = {-9, 5, -5, 7};
    const float gone[] = {0, 12, 2, 12, 1, 14};
    rvo_world_add_obstacle(w, gone, 3, true);
    rvo_world_add_obstacle(w, box, 4, true);
    rvo_world_add_obstacle(w, room, 4, true);
    const rvo_obstacle_id o3 = rvo_world_add_obstacle(w, wall, 3, false);
    rvo_world_add_obstacle(w, seg, 2, false);
    CHECK(rvo_obstacle_set_z_range(w, o3, -1, 1.5f) == RVO_OK);
    rvo_world_remove_obstacle(w, 1); /* the first one: free list is not trivial */
    rvo_agent_def ad = rvo_agent_def_default();
    for (int i = 0; i < 60; ++i) {
        ad.radius = 0.3f + 0.05f * (float)(i % 4);
        ad.weight = (float)(i % 5) * 0.25f;
        ad.groups = 1u << (i % 3);
        ad.mask = i % 7 == 0 ? 0x5u : 0xffffffffu;
        ad.z = i % 11 == 0 ? 3.0f : 0.0f;
        ad.height = i % 2 ? 2.0f : INFINITY;
        ad.max_speed = 1.0f + 0.1f * (float)(i % 3);
        const float a = (float)i * 0.7f;
        rvo_world_add_agent(w, 12.0f * cosf(a), 12.0f * sinf(a), &ad);
    }
    for (rvo_agent_id id = 3; id < 60; id += 9)
        rvo_world_remove_agent(w, id);   /* churn the pool */
    rvo_world_add_agent(w, 0, 20, NULL); /* reuses a slot */
    CHECK(rvo_agent_lock(w, 2, 0.5f, -0.25f) == RVO_OK);
    return w;
}

static void step(rvo_world *w) {
    steer(w);
    CHECK(rvo_world_step(w, 0) == RVO_OK);
}

/* Runs a and b side by side for steps steps with the same churn; both must
 * issue the same ids and end with byte-equal snapshots. */
static void twin_run(rvo_world *a, rvo_world *b, int steps, const char *what) {
    bool same_ids = true;
    for (int s = 0; s < steps; ++s) {
        if (s % 37 == 5) { /* churn in both: ids issued must match */
            const rvo_agent_id ia = rvo_world_add_agent(a, (float)(s % 9) - 4.0f, -15.0f, NULL);
            const rvo_agent_id ib = rvo_world_add_agent(b, (float)(s % 9) - 4.0f, -15.0f, NULL);
            same_ids = same_ids && ia == ib && ia != 0;
            rvo_agent_id first;
            rvo_world_agent_ids(a, &first, 1);
            same_ids = same_ids && rvo_world_remove_agent(a, first) == RVO_OK &&
                       rvo_world_remove_agent(b, first) == RVO_OK;
        }
        if (s == 50) {
            const float tri[] = {-14, -2, -12, -2, -13, 0};
            const rvo_obstacle_id oa = rvo_world_add_obstacle(a, tri, 3, true);
            same_ids = same_ids && oa == rvo_world_add_obstacle(b, tri, 3, true) && oa != 0;
        }
        if (s == 120)
            same_ids = same_ids && rvo_agent_unlock(a, 2) == RVO_OK && rvo_agent_unlock(b, 2) == RVO_OK;
        step(a);
        step(b);
    }
    size_t na, nb;
    uint8_t *sa = save(a, &na), *sb = save(b, &nb);
    const bool same = na == nb && memcmp(sa, sb, na) == 0;
    printf("%s: after %d more steps the snapshots are %s (%zu bytes), ids %s\n", what, steps,
           same ? "byte-identical" : "DIFFERENT", na, same_ids ? "the same" : "DIFFERENT");
    CHECK(same);
    CHECK(same_ids);
    free(sa);
    free(sb);
}

static void continues_identically(int threads, rvo_solver solver, bool compat, bool solved) {
    rvo_world *w = scene(threads, solver, compat);
    for (int s = 0; s < 100; ++s)
        step(w);
    if (solved) {
        steer(w);
        CHECK(rvo_world_solve(w, 0.1f) == RVO_OK);
        CHECK(rvo_agent_set_new_velocity(w, 10, 0.25f, 0.5f) == RVO_OK); /* a post-processed velocity */
    }
    size_t n;
    uint8_t *snap = save(w, &n);
    rvo_world *l = load(snap, n);
    if (!l)
        return;
    CHECK(rvo_world_is_solved(l) == solved);
    CHECK(rvo_world_threads(l) == threads);
    CHECK(rvo_world_solver(l) == solver);
    CHECK(rvo_world_rvo2_compat(l) == compat);
    CHECK(rvo_world_agent_count(l) == rvo_world_agent_count(w));
    CHECK(rvo_world_obstacle_count(l) == rvo_world_obstacle_count(w));
    /* a save of the loaded world is the same bytes */
    size_t n2;
    uint8_t *again = save(l, &n2);
    CHECK(n2 == n && memcmp(snap, again, n) == 0);
    free(again);
    if (solved) {
        CHECK(rvo_world_integrate(w, 0.1f) == RVO_OK);
        CHECK(rvo_world_integrate(l, 0.1f) == RVO_OK);
    }
    char what[96];
    snprintf(what, sizeof what, "%s, %d thread(s)%s%s", rvo_solver_name(solver), threads,
             compat ? ", rvo2_compat" : "", solved ? ", saved while solved" : "");
    twin_run(w, l, 200, what);
    free(snap);
    rvo_world_destroy(w);
    rvo_world_destroy(l);
}

/* ---- allocators ---------------------------------------------------------- */
/* Counts live blocks (not bytes: after a failed growth the core may report
 * a block's old size as its capacity before the attempt; see the note of
 * issue 8) and can fail one chosen allocation. */
typedef struct counting {
    long live_blocks;
    long calls;
    long fail_at; /* the allocation that fails (1-based), 0 = never */
} counting;

static void *counting_alloc(void *user, void *ptr, size_t old_size, size_t new_size) {
    counting *c = user;
    (void)old_size;
    if (new_size == 0) {
        if (ptr)
            c->live_blocks -= 1;
        free(ptr);
        return NULL;
    }
    if (++c->calls == c->fail_at)
        return NULL;
    void *p = realloc(ptr, new_size);
    if (p && !ptr)
        c->live_blocks += 1;
    return p;
}

static void check_format(const uint8_t *s, size_t n) {
    CHECK(n >= 24 && memcmp(s, "RVOSNAP\0", 8) == 0);
    CHECK(s[8] == 5 && s[9] == 0 && s[10] == 0 && s[11] == 0); /* version 5, little-endian */
    uint64_t size = 0;
    for (int k = 0; k < 8; ++k)
        size |= (uint64_t)s[16 + k] << (8 * k);
    CHECK(size == n - 24);
    const uint32_t c = crc32_ref(s + 24, n - 24);
    CHECK(s[12] == (uint8_t)c && s[13] == (uint8_t)(c >> 8) && s[14] == (uint8_t)(c >> 16) &&
          s[15] == (uint8_t)(c >> 24));
    /* the first setting is time_step 0.1f as its bits, little-endian */
    const float dt = 0.1f;
    uint32_t bits;
    memcpy(&bits, &dt, 4);
    CHECK(s[24] == (uint8_t)bits && s[25] == (uint8_t)(bits >> 8) && s[26] == (uint8_t)(bits >> 16) &&
          s[27] == (uint8_t)(bits >> 24));
}

static rvo_status try_load(const uint8_t *b, size_t n, rvo_error *err) {
    rvo_world *w = (rvo_world *)&w; /* must be overwritten with NULL on failure */
    const rvo_status st = rvo_world_load(b, n, NULL, &w, err);
    if (st == RVO_OK) {
        CHECK(w != NULL);
        /* a world that loads must work: step it and check finiteness */
        for (int s = 0; s < 3; ++s)
            CHECK(rvo_world_step(w, 0.05f) == RVO_OK);
        const int32_t na = rvo_world_agent_count(w);
        float *xy = malloc(sizeof(float) * 2 * (size_t)(na + 1));
        rvo_world_positions(w, xy, na);
        for (int32_t k = 0; k < 2 * na; ++k)
            CHECK(isfinite(xy[k]));
        free(xy);
        rvo_world_destroy(w);
    } else {
        CHECK(w == NULL);
        CHECK(err->message[0] != 0 && err->status == st && err->arg == (st == RVO_ERR_OUT_OF_MEMORY ? 0 : 1));
    }
    return st;
}

static void bad_input(void) {
    rvo_world *w = scene(1, RVO_SOLVER_ORCA, false);
    for (int s = 0; s < 10; ++s)
        step(w);
    size_t n;
    uint8_t *snap = save(w, &n);
    check_format(snap, n);
    rvo_error err;

    /* too small a buffer: the size comes back, nothing is written */
    uint8_t small[16];
    memset(small, 0xAB, sizeof small);
    CHECK(rvo_world_save(w, small, sizeof small) == n);
    CHECK(small[0] == 0xAB && small[15] == 0xAB);
    CHECK(rvo_world_save(NULL, NULL, 0) == 0);

    /* every truncation */
    int truncated_ok = 0;
    for (size_t k = 0; k < n; ++k)
        truncated_ok += try_load(snap, k, &err) == RVO_OK;
    CHECK(truncated_ok == 0);
    CHECK(try_load(snap, 30, &err) == RVO_ERR_INVALID_ARGUMENT);
    printf("truncated: \"%s\"\n", err.message);
    CHECK(strcmp(err.message, "snapshot is truncated") == 0);
    /* trailing bytes */
    uint8_t *longer = malloc(n + 1);
    memcpy(longer, snap, n);
    longer[n] = 0;
    CHECK(try_load(longer, n + 1, &err) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(err.message, "snapshot has trailing bytes") == 0);
    free(longer);

    /* every single-bit flip (the checksum, the header or the payload) */
    uint8_t *m = malloc(n);
    int flipped_ok = 0;
    for (size_t k = 0; k < n; ++k)
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(m, snap, n);
            m[k] ^= (uint8_t)(1u << bit);
            flipped_ok += try_load(m, n, &err) == RVO_OK;
        }
    CHECK(flipped_ok == 0);
    memcpy(m, snap, n);
    m[n / 2] ^= 0x10;
    try_load(m, n, &err);
    printf("flipped: \"%s\"\n", err.message);
    CHECK(strcmp(err.message, "snapshot is corrupted (checksum mismatch)") == 0);

    /* foreign data and a future version */
    const char text[] = "return { agents = {} }";
    CHECK(try_load((const uint8_t *)text, sizeof text, &err) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(err.message, "not an rvo snapshot") == 0);
    CHECK(try_load(NULL, 0, &err) == RVO_ERR_INVALID_ARGUMENT);
    memcpy(m, snap, n);
    m[8] = 6;
    CHECK(try_load(m, n, &err) == RVO_ERR_INVALID_ARGUMENT);
    printf("future version: \"%s\"\n", err.message);
    CHECK(strstr(err.message, "version 6 is not supported") != NULL);
    rvo_world *out = NULL;
    CHECK(rvo_world_load(snap, n, NULL, NULL, &err) == RVO_ERR_INVALID_ARGUMENT); /* no out */
    CHECK(err.arg == 4 && strcmp(err.message, "out is NULL") == 0);
    CHECK(rvo_world_load(text, sizeof text, NULL, &out, NULL) ==
          RVO_ERR_INVALID_ARGUMENT); /* no err buffer */
    CHECK(out == NULL);

    /* Checksum-valid but wrong: every 4-byte word of the payload set to
     * adversarial values, the CRC recomputed. Each either loads into a
     * working world (a value that is merely different) or fails clearly. */
    static const uint32_t evil[] = {0xFFFFFFFFu, 0x7FC00000u /* NaN */, 0x7F800000u /* inf */,
                                    0x80000000u, 0x00000000u,           0x00000002u,
                                    0xBF800000u /* -1 */};
    int loaded = 0, rejected = 0;
    for (size_t k = 24; k + 4 <= n; k += 4)
        for (size_t e = 0; e < sizeof evil / sizeof evil[0]; ++e) {
            memcpy(m, snap, n);
            for (int b = 0; b < 4; ++b)
                m[k + (size_t)b] = (uint8_t)(evil[e] >> (8 * b));
            fix_crc(m, n);
            if (try_load(m, n, &err) == RVO_OK)
                ++loaded;
            else
                ++rejected;
        }
    printf("checksum-valid mutations: %d loaded into working worlds, %d rejected\n", loaded, rejected);
    CHECK(rejected > 0);
    /* one specific case: the first agent's radius set to -1. It follows the
     * agent's id and its 4 vectors; find the id followed by its position. */
    rvo_agent_id first;
    rvo_vec2 p0;
    rvo_world_agent_ids(w, &first, 1);
    rvo_agent_position(w, first, &p0);
    uint8_t key[12];
    for (int b = 0; b < 8; ++b)
        key[b] = (uint8_t)(first >> (8 * b));
    memcpy(key + 8, &p0.x, 4); /* (this test runs little-endian) */
    size_t radius_at = 0;
    for (size_t k = 24; k + 12 <= n && !radius_at; ++k)
        if (memcmp(snap + k, key, 12) == 0)
            radius_at = k + 8 + 32;
    CHECK(radius_at > 0);
    memcpy(m, snap, n);
    const float neg = -1.0f;
    memcpy(m + radius_at, &neg, 4); /* (this test runs little-endian) */
    fix_crc(m, n);
    CHECK(try_load(m, n, &err) == RVO_ERR_INVALID_ARGUMENT);
    printf("bad radius: \"%s\"\n", err.message);
    CHECK(strcmp(err.message, "snapshot is corrupted (agent 1: radius must be > 0)") == 0);
    free(m);
    free(snap);
    rvo_world_destroy(w);
}

static void memory(void) {
    /* The host's allocator is used for the loaded world, and all of it goes back. */
    rvo_world *w = scene(2, RVO_SOLVER_ORCA, false);
    for (int s = 0; s < 5; ++s)
        step(w);
    size_t n;
    uint8_t *snap = save(w, &n);
    rvo_world_destroy(w);
    counting c = {0, 0, 0};
    rvo_world_def host = rvo_world_def_default();
    host.alloc = counting_alloc;
    host.alloc_user = &c;
    host.threads = 3; /* ignored: the snapshot's settings win */
    rvo_world *l = NULL;
    rvo_error err;
    CHECK(rvo_world_load(snap, n, &host, &l, &err) == RVO_OK);
    CHECK(c.live_blocks > 0);
    CHECK(rvo_world_threads(l) == 2);
    for (int s = 0; s < 5; ++s)
        step(l);
    rvo_world_destroy(l);
    CHECK(c.live_blocks == 0);
    const long total_calls = c.calls;

    /* Out of memory at every allocation of a load: a clean failure, no leak. */
    int failures = 0, oks = 0;
    for (long k = 1; k <= total_calls + 5; ++k) {
        counting f = {0, 0, k};
        host.alloc_user = &f;
        l = NULL;
        const rvo_status st = rvo_world_load(snap, n, &host, &l, &err);
        if (st == RVO_OK) {
            ++oks;
            rvo_world_destroy(l);
        } else {
            ++failures;
            CHECK(st == RVO_ERR_OUT_OF_MEMORY);
            CHECK(l == NULL);
            CHECK(strcmp(err.message, "out of memory") == 0);
        }
        CHECK(f.live_blocks == 0);
    }
    printf("load with a failing allocation at each of %ld points: %d failed cleanly, %d succeeded, no leak\n",
           total_calls + 5, failures, oks);
    CHECK(failures > 0);
    free(snap);
}

static void empty_world(void) {
    rvo_world_def wd = rvo_world_def_default();
    rvo_world *w = rvo_world_create(&wd, NULL);
    size_t n;
    uint8_t *snap = save(w, &n);
    rvo_world *l = load(snap, n);
    CHECK(l && rvo_world_agent_count(l) == 0 && rvo_world_time_step(l) == wd.time_step);
    CHECK(rvo_world_add_agent(l, 0, 0, NULL) == rvo_world_add_agent(w, 0, 0, NULL));
    CHECK(rvo_world_avoiding(l, 0, NULL, 0) == RVO_ERR_PHASE); /* never solved, as the original */
    free(snap);
    rvo_world_destroy(w);
    rvo_world_destroy(l);
}

/* A version 1 snapshot (saved by the build before detours existed: a box,
 * two agents walking at it for 2 s) still loads, and the world goes on. */
static const uint8_t snapshot_v1[] = {
    0x52, 0x56, 0x4f, 0x53, 0x4e, 0x41, 0x50, 0x00, 0x01, 0x00, 0x00, 0x00, 0x89, 0xd8, 0x5c, 0xbc, 0x86,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x89, 0x88, 0x88, 0x3c, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3f, 0x00, 0x00, 0x00,
    0x40, 0x00, 0x00, 0x20, 0x41, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x3f, 0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x80, 0x7f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x01, 0xcd, 0xcc, 0xcc, 0x3d, 0x00, 0x00, 0x80, 0x3f, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x76, 0x0f, 0x72, 0xc0, 0x9a, 0x99, 0x99, 0x3e, 0xfe, 0x7f, 0x25, 0x3f,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0xfe, 0x7f, 0x25, 0x3f, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3f, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x20, 0x41, 0x00, 0x00,
    0x00, 0x40, 0x00, 0x00, 0x00, 0x40, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3f, 0x01, 0x00, 0x00,
    0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x7f, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x76, 0x0f, 0x72, 0x40, 0x00,
    0x00, 0x00, 0xbf, 0xfe, 0x7f, 0x25, 0xbf, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00,
    0x00, 0x00, 0xfe, 0x7f, 0x25, 0xbf, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3f, 0x00, 0x00, 0x00,
    0x40, 0x00, 0x00, 0x20, 0x41, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40, 0x0a, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x3f, 0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x80, 0x7f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00,
    0xc0, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40,
    0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x40, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x80, 0xff, 0x00, 0x00, 0x80, 0x7f, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static void test_version_1(void) {
    rvo_world *w = NULL;
    rvo_error err;
    CHECK(rvo_world_load(snapshot_v1, sizeof snapshot_v1, NULL, &w, &err) == RVO_OK);
    if (!w)
        return;
    CHECK(rvo_world_agent_count(w) == 2 && rvo_world_obstacle_count(w) == 1);
    rvo_agent_id ids[2];
    rvo_world_agent_ids(w, ids, 2);
    rvo_vec2 p;
    CHECK(rvo_agent_position(w, ids[0], &p) == RVO_OK);
    CHECK(p.x == -3.78219366f && p.y == 0.300000012f);
    for (int s = 0; s < 60 * 20; ++s)
        CHECK(rvo_world_step(w, 0) == RVO_OK);
    CHECK(rvo_agent_position(w, ids[0], &p) == RVO_OK);
    CHECK(p.x > 2.0f); /* it went round the box (its preferred velocity stays (2, 0)) */
    rvo_world_destroy(w);
}

int main(void) {
    test_version_1();
    continues_identically(1, RVO_SOLVER_ORCA, false, false);
    continues_identically(2, RVO_SOLVER_ORCA, false, true);
    continues_identically(1, RVO_SOLVER_ORCA, true, false);
    continues_identically(1, RVO_SOLVER_UE, false, false);
    continues_identically(2, RVO_SOLVER_RVO, false, true);
    empty_world();
    bad_input();
    memory();
    return check_finish("snapshot");
}
