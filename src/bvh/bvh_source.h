// Internal to bvh/: what a BVH file needs to be written back exactly, attached to the clips
// parse_bvh returns (Clip::source). Not installed; tests reach it through the build's src/
// include directory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/bvh/bvh.h"

namespace footfix {

enum class BvhChannel : std::uint8_t { x_position, y_position, z_position, x_rotation, y_rotation, z_rotation };

struct BvhJointLayout {
  std::vector<BvhChannel> channels;  ///< in file order (0, 3 or 6 entries)
  int first_value = 0;               ///< index of this joint's first value in a motion row
};

/// What a BVH file needs to be written back exactly.
struct BvhSource : SourceData {
  std::vector<BvhJointLayout> joints;             ///< per skeleton joint
  std::vector<Vec3> raw_offsets;                  ///< OFFSET as in the file (source units)
  std::vector<std::optional<Vec3>> raw_end_sites; ///< End Site OFFSET as in the file
  int values_per_frame = 0;
  std::vector<double> values;                     ///< frames * values_per_frame, as in the file
  /// Per value of a row: the most fraction digits of that value in any frame, when every one was
  /// a plain decimal of at most 15 digits, else bvh_detail::k_not_plain_decimal (see
  /// decimal_from_chars). Lets the writer print unchanged values with that many decimals.
  std::vector<std::uint8_t> decimals;
  /// The file's text up to the motion rows ("HIERARCHY" through the "Frame Time:" line and its
  /// line end), and the joint names and parents it declares: the writer copies it when the clip
  /// still has that skeleton and frame count. Empty when the hierarchy was read with warnings.
  std::string head_text;
  std::vector<std::string> names;
  std::vector<int> parents;
  int declared_frames = 0;
  /// The file's text from the first motion row on: row f is
  /// motion_text[row_starts[f], row_ends[f]), its blanks and line end ("\n", "\r\n"; none after
  /// a last row that ends the file) included (blank lines between rows are in no row). Lets the
  /// writer copy the text of the values it leaves unchanged. Empty when some values are not
  /// their text (repaired).
  std::string motion_text;
  std::vector<std::size_t> row_starts;
  std::vector<std::size_t> row_ends;
  /// Per value (frames * values_per_frame, as `values`): where its text starts in its row of
  /// motion_text, in bytes from the row's start. Empty with motion_text, and when a row is longer
  /// than a 16-bit offset can say.
  std::vector<std::uint16_t> value_starts;
  double frame_time_s = 0;                        ///< "Frame Time:" as in the file
  /// Whether the position channels hold world positions, read as such (read_world_positions):
  /// a joint's translation is then its position less its parent's.
  bool world_positions = false;
  /// Per joint, rotation_fingerprints of the clip as decoded (source axes): lets the writer find
  /// the joints still as read without decoding them again. Empty when unknown.
  std::vector<std::uint64_t> rotation_fingerprints;
};

/// Local rotation (source frame) and translation (source units) of `joint` at `frame`, decoded
/// from the raw values exactly as parse_bvh does.
Transform decode_bvh_joint(const BvhSource& source, const Vec3& raw_offset, int frame, int joint);
/// The translation part of decode_bvh_joint alone (no trigonometry).
Vec3 decode_bvh_translation(const BvhSource& source, const Vec3& raw_offset, int frame, int joint);

/// has_source_frames / decode_source_frame (footfix/io/clip_io.h) for a clip with a BvhSource.
bool has_bvh_source_frames(const Clip& clip);
void decode_bvh_source_frame(const Clip& clip, int frame, Clip& into);

/// Per joint, a 64-bit hash of the bits of its rotations in every frame, in frame order. Equal
/// fingerprints mean bit-identical rotations but for a hash collision (about 2^-64 for unrelated
/// changes; a change in one frame alone always changes the fingerprint: each step is a bijection).
std::vector<std::uint64_t> rotation_fingerprints(const Clip& clip);

}  // namespace footfix
