// SwiftPM builds a C target from at least one source file; the whole C side of this module is
// include/shim.h over libpipewire-0.3. A C target and not a system library because pkg-config's
// flags for libpipewire-0.3 carry -D_REENTRANT, which SwiftPM refuses with a warning in every
// build of every package that depends on rec (swift-package-manager #4817): include/pipewire and
// include/spa are links to Debian's /usr/include/pipewire-0.3/pipewire and /usr/include/spa-0.2/spa.
