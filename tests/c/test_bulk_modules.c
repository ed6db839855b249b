/* The behaviour modules' bulk calls (issue 19): lock timers
 * (rvo_world_advance_locks, _lock_solved, _release_pushed, per-agent
 * lock time and auto lock), rvo.jitter's steering (rvo_world_steer) and
 * rvo.surround's frame (rvo_world_surround_plan, _project).
 * Bad input fails clearly and leaves the world as it was; timers go on
 * bit for bit through a snapshot and on any thread count. */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ALL 0xffffffffu

static rvo_world *world(float dt, int threads) {
    rvo_world_def d = rvo_world_def_default();
    d.time_step = dt;
    d.threads = threads;
    d.agent.max_speed = 2;
    return rvo_world_create(&d, NULL);
}

static rvo_agent_id agent(rvo_world *w, float x, float y, float pvx, float pvy) {
    rvo_agent_def a = rvo_world_agent_defaults(w);
    a.pref_velocity = (rvo_vec2){pvx, pvy};
    return rvo_world_add_agent(w, x, y, &a);
}

static double lock_time(rvo_world *w, rvo_agent_id id) {
    double t = -1;
    CHECK(rvo_agent_lock_time(w, id, &t) == RVO_OK);
    return t;
}

static bool same_bits(const rvo_vec2 *a, const rvo_vec2 *b) { return memcmp(a, b, sizeof *a) == 0; }

/* after_avoid for the two that diverted, after_clean for the free one; the
 * timers count down and end; a change of mind ends a lock early. */
static void timers(void) {
    rvo_world *w = world(0.05f, 1);
    const rvo_agent_id free = agent(w, 0, 10, 1, 0), a = agent(w, -2, 0, 1, 0), b = agent(w, 2, 0.1f, -1, 0);
    CHECK(rvo_world_advance_locks(w, 0.05) == 0);
    CHECK(rvo_world_solve(w, rvo_world_time_step(w)) == RVO_OK);
    CHECK(rvo_world_lock_solved(w, 1e-4f, 0.2, 0.001, 0.5, ALL) == 2);
    CHECK(rvo_agent_is_locked(w, a) == 1 && rvo_agent_is_locked(w, b) == 1 &&
          rvo_agent_is_locked(w, free) == 1);
    CHECK(lock_time(w, a) == 0.2 && lock_time(w, free) == 0.001);
    rvo_vec2 nv, v;
    CHECK(rvo_agent_new_velocity(w, a, &nv) == RVO_OK);
    CHECK(rvo_world_integrate(w, rvo_world_time_step(w)) == RVO_OK);
    CHECK(rvo_world_release_pushed(w) == 0);
    CHECK(rvo_agent_velocity(w, a, &v) == RVO_OK && same_bits(&v, &nv));
    CHECK(rvo_world_advance_locks(w, 0.05) == 1); /* the clean lock */
    CHECK(rvo_agent_is_locked(w, free) == 0 && lock_time(w, free) == 0);
    for (int k = 0; k < 3; ++k) { /* 0.2 s: three more solves keep the velocity */
        CHECK(rvo_agent_is_locked(w, a) == 1);
        CHECK(rvo_agent_set_pref_velocity(w, a, 1.2f, 0) == RVO_OK); /* a small change of mind */
        CHECK(rvo_world_solve(w, rvo_world_time_step(w)) == RVO_OK);
        CHECK(rvo_world_lock_solved(w, 1e-4f, 0.2, 0.001, 0.5, ALL) >= 0);
        CHECK(rvo_agent_new_velocity(w, a, &v) == RVO_OK && same_bits(&v, &nv));
        CHECK(rvo_world_integrate(w, rvo_world_time_step(w)) == RVO_OK);
        CHECK(rvo_world_advance_locks(w, 0.05) >= 1);
    }
    CHECK(rvo_agent_is_locked(w, a) == 0 && lock_time(w, a) == 0);

    /* a change of mind beyond release_on_change ends the lock at once */
    CHECK(rvo_world_solve(w, rvo_world_time_step(w)) == RVO_OK);
    CHECK(rvo_world_lock_solved(w, 1e-4f, 10, 10, 0.5, ALL) >= 0);
    CHECK(rvo_world_integrate(w, rvo_world_time_step(w)) == RVO_OK);
    CHECK(rvo_agent_is_locked(w, b) == 1);
    CHECK(rvo_agent_set_pref_velocity(w, b, 0, 0) == RVO_OK);
    CHECK(rvo_world_advance_locks(w, 0) >= 1);
    CHECK(rvo_agent_is_locked(w, b) == 0 && rvo_agent_is_locked(w, free) == 1);
    /* unlock ends a timer; lock only changes its velocity */
    CHECK(rvo_agent_lock(w, free, 0.5f, 0) == RVO_OK && lock_time(w, free) > 9);
    CHECK(rvo_agent_unlock(w, free) == RVO_OK && lock_time(w, free) == 0);
    rvo_world_destroy(w);
}

/* Who takes part: auto lock off (the hero), groups, someone else's lock. */
static void who(void) {
    rvo_world *w = world(0.1f, 1);
    const rvo_agent_id hero = agent(w, 0, 0, 1, 0), red = agent(w, 5, 0, 1, 0), blue = agent(w, 10, 0, 1, 0);
    const rvo_agent_id held = agent(w, 15, 0, 1, 0);
    CHECK(rvo_agent_set_param(w, blue, RVO_PARAM_GROUPS, 2) == RVO_OK);
    CHECK(rvo_agent_auto_lock(w, hero) == 1);
    CHECK(rvo_agent_set_auto_lock(w, hero, false) == RVO_OK && rvo_agent_auto_lock(w, hero) == 0);
    CHECK(rvo_agent_lock(w, held, 0, 1) == RVO_OK);
    CHECK(rvo_world_solve(w, rvo_world_time_step(w)) == RVO_OK);
    CHECK(rvo_world_lock_solved(w, 1e-4f, 1, 1, INFINITY, 1u) == 0); /* group bit 1: red (and the hero) */
    CHECK(rvo_agent_is_locked(w, hero) == 0 && rvo_agent_is_locked(w, blue) == 0);
    CHECK(rvo_agent_is_locked(w, red) == 1 && lock_time(w, red) == 1);
    CHECK(rvo_agent_is_locked(w, held) == 1 && lock_time(w, held) == 0); /* not a timer of ours */
    CHECK(rvo_world_integrate(w, rvo_world_time_step(w)) == RVO_OK);
    CHECK(rvo_world_advance_locks(w, 5) == 1);
    CHECK(rvo_agent_is_locked(w, held) == 1 && rvo_agent_is_locked(w, red) == 0);
    /* turning auto lock off ends a running timer */
    CHECK(rvo_world_solve(w, rvo_world_time_step(w)) == RVO_OK);
    CHECK(rvo_world_lock_solved(w, 1e-4f, 1, 1, INFINITY, ALL) == 0);
    CHECK(rvo_agent_is_locked(w, blue) == 1);
    CHECK(rvo_agent_set_auto_lock(w, blue, false) == RVO_OK);
    CHECK(rvo_agent_is_locked(w, blue) == 0 && lock_time(w, blue) == 0);
    CHECK(rvo_world_integrate(w, rvo_world_time_step(w)) == RVO_OK);
    rvo_world_destroy(w);
}

/* Idle agents (preferred speed at most 1% of max speed) are not locked:
 * nothing to smooth, and a locked one could not give way to a moving one. */
static void idle(void) {
    rvo_world *w = world(0.1f, 1);
    const rvo_agent_id parked = agent(w, 0, 0, 0, 0), slow = agent(w, 5, 0, 0.02f, 0);
    const rvo_agent_id barely = agent(w, 10, 0, 0.021f, 0), moving = agent(w, 15, 0, 1, 0);
    CHECK(rvo_world_solve(w, rvo_world_time_step(w)) == RVO_OK);
    CHECK(rvo_world_lock_solved(w, 1e-4f, 1, 1, 0.5, ALL) == 0);
    CHECK(rvo_agent_is_locked(w, parked) == 0 && rvo_agent_is_locked(w, slow) == 0);
    CHECK(rvo_agent_is_locked(w, barely) == 1 && rvo_agent_is_locked(w, moving) == 1);
    CHECK(rvo_world_integrate(w, rvo_world_time_step(w)) == RVO_OK);
    rvo_world_destroy(w);
}

/* Two locked agents, one walking through the other (it ignores it, the
 * other does not). A timed lock (rvo.locks) walked through is moved out
 * only if it presses into the walker (as against an unlocked agent); a lock
 * the script set (a ram) is never moved by a walker. Before: rvo.locks'
 * locked red units shoved the skirmish's locked ram 16 m sideways; later,
 * pressing north a little, it was still carried 20 m east between two red
 * units walking through it. */
static void walked_through(void) {
    for (int timed = 0; timed < 2; ++timed)
        for (int press = 0; press < 2; ++press) {
            rvo_world *w = world(0.1f, 1);
            const rvo_agent_id ram = agent(w, 0, 0, 0, 0), walker = agent(w, 0.6f, 0, 0, 0);
            CHECK(rvo_agent_set_param(w, ram, RVO_PARAM_GROUPS, 2) == RVO_OK);
            CHECK(rvo_agent_set_param(w, walker, RVO_PARAM_MASK, 1) == RVO_OK); /* ignores group 2 */
            CHECK(rvo_agent_lock(w, walker, 1, 0) == RVO_OK);
            const rvo_vec2 v = {press ? 1.0f : 0.0f, press ? 0.0f : 1.2f};
            CHECK(rvo_agent_set_pref_velocity(w, ram, v.x, v.y) == RVO_OK);
            CHECK(rvo_world_solve(w, 0.1f) == RVO_OK);
            if (timed) /* rvo.locks' timer, on the velocity given here */
                CHECK(rvo_world_lock_solved(w, 1e-4f, 10, 10, INFINITY, 2) >= 0 && lock_time(w, ram) == 10);
            CHECK(rvo_agent_lock(w, ram, v.x, v.y) == RVO_OK);
            CHECK(lock_time(w, ram) == (timed ? 10 : 0));
            rvo_vec2 r, k;
            CHECK(rvo_world_integrate(w, 0.1f) == RVO_OK);
            CHECK(rvo_agent_position(w, ram, &r) == RVO_OK && rvo_agent_position(w, walker, &k) == RVO_OK);
            CHECK(k.x == 0.6f + 0.1f && k.y == 0); /* the walker goes its way */
            if (press && timed)
                CHECK(r.x < 0.1f - 0.2f); /* it pressed into it: moved out */
            else
                CHECK(r.x == 0.1f * v.x && r.y == 0.1f * v.y); /* it kept its lock's motion */
            rvo_world_destroy(w);
        }
}

/* A lock ends on contact: the hard-body pass moved it. */
static void contact(void) {
    rvo_world *w = world(0.1f, 1);
    const rvo_agent_id a = agent(w, 0, 0, 2, 0);
    rvo_agent_def d = rvo_world_agent_defaults(w);
    d.weight = 0;                          /* never pushed */
    d.pref_velocity = (rvo_vec2){0, 0.5f}; /* (not idle: idle agents are not locked) */
    const rvo_agent_id wall = rvo_world_add_agent(w, 1.05f, 0, &d);
    CHECK(rvo_world_solve(w, rvo_world_time_step(w)) == RVO_OK);
    CHECK(rvo_world_lock_solved(w, 1e-4f, 10, 10, 0.5, ALL) >= 0);
    CHECK(rvo_agent_lock(w, a, 2, 0) == RVO_OK); /* straight into the wall (the timer goes on) */
    CHECK(rvo_world_integrate(w, rvo_world_time_step(w)) == RVO_OK);
    /* a copy saved now (between integrate and release_pushed) answers alike */
    rvo_world *l = check_copy(w);
    CHECK(rvo_world_release_pushed(w) == 1);
    CHECK(rvo_agent_is_locked(w, a) == 0 && rvo_agent_is_locked(w, wall) == 1);
    if (l) {
        CHECK(rvo_world_release_pushed(l) == 1);
        CHECK(rvo_agent_is_locked(l, a) == 0 && rvo_agent_is_locked(l, wall) == 1);
        CHECK(rvo_world_solve(l, rvo_world_time_step(l)) == RVO_OK);
        CHECK(rvo_world_release_pushed(l) == RVO_ERR_PHASE);
        rvo_world_destroy(l);
    }
    rvo_world_destroy(w);
}

/* Two weight-0 agents (never pushed) on timed locks driving at a light one
 * between them in a corridor: their locks end on contact (they never move,
 * so release_pushed could not see it), and the light one is not pinched. A
 * lock the script set (no timer) stays. */
static void pinch(void) {
    rvo_world *w = world(0.1f, 1);
    const float top[] = {-5, 0.55f, 5, 0.55f, 5, 2, -5, 2}, bottom[] = {-5, -2, 5, -2, 5, -0.55f, -5, -0.55f};
    CHECK(rvo_world_add_obstacle(w, top, 4, true) != 0 && rvo_world_add_obstacle(w, bottom, 4, true) != 0);
    rvo_agent_def d = rvo_world_agent_defaults(w);
    d.weight = 0;
    d.pref_velocity = (rvo_vec2){0, 0.5f}; /* (not idle: idle agents are not locked) */
    const rvo_agent_id left = rvo_world_add_agent(w, -1.3f, 0, &d),
                       right = rvo_world_add_agent(w, 1.3f, 0, &d);
    const rvo_agent_id mid = agent(w, 0, 0, 0, 0);
    float worst = 0;
    for (int step = 0; step < 30; ++step) {
        CHECK(rvo_world_solve(w, rvo_world_time_step(w)) == RVO_OK);
        CHECK(rvo_world_lock_solved(w, 1e-4f, 10, 10, INFINITY, ALL) >= 0);
        if (step == 0) { /* the timers go on with these velocities */
            CHECK(rvo_agent_lock(w, left, 1, 0) == RVO_OK && rvo_agent_lock(w, right, -1, 0) == RVO_OK);
            CHECK(lock_time(w, left) == 10 && lock_time(w, right) == 10);
        }
        CHECK(rvo_world_integrate(w, rvo_world_time_step(w)) == RVO_OK);
        CHECK(rvo_world_release_pushed(w) >= 0);
        CHECK(rvo_world_advance_locks(w, 0.1) >= 0);
        rvo_vec2 m, p;
        CHECK(rvo_agent_position(w, mid, &m) == RVO_OK);
        const rvo_agent_id side[2] = {left, right};
        for (int k = 0; k < 2; ++k) {
            CHECK(rvo_agent_position(w, side[k], &p) == RVO_OK);
            const float ov = 1.0f - hypotf(m.x - p.x, m.y - p.y) / 1.0f;
            worst = ov > worst ? ov : worst;
        }
    }
    CHECK(worst <= 0.01f); /* (before: 37% of ri + rj) */
    rvo_world_destroy(w);

    w = world(0.1f, 1); /* the script's lock (a ram): kept on contact */
    const rvo_agent_id ram = rvo_world_add_agent(w, -1.05f, 0, &d);
    agent(w, 0, 0, 0, 0);
    CHECK(rvo_agent_lock(w, ram, 1, 0) == RVO_OK);
    for (int step = 0; step < 5; ++step)
        CHECK(rvo_world_step(w, 0) == RVO_OK);
    CHECK(rvo_agent_is_locked(w, ram) == 1);
    rvo_world_destroy(w);
}

/* Every bad input: a clear error, the argument, nothing changed. */
static void bad_input(void) {
    rvo_world *w = world(0.1f, 1);
    const rvo_agent_id a = agent(w, -2, 0, 1, 0);
    agent(w, 2, 0.1f, -1, 0);
    CHECK(rvo_world_lock_solved(w, 0, 1, 1, 1, ALL) == RVO_ERR_PHASE); /* before a solve */
    CHECK(strstr(rvo_world_last_error(w), "between solve and integrate") != NULL);
    CHECK(rvo_world_release_pushed(w) == RVO_ERR_PHASE);
    CHECK(strstr(rvo_world_last_error(w), "after integrate") != NULL);
    CHECK(rvo_world_solve(w, rvo_world_time_step(w)) == RVO_OK);
    CHECK(rvo_world_release_pushed(w) == RVO_ERR_PHASE); /* after a solve */
    const double bad[] = {NAN, -1, INFINITY};
    for (int k = 0; k < 3; ++k) {
        CHECK(rvo_world_lock_solved(w, (float)bad[k], 1, 1, 1, ALL) == RVO_ERR_INVALID_ARGUMENT);
        CHECK(rvo_world_last_error_arg(w) == 1);
        CHECK(rvo_world_lock_solved(w, 0, bad[k], 1, 1, ALL) == RVO_ERR_INVALID_ARGUMENT);
        CHECK(rvo_world_last_error_arg(w) == 2);
        CHECK(rvo_world_lock_solved(w, 0, 1, bad[k], 1, ALL) == RVO_ERR_INVALID_ARGUMENT);
        CHECK(rvo_world_last_error_arg(w) == 3);
        CHECK(rvo_world_advance_locks(w, bad[k]) == RVO_ERR_INVALID_ARGUMENT);
        CHECK(rvo_world_last_error_arg(w) == 1);
    }
    CHECK(rvo_world_lock_solved(w, 0, 1, 1, 0, ALL) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 4);
    CHECK(rvo_world_lock_solved(w, 0, 1, 1, NAN, ALL) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_is_locked(w, a) == 0 && lock_time(w, a) == 0); /* nothing changed */
    double t;
    CHECK(rvo_agent_lock_time(w, 12345, &t) == RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_agent_lock_time(w, a, NULL) == RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_set_auto_lock(w, 12345, false) == RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_agent_auto_lock(w, 12345) == RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_world_lock_solved(NULL, 0, 1, 1, 1, ALL) == RVO_ERR_INVALID_ARGUMENT);
    rvo_world_destroy(w);
}

/* A crowd crossing with lock timers: a snapshot taken midway (timers
 * running) continues bit for bit, on 1 and 3 threads alike. */
static uint64_t crowd(int threads, bool snapshot_midway) {
    rvo_world *w = world(0.1f, threads);
    for (int i = 0; i < 100; ++i) {
        const float x = (float)(i % 10) * 1.5f - 7, y = (float)(i / 10) * 1.5f - 7;
        agent(w, x, y, x > 0 ? -1.5f : 1.5f, y > 0 ? -0.5f : 0.5f);
    }
    for (int s = 0; s < 120; ++s) {
        if (snapshot_midway && s == 60) {
            rvo_world *l = check_copy(w);
            if (!l)
                break;
            rvo_agent_id ids[100];
            rvo_world_agent_ids(w, ids, 100);
            int timed = 0;
            for (int k = 0; k < 100; ++k) {
                timed += lock_time(w, ids[k]) > 0;
                CHECK(lock_time(w, ids[k]) == lock_time(l, ids[k]));
            }
            /* timers are running (9 of the 100 at this step; 12 before the oncoming horizon) */
            CHECK(timed >= 5);
            rvo_world_destroy(w);
            w = l;
        }
        CHECK(rvo_world_advance_locks(w, 0.1) >= 0);
        CHECK(rvo_world_solve(w, rvo_world_time_step(w)) == RVO_OK);
        CHECK(rvo_world_lock_solved(w, 1e-4f, 0.3, 0.001, 0.5, ALL) >= 0);
        CHECK(rvo_world_integrate(w, rvo_world_time_step(w)) == RVO_OK);
        CHECK(rvo_world_release_pushed(w) >= 0);
    }
    const uint64_t h = check_hash_world(w);
    rvo_world_destroy(w);
    return h;
}

/* L'Ecuyer's combined generator as rvo.jitter writes it (floored %). */
static double next(double *s1, double *s2) {
    *s1 = fmod(*s1 * 40014, 2147483563);
    *s2 = fmod(*s2 * 40692, 2147483399);
    double z = fmod(*s1 - *s2, 2147483562);
    if (z < 0)
        z += 2147483562;
    return (z + 1) / 2147483563;
}

static void steer(void) {
    rvo_world *w = world(0.1f, 1);
    const rvo_agent_id a = agent(w, 0, 0, 0, 0), b = agent(w, 10, 0, 0, 0), c = agent(w, 20, 0, 7, 7);
    rvo_agent_id ids[3] = {a, b, c};
    const double goals[6] = {10, 0, 10.2, 0, 20.1, 0};
    double rng[2] = {12345, 678}, left[3];
    /* a: far (a draw), b: its last step (lands on the goal), c: within arrive */
    CHECK(rvo_world_steer(w, ids, goals, 3, 0.1, 0, 0.15, rng, left) == 2);
    CHECK(left[0] == 10 && left[1] == 10.2 - 10 && left[2] == 20.1 - 20);
    double s1 = 12345, s2 = 678;
    const double e = 0.1 * (2 * next(&s1, &s2) - 1);
    CHECK(rng[0] == s1 && rng[1] == s2); /* one draw: a's */
    const double k = 2 / sqrt(1 + e * e);
    rvo_vec2 p;
    CHECK(rvo_agent_pref_velocity(w, a, &p) == RVO_OK);
    CHECK(p.x == (float)(1 * k) && p.y == (float)(e * k));
    CHECK(rvo_agent_pref_velocity(w, b, &p) == RVO_OK);
    CHECK(p.x == (float)((10.2 - 10) / (double)0.1f) && p.y == 0); /* lands on the goal */
    CHECK(rvo_agent_pref_velocity(w, c, &p) == RVO_OK && p.x == 0 && p.y == 0);
    /* no generator: straight on */
    CHECK(rvo_world_steer(w, ids, goals, 1, 0.1, 0, 0, NULL, NULL) == 1);
    CHECK(rvo_agent_pref_velocity(w, a, &p) == RVO_OK && p.x == 2 && p.y == 0);
    /* slow radius: half the speed at half the radius */
    CHECK(rvo_world_steer(w, ids, goals, 1, 0, 20, 0, NULL, NULL) == 1);
    CHECK(rvo_agent_pref_velocity(w, a, &p) == RVO_OK && p.x == 1);

    /* bad input: nothing changes (not even the agents before the bad one) */
    CHECK(rvo_agent_set_pref_velocity(w, a, 3, 3) == RVO_OK);
    const double bad_goal[6] = {1, 1, NAN, 0, 0, 0};
    rvo_agent_id stale[3] = {a, b, 99999};
    double r2[2] = {1, 1};
    struct {
        int32_t st, arg;
    } cases[8];
    int n = 0;
    cases[n].st = rvo_world_steer(w, stale, goals, 3, 0.1, 0, 0, r2, NULL), cases[n++].arg = 1;
    cases[n].st = rvo_world_steer(w, ids, bad_goal, 3, 0.1, 0, 0, r2, NULL), cases[n++].arg = 2;
    cases[n].st = rvo_world_steer(w, ids, goals, -1, 0.1, 0, 0, r2, NULL), cases[n++].arg = 3;
    cases[n].st = rvo_world_steer(w, ids, goals, 3, 1.5, 0, 0, r2, NULL), cases[n++].arg = 4;
    cases[n].st = rvo_world_steer(w, ids, goals, 3, NAN, 0, 0, r2, NULL), cases[n++].arg = 4;
    cases[n].st = rvo_world_steer(w, ids, goals, 3, 0.1, -1, 0, r2, NULL), cases[n++].arg = 5;
    cases[n].st = rvo_world_steer(w, ids, goals, 3, 0.1, 0, INFINITY, r2, NULL), cases[n++].arg = 6;
    r2[0] = 0;
    cases[n].st = rvo_world_steer(w, ids, goals, 3, 0.1, 0, 0, r2, NULL), cases[n++].arg = 7;
    for (int i = 0; i < n; ++i)
        CHECK(cases[i].st < 0);
    CHECK(cases[0].st == RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_world_steer(w, ids, goals, 3, 0.1, 0, 0, r2, NULL) == RVO_ERR_INVALID_ARGUMENT &&
          rvo_world_last_error_arg(w) == 7 && r2[0] == 0 && r2[1] == 1);
    CHECK(rvo_world_steer(w, stale, goals, 3, 0.1, 0, 0, NULL, NULL) == RVO_ERR_UNKNOWN_ID &&
          rvo_world_last_error_arg(w) == 1 && strstr(rvo_world_last_error(w), "(number 3 in ids)") != NULL);
    CHECK(rvo_world_steer(w, ids, bad_goal, 3, 0.1, 0, 0, NULL, NULL) == RVO_ERR_INVALID_ARGUMENT &&
          rvo_world_last_error_arg(w) == 2);
    CHECK(rvo_agent_pref_velocity(w, a, &p) == RVO_OK && p.x == 3 && p.y == 3);
    CHECK(rvo_world_steer(w, NULL, NULL, 0, 0, 0, 0, NULL, NULL) == 0);
    rvo_world_destroy(w);
}

/* rvo.surround's frame: phases, the ring order, preferred velocities toward
 * the band, the projection; bad input fails and changes nothing. */
static void surround(void) {
    rvo_world *w = world(0.1f, 1);
    rvo_surround_def def = {.target_x = 0,
                            .target_y = 0,
                            .attack_radius = 3,
                            .tolerance = 0.5,
                            .probe_length = 3,
                            .spread_speed = 0.5,
                            .dt = 0.1,
                            .clock = 0,
                            .spread = 1,
                            .hold = 1,
                            .probes = 1};
    /* two on the band (at 90 and 0 degrees), one far out east */
    const rvo_agent_id u[3] = {agent(w, 0, 2.8f, 0, 0), agent(w, 2.8f, 0, 0, 0), agent(w, 20, 0, 0, 0)};
    uint8_t phase[3] = {0, 0, 0};
    double stalled[3] = {0, 0, 0}, flip[3] = {-1, -1, -1}, gap = 0;
    rvo_agent_id holders[3] = {0, 0, 0};
    CHECK(rvo_world_surround_plan(w, &def, u, 3, phase, stalled, flip, holders, &gap) == 2);
    CHECK(phase[0] == 1 && phase[1] == 1 && phase[2] == 0);
    CHECK(holders[0] == u[1] && holders[1] == u[0]); /* by angle: 0, then 90 degrees */
    CHECK(gap > 3.14159 && gap < 6.28319);           /* the widest gap: the 270 degrees from 90 to 360 */
    rvo_vec2 v;
    CHECK(rvo_agent_pref_velocity(w, u[2], &v) == RVO_OK && v.x == -2.0f && v.y == 0); /* straight in */
    /* bad input: nothing changes */
    const rvo_vec2 before = v;
    const rvo_agent_id gone[2] = {u[2], 999};
    CHECK(rvo_world_surround_plan(w, &def, gone, 2, phase, stalled, flip, holders, &gap) ==
          RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_world_last_error_arg(w) == 2);
    CHECK(rvo_world_surround_plan(w, NULL, u, 3, phase, stalled, flip, holders, &gap) ==
          RVO_ERR_INVALID_ARGUMENT);
    rvo_surround_def bad = def;
    bad.tolerance = 4;
    CHECK(rvo_world_surround_plan(w, &bad, u, 3, phase, stalled, flip, holders, &gap) ==
          RVO_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.dt = NAN;
    CHECK(rvo_world_surround_plan(w, &bad, u, 3, phase, stalled, flip, holders, &gap) ==
          RVO_ERR_INVALID_ARGUMENT);
    phase[2] = 2;
    CHECK(rvo_world_surround_plan(w, &def, u, 3, phase, stalled, flip, holders, &gap) ==
          RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_world_last_error_arg(w) == 4);
    phase[2] = 0;
    CHECK(rvo_world_surround_plan(w, &def, u, -1, phase, stalled, flip, holders, &gap) ==
          RVO_ERR_INVALID_ARGUMENT);
    CHECK(rvo_agent_pref_velocity(w, u[2], &v) == RVO_OK && same_bits(&v, &before));
    CHECK(rvo_world_surround_plan(w, &def, NULL, 0, NULL, NULL, NULL, NULL, NULL) == 0);
    /* the projection: only between solve and integrate */
    CHECK(rvo_world_surround_project(w, &def, holders, 2) == RVO_ERR_PHASE);
    CHECK(rvo_world_solve(w, 0.1f) == RVO_OK);
    CHECK(rvo_world_surround_project(w, &def, gone, 2) == RVO_ERR_UNKNOWN_ID);
    CHECK(rvo_world_surround_project(w, &def, holders, 2) == RVO_OK);
    rvo_vec2
        nv; /* a holder keeps no radial part beyond the pull to mid-band (2.75 m): inward, at most 0.5 m/s */
    CHECK(rvo_agent_new_velocity(w, u[1], &nv) == RVO_OK && nv.x < 0 && nv.x > -0.51f);
    CHECK(rvo_world_integrate(w, 0.1f) == RVO_OK);
    rvo_world_destroy(w);
}

int main(void) {
    timers();
    who();
    contact();
    pinch();
    idle();
    walked_through();
    bad_input();
    const uint64_t h1 = crowd(1, false);
    CHECK(crowd(1, true) == h1);
    CHECK(crowd(3, false) == h1);
    CHECK(crowd(3, true) == h1);
    steer();
    surround();
    return check_finish("bulk_modules");
}
