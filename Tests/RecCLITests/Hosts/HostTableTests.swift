import Foundation
import RecClient
import SessionControl
import Testing
import TestPool

/// `rec status --all --host …` as a table: a BOX column first, only when rows come from boxes.
@Suite(.blocking) struct HostTableTests {
    @Test func rowsFromBoxesGetABoxColumn() {
        var door = SessionRow(session: "door", state: "recording", source: "rtsp://admin:pw@cam/live", frames: 900,
                              ringStart: 1.5, ringEnd: 31, dropped: 0)
        door.box = "local"
        var silent = SessionRow(session: "-", state: SessionRow.notAnswering,
                                lastError: "rec@box2 did not answer within 5 s; it may be down, stopped or unreachable")
        silent.box = "box2"
        #expect(SessionTable.text([door, silent]).split(separator: "\n").map(String.init) == [
            "BOX    SESSION  STATE          SOURCE           FRAMES  BUFFER             DROPPED  LAST ERROR",
            "local  door     recording      rtsp://cam/live     900  0:01.500–0:31.000        0",
            "box2   -        not-answering  -                     -  -                        -  rec@box2 did not answer within 5 s; it may be down, stopped or unreachable",
        ])
        #expect(JSONText.encode([door]).contains(#""box":"local""#))
        door.box = nil
        #expect(!SessionTable.text([door]).contains("BOX") && !JSONText.encode([door]).contains("box"))
    }

    /// A box's rows read back as it printed them.
    @Test func aBoxsRowsReadBack() throws {
        let row = SessionRow(session: "yard", state: "recording", source: "test pattern 320x180@30", frames: 3, ringStart: 0,
                             ringEnd: 0.1, dropped: 0, lastError: "camera silent for 3 s")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode([SessionRow].self, from: Data(JSONText.encode([row]).utf8)) == [row])
    }
}
