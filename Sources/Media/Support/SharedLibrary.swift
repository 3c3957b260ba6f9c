import Glibc

/// A shared library opened when first needed (`dlopen`) instead of linked. rec loads libavfilter
/// and libavdevice so: with the dozens of libraries they bring (libflite's voices, libplacebo,
/// SDL, …) they cost every process that maps them ~7.7 MB of private, relocated data pages
/// (bench/README.md, "cameras"), and a session copying a network camera calls neither.
///
/// `load` opens the library once per call site's cache (a `static let`) and never closes it:
/// the functions it hands out stay valid for the life of the process.
package struct SharedLibrary {
    private let handle: UnsafeMutableRawPointer
    package let file: String

    /// Opens `file` (a soname such as `libavfilter.so.8`). The corresponding C function is `dlopen`.
    package init(_ file: String) throws(FFmpegError) {
        guard let handle = dlopen(file, RTLD_NOW | RTLD_GLOBAL) else {
            throw Self.failure("dlopen(\(file))")
        }
        self.handle = handle
        self.file = file
    }

    /// The function `name`, as the C function type `type` (its typedef in CFFmpeg's shim.h).
    /// The corresponding C function is `dlsym`.
    package func function<F>(_ name: String, as type: F.Type) throws(FFmpegError) -> F {
        guard let address = dlsym(handle, name) else { throw Self.failure("dlsym(\(file), \(name))") }
        precondition(MemoryLayout<F>.size == MemoryLayout<UnsafeMutableRawPointer>.size, "\(F.self) is not a C function type")
        return unsafeBitCast(address, to: type)
    }

    /// ENOSYS, with `dlerror`'s text ("libavfilter.so.8: cannot open shared object file…") for
    /// the operation: the library or the function is not on this machine.
    private static func failure(_ operation: String) -> FFmpegError {
        FFmpegError(code: -ENOSYS, operation: dlerror().map { String(cString: $0) } ?? operation)
    }
}
