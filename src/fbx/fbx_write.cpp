// Clip -> FBX by editing the document the clip was read from (see fbx.h).
#include <cmath>

#include "fbx_curve_arrays.h"
#include "fbx_curves.h"
#include "fbx_flavour.h"
#include "footfix/core/end_site_joints.h"
#include "footfix/core/error.h"
#include "footfix/core/euler.h"
#include "fbx_source.h"

namespace footfix {
namespace {

/// FBX RotationOrder enum -> footfix EulerOrder (R = R_a0 R_a1 R_a2): FBX "XYZ" applies X first.
EulerOrder euler_order(int fbx_order) {
  static const EulerOrder k_orders[6] = {{2, 1, 0}, {1, 2, 0}, {0, 2, 1}, {2, 0, 1}, {1, 0, 2}, {0, 1, 2}};
  return fbx_order >= 0 && fbx_order < 6 ? k_orders[fbx_order] : k_orders[0];
}

Quat xyz_quat(Vec3 deg) { return quat_from_euler_deg(euler_order(0), {deg.z, deg.y, deg.x}); }

Vec3 mul(Vec3 a, Vec3 b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }

/// Lcl Translation / Lcl Rotation curves of one joint over every frame.
struct JointCurves {
  std::array<std::vector<float>, 3> translation, rotation;
};

/// Inverts L = T Roff Rp Rpre R Rpost^-1 Rp^-1 Soff Sp S Sp^-1 for T and R, given L's rotation
/// (the joint's local rotation) and translation.
JointCurves joint_curves(const Clip& clip, int j, const FbxJointSource& js) {
  JointCurves out;
  EulerOrder order = euler_order(js.rotation_order);
  Quat pre = xyz_quat(js.pre_rotation), post = xyz_quat(js.post_rotation);
  Vec3 inner = -js.rotation_pivot + js.scaling_offset + js.scaling_pivot - mul(js.scaling, js.scaling_pivot);
  std::array<double, 3> prev{};
  for (int k = 0; k < 3; ++k) prev[k] = at(js.lcl_rotation, order[k]);
  Quat parent_inv = inverse(js.parent_rotation);
  const SourceFrame to_file = clip.values_to_file();
  for (int f = 0; f < clip.frame_count; ++f) {
    Quat q = rotation_to_source(to_file, clip.rotation(f, j));
    Vec3 t = point_to_source(to_file, clip.translation(f, j));
    Quat lq = normalize(parent_inv * q);
    Vec3 lt = rotate(parent_inv, t - js.parent_translation) / js.parent_scale;
    Quat r = normalize(inverse(pre) * lq * post);
    prev = euler_from_quat_deg(order, r, prev);
    Vec3 euler;
    for (int k = 0; k < 3; ++k) at(euler, order[k]) = prev[k];
    Vec3 tr = lt - js.rotation_offset - js.rotation_pivot - rotate(lq, inner);
    for (int a = 0; a < 3; ++a) {
      out.rotation[a].push_back(static_cast<float>(at(euler, a)));
      out.translation[a].push_back(static_cast<float>(at(tr, a)));
    }
  }
  return out;
}

bool pivots_move_translation(const FbxJointSource& js) {
  Vec3 inner = -js.rotation_pivot + js.scaling_offset + js.scaling_pivot - mul(js.scaling, js.scaling_pivot);
  return length_sq(inner) > 0;
}

}  // namespace

void write_fbx(const Clip& clip, std::ostream& out, FbxFormat format) {
  if (clip.skeleton.end_site_joints > 0) return write_fbx(fold_end_site_joints(clip), out, format);
  const auto* src = dynamic_cast<const FbxSource*>(clip.source.get());
  const std::string& name = clip.source_name;
  if (!src) fail(ErrorKind::write, name + ": FBX output needs a clip read from an FBX file");
  int joints = clip.joint_count();
  if (!src->has_frames(clip.frame_count, joints))
    fail(ErrorKind::write, name + ": the clip's joints or frames no longer match the FBX it was read from");

  // A binary document is written from a copy without its curves' arrays, which are written from
  // where they are kept (on a long clip they are nearly all of the document). A document changing
  // flavour is converted whole before it is edited, so that the new curves take its flavour.
  const bool binary = format == FbxFormat::keep ? src->document.binary : format == FbxFormat::binary;
  const bool same_flavour = binary == src->document.binary;
  FbxDocument doc = binary && same_flavour ? fbx::copy_without_curve_arrays(src->document) : src->whole_document();
  fbx::convert_flavour(doc, binary);
  fbx::CurveEditor editor(doc, src->take);
  std::vector<std::int64_t> times(static_cast<std::size_t>(clip.frame_count));
  auto start = static_cast<std::int64_t>(std::llround(src->start_time_s * static_cast<double>(k_fbx_ktime_per_second)));
  for (int f = 0; f < clip.frame_count; ++f)
    times[f] = start + static_cast<std::int64_t>(std::llround(f * static_cast<double>(k_fbx_ktime_per_second) / clip.fps));

  // Which joints the caller changed: the clip against the frames as read, a frame at a time.
  const SourceFrame to_file = clip.values_to_file();
  const auto joint_count = static_cast<std::size_t>(joints);
  std::vector<char> rot_changed(joint_count, 0), trans_changed(joint_count, 0);
  std::vector<Quat> read_rotations(joint_count);
  std::vector<Vec3> read_translations(joint_count);
  for (int f = 0; f < clip.frame_count; ++f) {
    src->frame(f, read_rotations.data(), read_translations.data());
    for (std::size_t j = 0; j < joint_count; ++j) {
      const std::size_t i = clip.index(f, static_cast<int>(j));
      rot_changed[j] = rot_changed[j] || clip.rotations[i] != rotation_to_internal(to_file, read_rotations[j]);
      trans_changed[j] = trans_changed[j] || clip.translations[i] != point_to_internal(to_file, read_translations[j]);
    }
  }
  for (int j = 0; j < joints; ++j) {
    if (!rot_changed[static_cast<std::size_t>(j)] && !trans_changed[static_cast<std::size_t>(j)]) continue;
    const FbxJointSource& js = src->joints[static_cast<std::size_t>(j)];
    if (js.model_id == 0)
      fail(ErrorKind::write, name + ": joint '" + clip.skeleton.names[j] + "' changed but has no FBX Model to animate");
    JointCurves curves = joint_curves(clip, j, js);
    if (rot_changed[static_cast<std::size_t>(j)]) editor.set_curves(js.model_id, "Lcl Rotation", times, curves.rotation);
    if (trans_changed[static_cast<std::size_t>(j)] || (rot_changed[static_cast<std::size_t>(j)] && pivots_move_translation(js)))
      editor.set_curves(js.model_id, "Lcl Translation", times, curves.translation);
  }
  if (!binary || !same_flavour) {
    write_fbx_document(doc, out);
    return;
  }
  const FbxArrayOverrides kept = fbx::kept_curve_arrays(doc, src->document, src->key_times);
  write_fbx_binary(doc, out, &kept);
}

}  // namespace footfix
