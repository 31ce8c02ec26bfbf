// Internal to fbx/: a take's animation channels as assimp 5.2 converts them on its simple path
// (one channel per Model animated by Lcl Translation / Rotation / Scaling only: keys at its
// curves' times, Euler angles to a quaternion in the Model's rotation order, pre- and
// post-rotation folded in, translation-rotation-scaling recomposed and decomposed, all in
// float), computed from the kept document's curve arrays when a key is needed instead of held
// as assimp's keys. assimp then only imports a copy of the document whose curves keep their
// first and last keys (the skeleton, the take's span and one channel per animated Model), and
// each channel made here is checked against that import at both keys.
#pragma once

#include <assimp/scene.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "fbx_document.h"
#include "fbx_imported.h"
#include "fbx_key_times.h"
#include "fbx_scene.h"

namespace footfix::fbx {

/// `doc` (binary, its key times taken out into `key_times`) with every AnimationCurve's KeyTime
/// and KeyValueFloat cut to their first and last elements; nothing when a curve is not one
/// this module reproduces (ASCII documents, a curve without its arrays, arrays of other types,
/// times out of order or fewer than values): assimp is then given the whole file, as before.
std::optional<FbxDocument> copy_with_end_keys(const FbxDocument& doc, const SharedKeyTimes& key_times);

/// One Model's channel: its keys computed from the document's arrays (which must outlive it).
class ModelChannel final : public LocalSampler {
 public:
  struct Key {
    double time = 0;  ///< ticks, as aiVectorKey::mTime
    aiVector3D position, scaling;
    aiQuaternion rotation;
  };
  struct Values {
    const float* f = nullptr;  ///< KeyValueFloat as floats, or
    const double* d = nullptr;  ///< as doubles (converted as assimp converts them)
    float at(std::size_t i) const { return f ? f[i] : static_cast<float>(d[i]); }
    explicit operator bool() const { return f || d; }
  };

  struct Curve {
    const std::vector<std::int64_t>* times = nullptr;  ///< the curve's key times (KTime)
    Values values;
  };
  std::array<Curve, 9> curves;    ///< translation, rotation, scaling curves, X Y Z each; or none
  const std::vector<std::int64_t>* times = nullptr;  ///< key times: all curves' times, merged
  std::vector<std::int64_t> merged;  ///< where the curves have different times: `times` is this
  std::array<aiVector3D, 3> defaults;  ///< Lcl Translation / Rotation / Scaling of the Model
  int rotation_order = 0;         ///< assimp's Model::RotOrder (6: spheric, unsupported: identity)
  bool has_pre = false, has_post = false;
  aiQuaternion pre, post;
  double ticks_per_second = 0, start_ticks = 0;

  std::size_t key_count() const { return times->size(); }
  Key key(std::size_t i) const;
  aiMatrix4x4 local(double tick) const override;

 private:
  double key_time(std::size_t i) const;
  float curve_value(const Curve& c, std::size_t i) const;
  const Key& cached_key(std::size_t i) const;
  mutable std::array<std::size_t, 2> cached_index_{static_cast<std::size_t>(-1), static_cast<std::size_t>(-1)};
  mutable std::array<Key, 2> cached_{};
  mutable std::size_t next_slot_ = 0;
  mutable std::size_t hint_ = 0;
};

/// The channels of `anim` (a take of assimp's import of copy_with_end_keys(doc)), by node name, made from
/// `doc`; nothing unless every channel is a Model's simple channel reproduced exactly at its
/// first and last keys, no rotation curve would be split (keys 180 degrees apart or more) and
/// the take has one layer (then the whole file goes through assimp).
std::optional<std::unordered_map<std::string, ModelChannel>> own_channels(const FbxDocument& doc,
                                                                           const SharedKeyTimes& key_times,
                                                                           const ImportedTake& anim);

}  // namespace footfix::fbx
