// A test-only probe for the real-time rules: it interposes the allocator, the blocking primitives and the
// common system calls, and counts the calls the *calling thread* makes between begin and end. Everything is
// forwarded to the C library unchanged; outside a window the cost is one thread-local load.
#ifndef REALTIME_PROBE_H
#define REALTIME_PROBE_H

typedef struct {
    long allocations;   // malloc, calloc, realloc, free, posix_memalign, aligned_alloc, memalign
    long locks;         // pthread_mutex_lock/trylock, pthread_cond_wait/timedwait, sem_wait, flockfile
    long systemCalls;   // read, write, ioctl, poll, nanosleep, clock_nanosleep, usleep, syscall (futex), fwrite
    long windows;       // times counting was switched on
} realtime_probe_counts;

/// Zeroes this thread's counters and starts counting.
void realtime_probe_begin(void);
/// Stops counting and returns what this thread did since begin.
realtime_probe_counts realtime_probe_end(void);

/// For a window opened and closed many times by the code under test: zero (counting off), then
/// resume/pause around each measured part, then read the sums.
void realtime_probe_reset(void);
void realtime_probe_resume(void);
void realtime_probe_pause(void);
realtime_probe_counts realtime_probe_read(void);

/// The same window on a thread the test does not run on (a render thread): `pause_and_publish` closes the
/// window and adds this thread's counts to process-wide totals, which any thread reads (and zeroes).
void realtime_probe_pause_and_publish(void);
realtime_probe_counts realtime_probe_take_published(void);

/// Test helpers for the control experiment (each goes through the interposed symbol, so it must count).
void *realtime_probe_malloc(unsigned long size);
void realtime_probe_free(void *pointer);
int realtime_probe_lock_and_unlock(void);
long realtime_probe_write_nothing(void);

/// Drops CAP_SYS_NICE from the calling thread's effective capabilities (capabilities are per thread on
/// Linux), so with RLIMIT_RTPRIO at 0 a SCHED_FIFO request from this thread is refused with EPERM even
/// when the tests run as root. Returns 0, or -1 with errno set.
int realtime_probe_drop_sys_nice(void);

#endif
