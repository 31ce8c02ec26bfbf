// The motion player of the HTML report: per clip, the skeleton before (source) and after
// (cleaned), side by side or overlaid, seen by a perspective camera that orbits when dragged;
// planted feet marked on the skeleton (a disc at the contact joint, a cross at the planted
// point) and on a contact timeline; play, pause, step and a scrubber in frames. Drawn on a plain
// 2D canvas by a script embedded once in the page (no network). Only players whose section is
// on screen or near it are decoded and drawn (IntersectionObserver, and the same test on load and
// after scrolling); one scrolled away is paused and its decoded frames dropped, so a page of
// hundreds of clips stays light.
// Each player element tells what it shows: data-frame (the source frame drawn) and
// data-planted ("left", "right", "left right" or "").
#pragma once

#include <ostream>

#include "footfix/batch/clip_report.h"

namespace footfix::cli {

/// Writes the player of a clip from its report entry's plot (its motion, frames and the feet's
/// contacts and planted points); writes nothing and returns false when the plot has no usable
/// motion. Every value is range-checked and re-serialised; the data travel in an escaped
/// attribute, never as script text.
bool write_player(std::ostream& out, const ClipPlot& plot);

/// The page's player script and style, written once per page (after the last player).
const char* player_script();
const char* player_style();

}  // namespace footfix::cli
