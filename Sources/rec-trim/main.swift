import Foundation
import TrimCLI

exit(TrimCLI.main(Array(CommandLine.arguments.dropFirst())))
