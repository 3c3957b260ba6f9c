# Sourced by scripts/docs.sh and scripts/api-check.sh: how a tool outside the build loads the
# built module Rec (swift build "${rec_build[@]}" --target Rec first). Rec imports the package's C modules, so a tool
# needs each Sources/C*/module.modulemap (a C target's in its include/, which goes on the search
# path too: CPipeWire's links to PipeWire's headers are there) and the header paths pkg-config
# gives for the libraries Package.swift names; they are read from there so a new C library needs
# no change here.
source scripts/build-config.sh
rec_modules="$rec_bin/Modules"
rec_module_flags=(-I "$rec_modules" -module-cache-path .build/tool-module-cache)
for map in Sources/C*/module.modulemap Sources/C*/include/module.modulemap; do
  [[ -e $map ]] || continue
  rec_module_flags+=(-Xcc "-fmodule-map-file=$PWD/$map")
  if [[ $map == */include/module.modulemap ]]; then rec_module_flags+=(-Xcc "-I$PWD/${map%/module.modulemap}"); fi
done
mapfile -t rec_pkg_config < <(sed -n 's/.*pkgConfig: "\([^"]*\)".*/\1/p' Package.swift)
for flag in $(pkg-config --cflags-only-I "${rec_pkg_config[@]}"); do
  rec_module_flags+=(-Xcc "$flag")
done
