/* libFuzzer harness for rvo_world_load. The first input byte picks how the
 * rest is fed:
 *   even: as is (headers, lengths and the checksum as the mutator left them);
 *   odd:  with the header repaired (magic, version, size, CRC-32), so that
 *         mutations reach every field behind the checksum.
 * Invariants: a failed load returns a status, an error message and no
 * world; a load that succeeds gives a world that steps with finite results
 * and whose snapshot is exactly the bytes it was loaded from (an older
 * version's: the current version's bytes, which load back to themselves).
 * Seeds: tests/fuzz/corpus/snapshot (valid snapshots, see seeds.c). */
#include "rvo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SNAP_VERSION 5 /* services/snapshot.c */

static uint32_t crc32_ref(const uint8_t *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

static void put_le(uint8_t *p, uint64_t v, int n) {
    for (int k = 0; k < n; ++k)
        p[k] = (uint8_t)(v >> (8 * k));
}

static unsigned long long loads, accepted;
static void report(void) { fprintf(stderr, "fuzz_snapshot: %llu loads, %llu accepted\n", loads, accepted); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static bool registered;
    if (!registered) {
        atexit(report);
        registered = true;
    }
    if (size < 1)
        return 0;
    const bool repair = data[0] & 1;
    ++data;
    --size;
    uint8_t *s = malloc(size > 0 ? size : 1);
    if (size > 0)
        memcpy(s, data, size);
    if (repair && size >= 24) {
        memcpy(s, "RVOSNAP\0", 8);
        put_le(s + 8, SNAP_VERSION, 4);
        put_le(s + 12, crc32_ref(s + 24, size - 24), 4);
        put_le(s + 16, size - 24, 8);
    }
    ++loads;
    rvo_world *w = (rvo_world *)&loads; /* must become NULL on failure */
    rvo_error err;
    memset(&err, 'x', sizeof err);
    const rvo_status st = rvo_world_load(s, size, NULL, &w, &err);
    if (memchr(err.message, 0, sizeof err.message) == NULL || err.status != (int32_t)st)
        abort(); /* always a terminated message and the status returned */
    if (st != RVO_OK) {
        if (w != NULL || err.message[0] == 0)
            abort();
        if (st != RVO_ERR_INVALID_ARGUMENT && st != RVO_ERR_OUT_OF_MEMORY)
            abort();
        free(s);
        return 0;
    }
    ++accepted;
    if (!w)
        abort();
    /* Exactly the bytes it came from. */
    const size_t n = rvo_world_save(w, NULL, 0);
    uint8_t *again = malloc(n);
    rvo_world_save(w, again, n);
    if (s[8] == SNAP_VERSION && (n != size || memcmp(again, s, n) != 0)) {
        fprintf(stderr, "an accepted snapshot does not save back to the same bytes\n");
        abort();
    }
    if (s[8] != SNAP_VERSION) {
        rvo_world *w2 = NULL;
        if (rvo_world_load(again, n, NULL, &w2, NULL) != RVO_OK)
            abort();
        uint8_t *third = malloc(n);
        if (rvo_world_save(w2, third, n) != n || memcmp(third, again, n) != 0) {
            fprintf(stderr, "an upgraded snapshot does not save back to the same bytes\n");
            abort();
        }
        free(third);
        rvo_world_destroy(w2);
    }
    free(again);
    /* It works: a few steps, finite results, ids still valid, and a
     * finished phase when it was loaded solved. */
    if (rvo_world_is_solved(w) && rvo_world_integrate(w, 0.05f) != RVO_OK)
        abort();
    const int32_t count = rvo_world_agent_count(w);
    if (count < 64) {
        for (int k = 0; k < 3; ++k)
            if (rvo_world_step(w, 0.05f) != RVO_OK)
                abort();
        float *xy = malloc(sizeof(float) * 2 * (size_t)(count + 1));
        rvo_agent_id *ids = malloc(sizeof *ids * (size_t)(count + 1));
        rvo_world_positions(w, xy, count);
        for (int32_t k = 0; k < 2 * count; ++k)
            if (!isfinite(xy[k]))
                abort();
        rvo_world_velocities(w, xy, count);
        for (int32_t k = 0; k < 2 * count; ++k)
            if (!isfinite(xy[k]))
                abort();
        rvo_world_agent_ids(w, ids, count);
        for (int32_t k = 0; k < count; ++k)
            if (!rvo_agent_is_valid(w, ids[k]))
                abort();
        /* new ids never collide with live ones */
        const rvo_agent_id fresh = rvo_world_add_agent(w, 0, 0, NULL);
        for (int32_t k = 0; k < count; ++k)
            if (fresh == ids[k])
                abort();
        free(xy);
        free(ids);
    }
    rvo_world_destroy(w);
    free(s);
    return 0;
}
