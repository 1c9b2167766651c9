/// The items of a new order that can keep their places: a longest run of them, in the new order, whose old
/// positions increase. Every other item moved.
enum LongestIncreasingSubsequence {
    /// The indices into `values` of one longest strictly increasing subsequence of its non-nil values, in order
    /// (patience sorting, n log n).
    static func indices(_ values: [Int?]) -> [Int] {
        // tails[k]: the index of the smallest last value of an increasing run of length k + 1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            guard let value else { continue }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]]! < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result: [Int] = []
        var index = tails.last ?? -1
        while index >= 0 {
            result.append(index)
            index = previous[index]
        }
        return result.reversed()
    }
}
