// One longest increasing run, shared by the change-set moves (OrderedChanges) and the picker's (PickerUpdatePlan).

/// The positions (in `values`) of one longest strictly increasing subsequence: patience sorting with
/// back-links, O(n log n).
func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
  var tails: [Int] = []  // index into values of the smallest tail of each run length
  var previous = [Int](repeating: -1, count: values.count)
  for (index, value) in values.enumerated() {
    var low = 0
    var high = tails.count
    while low < high {
      let middle = (low + high) / 2
      if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
    }
    if low > 0 { previous[index] = tails[low - 1] }
    if low == tails.count { tails.append(index) } else { tails[low] = index }
  }
  var run = Set<Int>()
  var cursor = tails.last ?? -1
  while cursor >= 0 {
    run.insert(cursor)
    cursor = previous[cursor]
  }
  return run
}
