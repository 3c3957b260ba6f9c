/// Session re-exports its control plane (server, client, runtime folders), which lives in its own
/// module so the thin `rec` client can use it without linking FFmpeg.
@_exported import SessionControl
