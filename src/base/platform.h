/* The platform layer: compiler checks, SIMD detection, threads, time and
 * yielding. Everything the C core needs from the OS goes through here, so
 * that a port (MinGW, MSVC) touches this header and platform.c only. */
#ifndef RVO_BASE_PLATFORM_H
#define RVO_BASE_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

/* ---- compiler ----------------------------------------------------------- */
#if defined(__GNUC__)
#define RVO_NOINLINE __attribute__((noinline))
#define RVO_ALWAYS_INLINE __attribute__((always_inline))
#define RVO_PREFETCH(p) __builtin_prefetch(p)
#define RVO_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define RVO_NOINLINE
#define RVO_ALWAYS_INLINE
#define RVO_PREFETCH(p) ((void)0)
#define RVO_PRINTF(fmt, args)
#endif

#if defined(_MSC_VER) && !defined(__clang__)
#define RVO_THREAD_LOCAL __declspec(thread)
#else
#define RVO_THREAD_LOCAL _Thread_local
#endif

/* ---- SIMD: the SSE2 paths compute what the scalar ones do, 4 at a time;
 * RVO_NO_SIMD builds the scalar ones, as on a CPU without SSE2 (ARM), so
 * the tests can hold the two to the same bits (tests/meson.build) ------- */
#if (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)) &&                    \
    !defined(RVO_NO_SIMD)
#define RVO_SSE2 1
#include <emmintrin.h>
#endif

/* A pause in a spin-wait loop (lets the sibling hyperthread run). */
static inline void rvo__cpu_relax(void) {
#if defined(RVO_SSE2)
    _mm_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* ---- debug asserts: only in debug builds (meson buildtype=debug defines
 * RVO_DEBUG), compiled out entirely elsewhere ------------------------------ */
#if defined(RVO_DEBUG) && !defined(NDEBUG)
#include <assert.h>
#define RVO_ASSERT(cond) assert(cond)
#else
#define RVO_ASSERT(cond) ((void)sizeof(!(cond))) /* not evaluated */
#endif

/* ---- threads -------------------------------------------------------------- */
/* The objects live in memory the caller owns (a world's pool, allocated
 * with the host's allocator). A Windows port adds its types here. */
#include <pthread.h>
typedef pthread_t rvo_thread;
typedef pthread_mutex_t rvo_mutex;
typedef pthread_cond_t rvo_cond;
typedef void *rvo_thread_fn(void *arg);

/* False when the OS refuses (out of memory, thread limit). */
bool rvo__thread_start(rvo_thread *t, rvo_thread_fn *fn, void *arg);
void rvo__thread_join(rvo_thread *t);
void rvo__mutex_init(rvo_mutex *m);
void rvo__mutex_destroy(rvo_mutex *m);
void rvo__mutex_lock(rvo_mutex *m);
void rvo__mutex_unlock(rvo_mutex *m);
void rvo__cond_init(rvo_cond *c);
void rvo__cond_destroy(rvo_cond *c);
void rvo__cond_wait(rvo_cond *c, rvo_mutex *m);
void rvo__cond_signal(rvo_cond *c);
void rvo__cond_broadcast(rvo_cond *c);

/* ---- time and scheduling ---------------------------------------------------- */
/* Microseconds on a monotonic clock (differences only). */
double rvo__now_us(void);
/* Gives the core to another thread (more threads than cores). */
void rvo__yield(void);

#endif
