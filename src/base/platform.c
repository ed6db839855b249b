/* The platform layer over POSIX: pthreads, CLOCK_MONOTONIC, sched_yield.
 * MinGW-w64 builds it unchanged: winpthreads provides all three. */
#include "base/platform.h"

#include <sched.h>
#include <time.h>

bool rvo__thread_start(rvo_thread *t, rvo_thread_fn *fn, void *arg) {
    return pthread_create(t, NULL, fn, arg) == 0;
}
void rvo__thread_join(rvo_thread *t) { pthread_join(*t, NULL); }
void rvo__mutex_init(rvo_mutex *m) { pthread_mutex_init(m, NULL); }
void rvo__mutex_destroy(rvo_mutex *m) { pthread_mutex_destroy(m); }
void rvo__mutex_lock(rvo_mutex *m) { pthread_mutex_lock(m); }
void rvo__mutex_unlock(rvo_mutex *m) { pthread_mutex_unlock(m); }
void rvo__cond_init(rvo_cond *c) { pthread_cond_init(c, NULL); }
void rvo__cond_destroy(rvo_cond *c) { pthread_cond_destroy(c); }
void rvo__cond_wait(rvo_cond *c, rvo_mutex *m) { pthread_cond_wait(c, m); }
void rvo__cond_signal(rvo_cond *c) { pthread_cond_signal(c); }
void rvo__cond_broadcast(rvo_cond *c) { pthread_cond_broadcast(c); }

double rvo__now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

void rvo__yield(void) { sched_yield(); }
