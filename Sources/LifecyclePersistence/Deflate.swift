import CZlib

/// zlib's one-shot compression, for device snapshots: their JSON shrinks several times over, so the store's
/// single writer spends that much less time on each one.
enum Deflate {
    /// `prefix`, then `bytes` compressed at zlib's fastest level (the work runs off the request path; the
    /// writer's time is what counts). zlib writes into a scratch buffer of compressBound's size left
    /// uninitialized, so only what it writes, a fraction of it, is ever touched; the result is that fraction,
    /// copied after the prefix into an array of its own size (which is what waits for the snapshot store).
    /// (Zeroed first, every page of a snapshot's size was faulted in and cleared once more; when every device
    /// took its snapshot in the same second, `bench/stalls` counted 86,000–96,000 page faults a second there,
    /// BENCHMARKS.md.)
    static func compress(_ bytes: [UInt8], after prefix: [UInt8] = []) throws(CompressionFailed) -> [UInt8] {
        let bound = Int(compressBound(uLong(bytes.count)))
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bound)
        defer { scratch.deallocate() }
        var size = uLong(bound)
        let status = bytes.withUnsafeBufferPointer { input in
            compress2(scratch.baseAddress, &size, input.baseAddress, uLong(input.count), Z_BEST_SPEED)
        }
        // compress2 fails only without memory (the buffer is compressBound's size): then no snapshot is saved.
        guard status == Z_OK else { throw CompressionFailed(status: Int(status)) }
        var output = prefix
        output.append(contentsOf: scratch[..<Int(size)])
        return output
    }

    struct CompressionFailed: Error {
        package var status: Int
    }

    /// The original bytes of `compressed`, which must inflate to exactly `count` bytes.
    static func decompress(_ compressed: ArraySlice<UInt8>, count: Int) throws(CorruptRecord) -> [UInt8] {
        // Deflate expands at most about 1,032 times: a larger claimed length is damage, refused before allocating.
        guard count >= 0, count <= Int(UInt32.max), count <= compressed.count * 1_040 + 64 else {
            throw CorruptRecord()
        }
        var output = [UInt8](repeating: 0, count: count)
        var size = uLong(count)
        let status = output.withUnsafeMutableBufferPointer { out in
            compressed.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &size, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK, size == uLong(count) else { throw CorruptRecord() }
        return output
    }
}
