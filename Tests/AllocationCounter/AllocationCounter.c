//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// An executable's own `malloc` family (this target's, linked into it): each one counts the call when the calling thread
// counts, then hands it to glibc's implementation (`__libc_malloc` and its siblings, which glibc
// exports for this purpose). An executable's definitions take precedence over the C library's for
// every caller in the process, the Swift runtime and Foundation included. Counting is per thread,
// so that tests running at the same time on other threads are not counted.

#include "AllocationCounter.h"

#include <errno.h>  // Also brings in <features.h>, which defines __GLIBC__ on glibc.
#include <stddef.h>

#if defined(__linux__) && defined(__GLIBC__)

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

// Initial-exec thread-locals of the executable: reading them allocates nothing.
static _Thread_local int counting;
static _Thread_local long count;

static inline void note(void) {
    if (counting) count += 1;
}

int allocation_counter_is_available(void) { return 1; }

void allocation_counter_start(void) {
    count = 0;
    counting = 1;
}

long allocation_counter_stop(void) {
    counting = 0;
    return count;
}

void *malloc(size_t size) {
    note();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    note();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    note();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
    note();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // The checks glibc's own posix_memalign makes: a power of two, a multiple of a pointer's size.
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) {
        return EINVAL;
    }
    note();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

#else

int allocation_counter_is_available(void) { return 0; }
void allocation_counter_start(void) {}
long allocation_counter_stop(void) { return 0; }

#endif
