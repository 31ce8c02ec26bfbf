// The causal contact detector's sliding windows over the PAST few seconds of a stream sampled
// at any tick rate (not an API of their own: namespace lock_detail). Each sample carries its time (s, since the stream
// started); a window holds the samples of the last `window_s` seconds, so a window means the
// same span of motion at 30 Hz and at 480 Hz. Every push is O(1) (amortized) and allocates
// nothing: storage is reserved once for a capacity; at a tick rate so high that a window would
// hold more samples than that, the oldest are dropped early (the window gets shorter).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace footfix::lock_detail {

/// A fixed-capacity double-ended ring.
template <class T>
class Ring {
 public:
  void allocate(size_t capacity) { items_.assign(std::max<size_t>(capacity, 1), T{}); clear(); }
  void clear() { first_ = size_ = 0; }
  bool empty() const { return size_ == 0; }
  bool full() const { return size_ == items_.size(); }
  size_t size() const { return size_; }
  const T& front() const { return items_[first_]; }
  const T& back() const { return (*this)[size_ - 1]; }
  /// The i-th item from the front.
  const T& operator[](size_t i) const { return items_[(first_ + i) % items_.size()]; }
  /// Appends; when full, the front is dropped first.
  void push_back(const T& item) {
    if (full()) pop_front();
    items_[(first_ + size_) % items_.size()] = item;
    ++size_;
  }
  void pop_front() { first_ = (first_ + 1) % items_.size(); --size_; }
  void pop_back() { --size_; }

 private:
  std::vector<T> items_;
  size_t first_ = 0, size_ = 0;
};

/// Capacity for a window of `window_s` seconds at up to twice `fps` (with a little margin).
inline size_t window_capacity(double window_s, double fps) {
  return static_cast<size_t>(window_s * fps * 2.0) + 4;
}

/// The fraction of a window_s seconds long window during which a 0/1 signal was 1. A sample of
/// value v at time t after a tick of dt stands for v over (t - dt, t]; time before the stream
/// counts as 0.
class PastFraction {
 public:
  void allocate(double window_s, double fps) { window_s_ = window_s; ring_.allocate(window_capacity(window_s, fps)); }
  void clear() { ring_.clear(); on_s_ = 0; }
  /// Adds a sample and returns the fraction in [0, 1] over the window that ends `ahead_s`
  /// (>= 0, s) after it, the sample's value taken to hold over those last ahead_s.
  double push(double time_s, double dt, bool on, double ahead_s = 0) {
    ring_.push_back({time_s, dt, on});
    on_s_ += on ? dt : 0.0;
    const double start = time_s - window_s_;
    while (!ring_.empty() && ring_.front().time_s <= start) {
      on_s_ -= ring_.front().on ? ring_.front().dt : 0.0;
      ring_.pop_front();
    }
    // The window is (start + ahead_s, time_s + ahead_s]: the oldest samples count only with their
    // part after its start.
    const double from = start + ahead_s;
    double inside = on_s_ + (on ? std::min(ahead_s, window_s_) : 0.0);
    for (size_t i = 0; i < ring_.size() && ring_[i].time_s - ring_[i].dt < from; ++i)
      if (ring_[i].on) inside -= std::min(ring_[i].dt, from - (ring_[i].time_s - ring_[i].dt));
    return std::clamp(inside / window_s_, 0.0, 1.0);
  }

 private:
  struct Sample {
    double time_s = 0, dt = 0;
    bool on = false;
  };
  double window_s_ = 1, on_s_ = 0;
  Ring<Sample> ring_;
};

/// The lowest value over the last window_s seconds (including now); window_s = 0: since the
/// stream started. A monotonic queue: amortized O(1) per sample.
class PastMinimum {
 public:
  void allocate(double window_s, double fps) {
    window_s_ = window_s;
    ring_.allocate(window_s > 0 ? window_capacity(window_s, fps) : 1);
  }
  void clear() { ring_.clear(); }
  double push(double time_s, double value) {
    while (!ring_.empty() && ring_.back().value >= value) ring_.pop_back();
    ring_.push_back({time_s, value});
    if (window_s_ > 0)
      while (ring_.front().time_s <= time_s - window_s_) ring_.pop_front();
    return ring_.front().value;
  }

 private:
  struct Sample {
    double time_s = 0, value = 0;
  };
  double window_s_ = 0;
  Ring<Sample> ring_;
};

/// The average velocity of a point over the last window_s seconds: its displacement since the
/// oldest sample in the window (or the one just before it) over the time between them; 0 for
/// the first sample.
template <class V>
class PastVelocity {
 public:
  void allocate(double window_s, double fps) { window_s_ = window_s; ring_.allocate(window_capacity(window_s, fps) + 1); }
  void clear() { ring_.clear(); }
  V push(double time_s, const V& position) {
    ring_.push_back({time_s, position});
    // Keep one sample at or before the window's start, so the span covers the whole window.
    while (ring_.size() > 2 && ring_[1].time_s <= time_s - window_s_ + 1e-9) ring_.pop_front();
    const double span = time_s - ring_.front().time_s;
    return span > 0 ? (position - ring_.front().position) / span : V{};
  }

 private:
  struct Sample {
    double time_s = 0;
    V position{};
  };
  double window_s_ = 1;
  Ring<Sample> ring_;
};

}  // namespace footfix::lock_detail
