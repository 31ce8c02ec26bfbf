// Internal to fbx/: writing a kept FBX document (FbxSource) back without a second copy of its
// animation curves' arrays. A copy of the document leaves each AnimationCurve's KeyTime and
// KeyValueFloat arrays out (empty, of the same type and encoding); the binary writer takes the
// elements of the curves no one rewrote from where they are kept. On a long clip these arrays
// are nearly all of the document.
#pragma once

#include "fbx_document.h"
#include "fbx_key_times.h"

namespace footfix::fbx {

/// `doc` with the first property of every AnimationCurve's KeyTime and KeyValueFloat child (an
/// array) emptied, its type, encoding flag and source bytes kept.
FbxDocument copy_without_curve_arrays(const FbxDocument& doc);

/// Overrides for write_fbx_binary(copy, ...): for each AnimationCurve of `copy` (made by
/// copy_without_curve_arrays from `kept`, then edited by appending objects and rewriting
/// curves) whose KeyTime or KeyValueFloat array is still empty, `kept`'s curve's elements at the
/// same place, the KeyTime being the array `key_times` took out of `kept` for the curve's id
/// where there is one (as restore_key_times puts it back). `kept` and `key_times` must outlive
/// the result.
FbxArrayOverrides kept_curve_arrays(const FbxDocument& copy, const FbxDocument& kept, const SharedKeyTimes& key_times);

}  // namespace footfix::fbx
