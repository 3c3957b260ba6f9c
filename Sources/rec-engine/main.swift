import Foundation
import RecCLI

exit(RecCLI.main(Array(CommandLine.arguments.dropFirst())))
