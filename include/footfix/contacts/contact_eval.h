// Measuring contact annotation: comparing two annotations of the same clip frame by frame (e.g.
// a clip and its sliding version from eval/sliding.h), and the share of frames in contact.
#pragma once

#include "footfix/contacts/detect_contacts.h"

namespace footfix {

/// Fraction of (foot, frame) pairs whose binary contact is the same in `a` and `b` (0..1).
/// Frames beyond the shorter annotation count as disagreeing.
double contact_agreement(const ContactResult& a, const ContactResult& b);

/// Consecutive contact starts (in time; contacts already running at frame 0 left out) that
/// belong to the same foot: 0 for a clean left/right alternation.
int alternation_breaks(const ContactResult& r);

/// Fraction of frames a foot is in contact (0 for an empty annotation).
double contact_fraction(const FootContacts& foot);

}  // namespace footfix
