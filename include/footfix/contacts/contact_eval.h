// Measuring contact annotation: making a clip slide on purpose (ALGORITHMS.md section 5) and
// comparing two annotations of the same clip frame by frame.
#pragma once

#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"

namespace footfix {

/// Scales the horizontal (X, Z; internal frame, Y up) local translation of `joint` about its
/// value at frame 0 by `factor`: t'.x = t0.x + factor (t.x - t0.x), same for z. With the clip's
/// translation joint, the whole body runs ahead of (factor > 1) or behind its legs: the feet
/// slide. Throws Error(process) for a joint out of range.
void scale_horizontal_motion(Clip& clip, int joint, double factor);

/// Fraction of (foot, frame) pairs whose binary contact is the same in `a` and `b` (0..1).
/// Frames beyond the shorter annotation count as disagreeing.
double contact_agreement(const ContactResult& a, const ContactResult& b);

/// Fraction of frames a foot is in contact (0 for an empty annotation).
double contact_fraction(const FootContacts& foot);

}  // namespace footfix
