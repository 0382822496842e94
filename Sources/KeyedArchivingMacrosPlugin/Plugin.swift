//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin: it only lists the macros.
@main
struct KeyedArchivingMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ArchivableMacro.self, ArchiveAttributeMacro.self]
}
