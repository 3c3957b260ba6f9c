import RecCore
import Testing

/// The grid's records and its viewer's bounded queue (docs/REVIEW.md), without a server.
@Suite struct GridRecordTests {
    @Test func aRecordIsKindCameraLengthBigEndianThenItsPayload() {
        let record = GridRecord.make(.data, camera: 258, payload: [9, 8, 7])
        #expect(record == [2, 1, 2, 0, 0, 0, 3, 9, 8, 7])
        let bytes = GridRecord.make(.cameras, camera: 0, payload: Array(#"["a"]"#.utf8)) + record + Array(record.prefix(8))
        let (records, used) = GridRecord.parse(bytes)
        #expect(records.map(\.kind) == [0, 2] && records.map(\.camera) == [0, 258])
        #expect(Array(records[1].payload) == [9, 8, 7])
        #expect(used == bytes.count - 8, "a record still coming is left for later")
    }

    @Test func aViewerThatFallsTooFarBehindIsDroppedForGood() {
        var bytes = GridQueue(maxBytes: 100, maxAge: 10)
        let first = bytes.push([UInt8](repeating: 0, count: 60), now: 0)
        let second = bytes.push([UInt8](repeating: 0, count: 60), now: 1)
        let third = bytes.push([1], now: 2)
        #expect(first && !second, "past the byte bound")
        #expect(bytes.dropped && bytes.isEmpty && !third, "dropped for good")

        var age = GridQueue(maxBytes: 1 << 20, maxAge: 10)
        let early = [age.push([1], now: 0), age.push([2], now: 9)]
        let drained = age.drain()
        let late = [age.push([3], now: 15), age.push([4], now: 25), age.push([5], now: 25.5)]
        #expect(early == [true, true] && drained == [1, 2])
        #expect(late == [true, true, false] && age.dropped, "drained at 9: at 25.5 the oldest waiting has waited 10.5 s")
    }
}
