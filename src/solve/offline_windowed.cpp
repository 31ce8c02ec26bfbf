// The windowed fast offline solve (see offline_window.h).
#include <algorithm>

#include "footfix/core/error.h"
#include "offline_window.h"

namespace footfix::detail {
namespace {

/// A window grows to at most this many times its length to take in a long contact.
constexpr int k_max_window_growth = 4;

template <class T>
std::vector<T> cut(const std::vector<T>& v, int first, int count) {
  if (v.empty()) return {};
  return std::vector<T>(v.begin() + first, v.begin() + first + count);
}

/// Frames [first, first + count) of `r` (pelvis and toes) into `out` at frame `to`.
void copy_frames(const OfflineSolveResult& r, int first, int count, OfflineSolveResult& out, int to) {
  std::copy_n(r.pelvis_ws.begin() + first, count, out.pelvis_ws.begin() + to);
  for (int leg = 0; leg < 2; ++leg) std::copy_n(r.toe_ws[leg].begin() + first, count, out.toe_ws[leg].begin() + to);
}

}  // namespace

OfflineSolveInput slice_input(const OfflineSolveInput& in, int first, int count) {
  OfflineSolveInput out;
  out.frame_count = count;
  out.fps = in.fps;
  out.pelvis_ws = cut(in.pelvis_ws, first, count);
  out.toe_min_height_m = in.toe_min_height_m;
  for (int leg = 0; leg < 2; ++leg) {
    out.toe_ws[leg] = cut(in.toe_ws[leg], first, count);
    out.contact[leg] = cut(in.contact[leg], first, count);
    out.contact_height_m[leg] = cut(in.contact_height_m[leg], first, count);
    out.reach_offset_m[leg] = cut(in.reach_offset_m[leg], first, count);
    out.reach_m[leg] = cut(in.reach_m[leg], first, count);
  }
  return out;
}

OfflineSolveResult solve_offline_windowed(const OfflineSolveInput& in, const OfflineSolveSettings& settings,
                                          int window_frames, int lookahead_frames, std::vector<int>* seams) {
  if (lookahead_frames < 0 || window_frames <= lookahead_frames + k_window_pinned_frames)
    fail(ErrorKind::usage, "windowed offline solve: a window must be longer than its lookahead and pinned frames");
  const int n = in.frame_count;
  OfflineSolveResult out;
  out.pelvis_ws.resize(static_cast<size_t>(n));
  for (auto& t : out.toe_ws) t.resize(static_cast<size_t>(n));
  out.converged = true;
  OfflineSolveResult pinned;
  // Frames [start, end) are solved; [kept, keep_end) of them kept.
  for (int start = 0, kept = 0; kept < n;) {
    int end = std::min(n, start + window_frames);
    // A contact in progress where the kept frames end holds its toe still up to its last frame:
    // the window runs on to a lookahead past that frame (to at most k_max_window_growth windows).
    const int nominal_keep_end = start + window_frames - lookahead_frames;
    const int longest = std::min(n, start + k_max_window_growth * window_frames);
    for (int leg = 0; leg < 2 && end < n; ++leg) {
      const auto& c = in.contact[leg];
      int last = nominal_keep_end - 1;
      if (!c[last]) continue;
      while (last + 1 < n && c[last + 1] && last + 1 + lookahead_frames < longest) ++last;
      end = std::max(end, std::min(longest, last + 1 + lookahead_frames));
    }
    const int keep_end = end == n ? n : nominal_keep_end;
    // The first window decides its pull set as the whole clip's solve does (no frames before
    // it); the others take theirs from the first step over their frames and a lookback.
    std::vector<uint8_t> pull_set =
        start == 0 ? std::vector<uint8_t>{} : pelvis_pull_set(in, start, end - start, lookahead_frames, settings);
    const OfflineSolveResult r = solve_offline_fast_window(in, slice_input(in, start, end - start), start, pinned,
                                                           std::move(pull_set), settings);
    copy_frames(r, kept - start, keep_end - kept, out, kept);
    out.iterations = std::max(out.iterations, r.iterations);
    out.final_change_m = std::max(out.final_change_m, r.final_change_m);
    out.converged = out.converged && r.converged;
    kept = keep_end;
    if (seams && kept < n) seams->push_back(kept);
    start = keep_end - k_window_pinned_frames;
    pinned = OfflineSolveResult{};
    pinned.pelvis_ws.resize(k_window_pinned_frames);
    for (auto& t : pinned.toe_ws) t.resize(k_window_pinned_frames);
    if (kept < n) copy_frames(out, start, k_window_pinned_frames, pinned, 0);
  }
  return out;
}

}  // namespace footfix::detail
