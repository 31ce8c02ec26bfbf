// "Did you mean ...?": the known name nearest a mistyped one, for command names, options and
// settings keys alike.
#pragma once

#include <string>
#include <vector>

namespace footfix {

/// The candidate nearest to `word` by edit distance (a swap of two neighbours counts as one
/// edit), when it is within max(2, |word| / 3) edits; empty otherwise.
std::string nearest_name(const std::string& word, const std::vector<std::string>& candidates);

/// " (did you mean 'NAME'?)" for the nearest candidate, or "" when none is near.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace footfix
