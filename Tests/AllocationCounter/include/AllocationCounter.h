//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

/// Whether allocations can be counted here: on Linux with glibc, where this target's `malloc`
/// family, linked into an executable, stands in for the C library's and counts calls.
int allocation_counter_is_available(void);

/// Starts counting the allocations the calling thread makes (`malloc`, `calloc`, `realloc`,
/// `posix_memalign`, `aligned_alloc`, `memalign`), from zero.
void allocation_counter_start(void);

/// Stops counting on the calling thread and returns how many allocations it made since
/// `allocation_counter_start()`.
long allocation_counter_stop(void);

#endif
