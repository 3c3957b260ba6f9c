// doc-samples: compiles the Swift samples of the docs against the real API; it does not run them.
//
// scripts/doc-samples.sh writes Samples.generated.swift beside this file (git-ignored) from every
// ```swift block of docs/LIBRARY.md, README.md and Sources/Rec/Rec.docc/*.md, one function a block;
// scripts/examples.sh runs it before it builds, and fails on any warning or error they give.
print("doc-samples: the docs' samples compile; they are not run (cameras, files, a network camera)")
