//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// glibc's `malloc_trim(0)`, which Swift's `Glibc` module does not import (it is declared in
/// `<malloc.h>`): gives the free pages of the heap back to the system. It first waits for the
/// tables `KeyedArchiveEncoder` keeps after a large archive, which it lets go after a tenth of a
/// second.
func releaseFreedMemory() {
    Thread.sleep(forTimeInterval: 0.3)
    #if canImport(Glibc)
    // RTLD_DEFAULT is a null handle in glibc.
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    typealias MallocTrim = @convention(c) (Int) -> Int32
    _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    #endif
}
