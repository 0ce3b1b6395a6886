// Counts a process's heap allocations, for scripts/bench and the allocation guard test.
//
// Built as a shared object and LD_PRELOADed into streakd:
//     cc -O2 -shared -fPIC -o malloc-count.so scripts/malloc-count.c
//     STREAKD_MALLOC_COUNT_FILE=/tmp/x.count LD_PRELOAD=$PWD/malloc-count.so streakd ...
// Every malloc, calloc, realloc, aligned allocation and strdup-like call that reaches glibc's
// allocator adds one to a 64-bit counter kept in the first 8 bytes of STREAKD_MALLOC_COUNT_FILE
// (little-endian, created and mapped shared at load), so another process reads the current
// count with pread at any time (streak-load --alloc-count-file). The calls themselves go on to
// glibc's own entry points (__libc_malloc and friends), so nothing else changes.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static uint64_t early_count;
static uint64_t *counter = &early_count;

static inline void count(void) { __atomic_fetch_add(__atomic_load_n(&counter, __ATOMIC_ACQUIRE), 1, __ATOMIC_RELAXED); }

__attribute__((constructor)) static void malloc_count_init(void) {
    const char *path = getenv("STREAKD_MALLOC_COUNT_FILE");
    if (path == NULL || *path == 0) return;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return;
    if (ftruncate(fd, 4096) != 0) {
        close(fd);
        return;
    }
    void *map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return;
    uint64_t *shared = map;
    __atomic_store_n(shared, __atomic_load_n(&early_count, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
    __atomic_store_n(&counter, shared, __ATOMIC_RELEASE);
}

void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    count();
    return __libc_calloc(n, size);
}

void *realloc(void *pointer, size_t size) {
    count();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}
