// See include/RealtimeProbe.h. Linked into the test executable: a symbol defined in the executable comes
// first in the dynamic linker's search order, so libswiftCore's and libc's callers reach these functions.
// The allocator is forwarded to glibc's exported __libc_* entry points (dlsym itself may allocate, so the
// allocator must not depend on it); everything else through dlsym(RTLD_NEXT, ...), resolved on first use.
// No architecture-specific code: the same file works on x86_64 and on aarch64 (also under qemu-user).
#define _GNU_SOURCE
#include "RealtimeProbe.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread int counting __attribute__((tls_model("initial-exec")));
static __thread realtime_probe_counts counts __attribute__((tls_model("initial-exec")));

#define COUNT(field) do { if (counting) counts.field += 1; } while (0)

void realtime_probe_begin(void) {
    memset(&counts, 0, sizeof counts);
    counts.windows = 1;
    counting = 1;
}

void realtime_probe_reset(void) {
    counting = 0;
    memset(&counts, 0, sizeof counts);
}

void realtime_probe_resume(void) {
    counts.windows += 1;
    counting = 1;
}

void realtime_probe_pause(void) { counting = 0; }

realtime_probe_counts realtime_probe_read(void) { return counts; }

static _Atomic long published_allocations, published_locks, published_system_calls, published_windows;

void realtime_probe_pause_and_publish(void) {
    counting = 0;
    atomic_fetch_add(&published_allocations, counts.allocations);
    atomic_fetch_add(&published_locks, counts.locks);
    atomic_fetch_add(&published_system_calls, counts.systemCalls);
    atomic_fetch_add(&published_windows, counts.windows);
    memset(&counts, 0, sizeof counts);
}

realtime_probe_counts realtime_probe_take_published(void) {
    realtime_probe_counts taken;
    taken.allocations = atomic_exchange(&published_allocations, 0);
    taken.locks = atomic_exchange(&published_locks, 0);
    taken.systemCalls = atomic_exchange(&published_system_calls, 0);
    taken.windows = atomic_exchange(&published_windows, 0);
    return taken;
}

realtime_probe_counts realtime_probe_end(void) {
    counting = 0;
    return counts;
}

// MARK: the allocator

void *malloc(size_t size) { COUNT(allocations); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { COUNT(allocations); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { COUNT(allocations); return __libc_realloc(pointer, size); }
void free(void *pointer) { COUNT(allocations); __libc_free(pointer); }
void *memalign(size_t alignment, size_t size) { COUNT(allocations); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { COUNT(allocations); return __libc_memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    COUNT(allocations);
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

// MARK: everything else, forwarded to the next definition

#define NEXT(type, name) \
    static _Atomic(type) next_##name; \
    type real = atomic_load_explicit(&next_##name, memory_order_acquire); \
    if (real == NULL) { \
        real = (type)dlsym(RTLD_NEXT, #name); \
        atomic_store_explicit(&next_##name, real, memory_order_release); \
    }

typedef int (*mutex_fn)(pthread_mutex_t *);
typedef int (*cond_wait_fn)(pthread_cond_t *, pthread_mutex_t *);
typedef int (*cond_timedwait_fn)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
typedef int (*sem_fn)(sem_t *);
typedef void (*file_fn)(FILE *);
typedef ssize_t (*read_fn)(int, void *, size_t);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef int (*ioctl_fn)(int, unsigned long, void *);
typedef int (*poll_fn)(struct pollfd *, nfds_t, int);
typedef int (*nanosleep_fn)(const struct timespec *, struct timespec *);
typedef int (*clock_nanosleep_fn)(clockid_t, int, const struct timespec *, struct timespec *);
typedef int (*usleep_fn)(useconds_t);
typedef long (*syscall_fn)(long, long, long, long, long, long, long);
typedef size_t (*fwrite_fn)(const void *, size_t, size_t, FILE *);

int pthread_mutex_lock(pthread_mutex_t *mutex) { COUNT(locks); NEXT(mutex_fn, pthread_mutex_lock) return real(mutex); }
int pthread_mutex_trylock(pthread_mutex_t *mutex) { COUNT(locks); NEXT(mutex_fn, pthread_mutex_trylock) return real(mutex); }
int sem_wait(sem_t *semaphore) { COUNT(locks); NEXT(sem_fn, sem_wait) return real(semaphore); }
void flockfile(FILE *file) { COUNT(locks); NEXT(file_fn, flockfile) real(file); }

// dlsym gives the default version of versioned symbols (pthread_cond_*: GLIBC_2.3.2 on x86_64, GLIBC_2.17 on
// aarch64), the one a program linked now would use.
int pthread_cond_wait(pthread_cond_t *condition, pthread_mutex_t *mutex) {
    COUNT(locks); NEXT(cond_wait_fn, pthread_cond_wait) return real(condition, mutex);
}
int pthread_cond_timedwait(pthread_cond_t *condition, pthread_mutex_t *mutex, const struct timespec *deadline) {
    COUNT(locks); NEXT(cond_timedwait_fn, pthread_cond_timedwait) return real(condition, mutex, deadline);
}

ssize_t read(int descriptor, void *buffer, size_t count) {
    COUNT(systemCalls); NEXT(read_fn, read) return real(descriptor, buffer, count);
}
ssize_t write(int descriptor, const void *buffer, size_t count) {
    COUNT(systemCalls); NEXT(write_fn, write) return real(descriptor, buffer, count);
}
size_t fwrite(const void *buffer, size_t size, size_t count, FILE *file) {
    COUNT(systemCalls); NEXT(fwrite_fn, fwrite) return real(buffer, size, count, file);
}
int ioctl(int descriptor, unsigned long request, ...) {
    COUNT(systemCalls);
    va_list arguments;
    va_start(arguments, request);
    void *argument = va_arg(arguments, void *);
    va_end(arguments);
    NEXT(ioctl_fn, ioctl)
    return real(descriptor, request, argument);
}
int poll(struct pollfd *entries, nfds_t count, int timeout) {
    COUNT(systemCalls); NEXT(poll_fn, poll) return real(entries, count, timeout);
}
int nanosleep(const struct timespec *duration, struct timespec *remaining) {
    COUNT(systemCalls); NEXT(nanosleep_fn, nanosleep) return real(duration, remaining);
}
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *deadline, struct timespec *remaining) {
    COUNT(systemCalls); NEXT(clock_nanosleep_fn, clock_nanosleep) return real(clock, flags, deadline, remaining);
}
int usleep(useconds_t microseconds) {
    COUNT(systemCalls); NEXT(usleep_fn, usleep) return real(microseconds);
}
// syscall(2) is how futex waits reach the kernel from Swift's Synchronization and the runtime; it takes at
// most six arguments, read as longs (the calling convention passes them in registers on both architectures).
long syscall(long number, ...) {
    COUNT(systemCalls);
    va_list arguments;
    va_start(arguments, number);
    long a = va_arg(arguments, long), b = va_arg(arguments, long), c = va_arg(arguments, long);
    long d = va_arg(arguments, long), e = va_arg(arguments, long), f = va_arg(arguments, long);
    va_end(arguments);
    NEXT(syscall_fn, syscall)
    return real(number, a, b, c, d, e, f);
}

// MARK: the control experiment and the refusal helper

void *realtime_probe_malloc(unsigned long size) { return malloc(size); }
void realtime_probe_free(void *pointer) { free(pointer); }

int realtime_probe_lock_and_unlock(void) {
    static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
    int result = pthread_mutex_lock(&mutex);
    pthread_mutex_unlock(&mutex);
    return result;
}

long realtime_probe_write_nothing(void) { return (long)write(-1, "", 0); }

// struct __user_cap_header_struct / __user_cap_data_struct from <linux/capability.h>, version 3 (two words).
struct probe_cap_header { unsigned int version; int pid; };
struct probe_cap_data { unsigned int effective, permitted, inheritable; };
#define PROBE_CAP_VERSION_3 0x20080522
#define PROBE_CAP_SYS_NICE 23

int realtime_probe_drop_sys_nice(void) {
    struct probe_cap_header header = { PROBE_CAP_VERSION_3, 0 };
    struct probe_cap_data data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capget, &header, data) != 0) return -1;
    data[0].effective &= ~(1u << PROBE_CAP_SYS_NICE);
    return (int)syscall(SYS_capset, &header, data);
}
