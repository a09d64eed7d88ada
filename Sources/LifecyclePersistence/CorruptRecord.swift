/// Stored bytes that do not decode: a journal record, a snapshot or a retained entry that is cut short or
/// malformed.
package struct CorruptRecord: Error {
    package init() {}
}
