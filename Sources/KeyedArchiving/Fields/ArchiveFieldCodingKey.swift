//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The coding keys of a type whose fields go by index: the `CodingKeys` enum `@Archivable`
/// generates, which maps each index of the type's ``ArchiveObjectKeys`` to its case.
///
/// ``ArchiveContainerFieldWriter`` and ``ArchiveContainerFieldReader`` take fields by index and
/// use these keys with the container, so that every coder sees the keys synthesized `Codable`
/// would give it.
public protocol ArchiveFieldCodingKey: CodingKey {
    /// The key at `index` in the type's ``ArchiveObjectKeys``.
    init(archiveField index: Int)
}
