# Sourced by the scripts that build rec to check it (test.sh, docs.sh, api-check.sh, ci-install.sh):
# one build, optimised, that the tests, the documentation, the API check and the install checks
# all use. Optimised because the tests spend most of their time in rec's own code (the stand-in
# camera's pictures and tones, the sound and picture checks): on 2 cores the main suite took
# 952 s built for debugging and 678 s optimised, and the optimised build costs about 3 minutes
# more. -enable-testing keeps the tests' `@testable import`s working in it.
[[ -d /opt/swift/usr/bin ]] && export PATH="/opt/swift/usr/bin:$PATH"
rec_build=(-c release -Xswiftc -enable-testing)
rec_bin=.build/release
