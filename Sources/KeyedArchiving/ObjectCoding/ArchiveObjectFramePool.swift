//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The frames of the objects a session writes directly, by nesting depth, kept for reuse.
///
/// A frame is reused when nothing else refers to it (a writer that escaped keeps its own). The
/// pool owns its memory and cannot be copied, so that looking at a depth's frame checks no array
/// for uniqueness, only the frame itself.
internal struct ArchiveObjectFramePool: ~Copyable {
    /// The frames, by depth; the first ``count`` are initialized.
    private var frames = UnsafeMutableBufferPointer<ArchiveObjectFrame>(start: nil, count: 0)
    private var count = 0

    init() {}

    deinit {
        _ = self.frames[0..<self.count].deinitialize()
        self.frames.deallocate()
    }

    /// The frame for an object at `depth`: the kept one if nothing else refers to it, else a new
    /// one, kept in its place.
    @inline(__always)
    mutating func frame(at depth: Int) -> ArchiveObjectFrame {
        if depth < self.count {
            if isKnownUniquelyReferenced(&self.frames[depth]) { return self.frames[depth] }
            let frame = ArchiveObjectFrame()
            self.frames[depth] = frame
            return frame
        }
        return self.appendFrame(at: depth)
    }

    /// Adds frames up to `depth` and returns its own.
    @inline(never)
    private mutating func appendFrame(at depth: Int) -> ArchiveObjectFrame {
        if depth >= self.frames.count {
            let larger = UnsafeMutableBufferPointer<ArchiveObjectFrame>.allocate(
                capacity: max(depth + 1, 8, 2 * self.frames.count)
            )
            _ = larger.moveInitialize(fromContentsOf: self.frames[0..<self.count])
            self.frames.deallocate()
            self.frames = larger
        }
        while self.count <= depth {
            self.frames.initializeElement(at: self.count, to: ArchiveObjectFrame())
            self.count += 1
        }
        return self.frames[depth]
    }
}
