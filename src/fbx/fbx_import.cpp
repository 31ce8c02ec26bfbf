#include "fbx_import.h"

#include "fbx_assimp_read.h"
#include "fbx_budget.h"
#include "fbx_import_child.h"
#include "fbx_import_wire.h"
#include "footfix/core/error.h"
#include "footfix/core/text.h"

namespace footfix::fbx {
namespace {

ImportedScene import_here(const std::string& bytes, const std::string& name, const ReadLimits& limits,
                          std::string* release) {
  std::string answer;
  {
    Assimp::Importer importer;
    const aiScene* scene = read_scene(importer, bytes, release);
    if (!scene || !scene->mRootNode)
      fail(ErrorKind::read, name + ": assimp could not read the FBX file: " + printable(importer.GetErrorString()));
    // Before footfix builds its scene graph and skeleton over the nodes.
    if (scene_nodes(*scene, max_scene_nodes(limits)) > max_scene_nodes(limits)) fail_too_many_nodes(name, limits);
    StringSink sink(answer);
    encode_scene(*scene, sink);
  }
  return std::move(decode_answer(answer, name, limits).scene);
}

}  // namespace

ImportedScene import_fbx(const std::string& bytes, const std::string& name, const ReadLimits& limits,
                         std::string* release) {
  if (limits.isolate_fbx_import) return import_in_child(bytes, release, name, limits);
  return import_here(bytes, name, limits, release);
}

}  // namespace footfix::fbx
