import RecCore

/// The `rec` command line; `main` is the whole program.
public enum RecCLI {
    public static func main(_ arguments: [String]) -> Int32 {
        0
    }
}
