// Turning an FBX document of one flavour (binary, ASCII) into the other, node for node.
//
// The two flavours hold the same tree but spell some of it differently: object names
// ("Model::Hips" in ASCII, "Hips\0\1Model" in binary), value types (ASCII has only integers,
// reals, strings and bare words; binary readers such as Blender's expect int32 or int64, double
// or float where the FBX SDK writes them), raw bytes (base64 text in ASCII) and the binary
// footer. Everything else is carried over as it is.
#pragma once

#include "fbx_document.h"

namespace footfix::fbx {

/// Re-types and renames `doc` for the other flavour: binary when `binary`, ASCII otherwise (no
/// change when it is that flavour already).
void convert_flavour(FbxDocument& doc, bool binary);

}  // namespace footfix::fbx
