/// The small gray picture the motion detector works on, and the steps it goes through: plain
/// loops over a few thousand pixels (100 rows), cheap at a few pictures a second.
struct MotionImage {
    var pixels: [Float]
    let width: Int
    let height: Int

    /// The luma plane scaled down by averaging the source pixels each analysed pixel covers.
    static func scaled(_ luma: UnsafeBufferPointer<UInt8>, width sourceWidth: Int, height sourceHeight: Int, stride: Int,
                       to size: (width: Int, height: Int)) -> MotionImage {
        let columns = (0...size.width).map { $0 * sourceWidth / size.width }
        var pixels = [Float](repeating: 0, count: size.width * size.height)
        var sums = [Int](repeating: 0, count: size.width)
        for y in 0..<size.height {
            let top = y * sourceHeight / size.height, bottom = max(top + 1, (y + 1) * sourceHeight / size.height)
            for x in 0..<size.width { sums[x] = 0 }
            for row in top..<bottom {
                let base = row * stride
                for x in 0..<size.width {
                    var sum = 0
                    for column in columns[x]..<max(columns[x] + 1, columns[x + 1]) { sum += Int(luma[base + column]) }
                    sums[x] += sum
                }
            }
            for x in 0..<size.width {
                let count = (bottom - top) * max(1, columns[x + 1] - columns[x])
                pixels[y * size.width + x] = Float(sums[x]) / Float(count)
            }
        }
        return MotionImage(pixels: pixels, width: size.width, height: size.height)
    }

    /// Spreads the picture's brightness over 0–255 between its 4th and 96th percentiles, so that
    /// the threshold means the same in a dim scene as in a bright one. A flat picture is left.
    /// Masked pixels (`leavingOut`) are not counted: a bright overlay would set the top.
    mutating func stretchContrast(leavingOut masked: [Bool] = []) {
        var histogram = [Int](repeating: 0, count: 256)
        var counted = 0
        for (i, value) in pixels.enumerated() where masked.isEmpty || !masked[i] {
            histogram[Int(min(255, max(0, value)))] += 1
            counted += 1
        }
        guard counted > 0 else { return }
        func percentile(_ fraction: Double) -> Int {
            let wanted = Int(Double(counted) * fraction)
            var seen = 0
            for (value, count) in histogram.enumerated() {
                seen += count
                if seen > wanted { return value }
            }
            return 255
        }
        let low = Float(percentile(0.04)), high = Float(percentile(0.96))
        guard high - low >= 8 else { return }
        let scale = 255 / (high - low)
        for i in pixels.indices { pixels[i] = min(255, max(0, (pixels[i] - low) * scale)) }
    }

    /// A 3x3 box blur (edges use what is inside the picture): one changed pixel is noise.
    mutating func blur() {
        var rows = pixels
        for y in 0..<height {
            for x in 0..<width {
                var sum: Float = 0, n: Float = 0
                for dx in -1...1 where x + dx >= 0 && x + dx < width {
                    sum += pixels[y * width + x + dx]
                    n += 1
                }
                rows[y * width + x] = sum / n
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                var sum: Float = 0, n: Float = 0
                for dy in -1...1 where y + dy >= 0 && y + dy < height {
                    sum += rows[(y + dy) * width + x]
                    n += 1
                }
                pixels[y * width + x] = sum / n
            }
        }
    }

    /// Each changed pixel grows to its eight neighbours: the parts of one moving thing join.
    static func dilated(_ changed: [Bool], width: Int, height: Int) -> [Bool] {
        var grown = changed
        for y in 0..<height {
            for x in 0..<width where changed[y * width + x] {
                for dy in -1...1 where y + dy >= 0 && y + dy < height {
                    for dx in -1...1 where x + dx >= 0 && x + dx < width { grown[(y + dy) * width + x + dx] = true }
                }
            }
        }
        return grown
    }

    /// An area of touching changed pixels (eight-connected), its size and bounding box.
    struct Area {
        var pixels = 0
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
    }

    /// The changed pixels' areas, found by filling each from its first pixel.
    static func areas(_ changed: [Bool], width: Int, height: Int) -> [Area] {
        var seen = [Bool](repeating: false, count: changed.count)
        var areas: [Area] = []
        var stack: [Int] = []
        for start in changed.indices where changed[start] && !seen[start] {
            var area = Area()
            seen[start] = true
            stack.append(start)
            while let i = stack.popLast() {
                let (x, y) = (i % width, i / width)
                area.pixels += 1
                (area.minX, area.maxX, area.minY, area.maxY) = (min(area.minX, x), max(area.maxX, x), min(area.minY, y), max(area.maxY, y))
                for dy in -1...1 where y + dy >= 0 && y + dy < height {
                    for dx in -1...1 where x + dx >= 0 && x + dx < width {
                        let j = (y + dy) * width + x + dx
                        if changed[j] && !seen[j] {
                            seen[j] = true
                            stack.append(j)
                        }
                    }
                }
            }
            areas.append(area)
        }
        return areas
    }
}
