import Live

/// The box's review page (docs/REVIEW.md): HTML, CSS and JavaScript in one string, nothing from
/// the internet. The token the page was opened with is written into it (it is served only to a
/// request that had it) so its POSTs carry it in a header; the URL's `?token=` is removed from the
/// address bar at once. The live player and the frame-number reader are the session page's
/// (`LivePlayerScript`); `#reviewtest` makes the page exercise itself for the browser tests.
enum ReviewPage {
    static func html(token: String, role: String) -> String {
        head + "<script>const TOKEN=\"\(token)\", ROLE=\"\(role)\";\n" + LivePlayerScript.source + "\n" + ReviewGridScript.source + "\n"
            + ReviewScript.source + "\n" + ReviewTimelineScript.source + "\n" + ReviewSelftest.source + "</script></body></html>"
    }

    static let head = #"""
<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>rec review</title>
<style>
body{font:14px system-ui,sans-serif;margin:0;background:#111;color:#eee}
[hidden],.tile [hidden]{display:none}
header,#bar,#exportbar{display:flex;flex-wrap:wrap;gap:6px;align-items:center;padding:6px 8px}
header h1{font-size:16px;margin:0 8px 0 0}
button,input{font:inherit;background:#2b2b2b;color:#eee;border:1px solid #777;border-radius:4px;padding:4px 8px;min-height:32px}
button:focus-visible,input:focus-visible,#tl:focus-visible,.tile:focus-within{outline:2px solid #ffd54a;outline-offset:1px}
button[aria-pressed="true"]{background:#4a4a10;border-color:#ffd54a}
button:disabled{color:#aaa;border-color:#555}
#grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,260px),1fr));gap:6px;padding:0 8px}
.tile{margin:0;background:#000;position:relative;min-height:90px}
.tile video,.tile img{width:100%;display:block;aspect-ratio:16/9;object-fit:contain;background:#000}
.tile figcaption{display:flex;gap:6px;align-items:center;justify-content:space-between;padding:3px 6px;background:#1d1d1d;font-size:13px}
.tile .when{font-variant-numeric:tabular-nums;color:#ddd}
.tile .note{color:#ffcf70;padding:8px}
#tlwrap{padding:6px 8px}
#tl{width:100%;display:block;background:#181818;touch-action:none;cursor:crosshair}
#msg{color:#ffcf70;min-height:1.3em;padding:0 8px}
#exports{padding:0 8px 12px;margin:0;list-style:none}
#exports a{color:#9cf}
.sr{position:absolute;left:-9999px}
label{display:inline-flex;gap:4px;align-items:center}
</style></head><body>
<header><h1>rec review</h1><span id="role"></span><span id="clock" aria-live="off"></span></header>
<main>
<div id="grid" aria-label="Cameras"></div>
<div id="bar" role="toolbar" aria-label="Playback">
<button id="golive" aria-pressed="true">Live</button>
<button id="back" aria-label="Previous frame (Left arrow)">◀ frame</button>
<button id="play" aria-label="Play or pause (Space, K)">Play</button>
<button id="fwd" aria-label="Next frame (Right arrow)">frame ▶</button>
<button id="zin" aria-label="Zoom in (+)">Zoom +</button>
<button id="zout" aria-label="Zoom out (-)">Zoom −</button>
<button id="fit" aria-label="Show everything recorded">All</button>
<label for="goto">Go to</label><input id="goto" size="23" placeholder="2026-12-06 14:03:05.250" aria-describedby="gotohelp">
<span id="gotohelp" class="sr">A local date and time, or a time of day; Enter moves the playhead there</span>
<button id="link" aria-label="Copy a link to this instant">Link</button>
</div>
<div id="tlwrap"><canvas id="tl" tabindex="0" role="slider" aria-label="Timeline of every camera; the playhead" aria-valuetext="live"
 aria-keyshortcuts="Space J K L ArrowLeft ArrowRight I O + -"></canvas></div>
<div id="exportbar" role="group" aria-label="Export">
<button id="setin" aria-label="Set the in handle at the playhead (I)">In</button><output id="inval" aria-label="In">–</output>
<button id="setout" aria-label="Set the out handle at the playhead (O)">Out</button><output id="outval" aria-label="Out">–</output>
<button id="export">Export chosen cameras</button>
</div>
<div id="msg" role="status" aria-live="polite"></div>
<ul id="exports" aria-label="Exports"></ul>
</main>
<canvas id="cv" style="display:none"></canvas>
"""#
}
