#if canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#elseif canImport(Darwin)
    public import Darwin
#endif

/// A value behind a pthread mutex, with `Mutex`'s `withLock` shape. Copies share the value and its lock.
///
/// Not `Synchronization.Mutex`: on Linux that locks with futexes inside a library ThreadSanitizer does
/// not instrument, so every access it guards reports as a race and the test command's TSan pass could
/// not tell real races from those. Cheap when uncontended, which is the request path's case: the value
/// and the mutex are one allocation, and reaching the value takes no dynamic exclusivity check (the
/// mutex is what keeps accesses apart).
///
/// Public and `withLock` inlinable, so each caller's use is specialized for its value and result (a `package`
/// declaration's body is not made available to other modules, so it was called unspecialized, every value it
/// returned copied through the runtime's generic value witnesses).
public struct Protected<Value>: @unchecked Sendable {
    @usableFromInline let storage: Storage

    public init(_ value: Value) {
        storage = Storage.make(value)
    }

    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        try storage.withUnsafeMutablePointers { value, mutex throws(Failure) -> Result in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    /// The value as the header of a buffer whose one element is the mutex.
    @usableFromInline final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        static func make(_ value: Value) -> Storage {
            let buffer = Storage.create(minimumCapacity: 1) { _ in value }
            buffer.withUnsafeMutablePointerToElements { mutex in
                mutex.initialize(to: pthread_mutex_t())
                let result = pthread_mutex_init(mutex, nil)
                precondition(result == 0, "pthread_mutex_init failed")
            }
            return unsafeDowncast(buffer, to: Storage.self)
        }

        deinit {
            withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                mutex.deinitialize(count: 1)
            }
        }
    }
}
