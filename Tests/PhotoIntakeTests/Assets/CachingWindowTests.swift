import Testing

@testable import PhotoIntake

/// The thumbnail-caching arithmetic of a scrolling grid.
@Suite struct CachingWindowTests {
  @Test func theFirstScrollCachesTheVisibleItemsAndTheMargins() {
    var window = CachingWindow(preheatMargin: 10)
    let delta = window.scroll(to: 0..<20, count: 1000)
    #expect(delta.start == Array(0..<30))
    #expect(delta.stop.isEmpty)
    #expect(delta.leftView.isEmpty)
    #expect(window.cached == 0..<30)
  }

  @Test func scrollingDownStartsWhatEntersAndStopsWhatLeaves() {
    var window = CachingWindow(preheatMargin: 10)
    _ = window.scroll(to: 40..<60, count: 1000)
    let delta = window.scroll(to: 50..<70, count: 1000)
    #expect(delta.start == Array(70..<80))
    #expect(delta.stop == Array(30..<40))
    #expect(delta.leftView == Array(40..<50))
  }

  @Test func scrollingUpIsTheMirrorImage() {
    var window = CachingWindow(preheatMargin: 5)
    _ = window.scroll(to: 50..<60, count: 100)
    let delta = window.scroll(to: 45..<55, count: 100)
    #expect(delta.start == Array(40..<45))
    #expect(delta.stop == Array(60..<65))
    #expect(delta.leftView == Array(55..<60))
  }

  @Test func aJumpReplacesTheWholeBand() {
    var window = CachingWindow(preheatMargin: 2)
    _ = window.scroll(to: 0..<4, count: 100)
    let delta = window.scroll(to: 90..<94, count: 100)
    #expect(delta.start == Array(88..<96))
    #expect(delta.stop == Array(0..<6))
    #expect(delta.leftView == Array(0..<4))
  }

  @Test func theBandIsClampedToTheFetchResult() {
    var window = CachingWindow(preheatMargin: 50)
    let delta = window.scroll(to: 5..<15, count: 20)
    #expect(delta.start == Array(0..<20))
    // A result that shrank (assets deleted) clamps the visible range too.
    let shrunk = window.scroll(to: 5..<15, count: 8)
    #expect(shrunk.start.isEmpty)
    #expect(shrunk.stop == Array(8..<20))
    #expect(window.visible == 5..<8)
    #expect(window.scroll(to: 0..<0, count: 0).stop == Array(0..<8))
  }

  @Test func aResetStartsAgainFromNothing() {
    var window = CachingWindow(preheatMargin: 1)
    _ = window.scroll(to: 3..<5, count: 10)
    window.reset()
    let delta = window.scroll(to: 3..<5, count: 10)
    #expect(delta.start == Array(2..<6))
    #expect(delta.stop.isEmpty)
  }
}
