// Cleans one clip through the installed library: load_clip, clean_clip, metrics, save_clip.
// Usage: footfix_consumer INPUT.bvh OUTPUT.bvh. Exits 0 when the cleaned clip has the input's
// frames and less residual contact slide than the source.
#include <cstdio>
#include <exception>

#include "footfix/core/error.h"
#include "footfix/eval/metrics.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: footfix_consumer INPUT OUTPUT\n");
    return 2;
  }
  try {
    footfix::LoadedClip loaded = footfix::load_clip(argv[1]);
    footfix::CleanResult result = footfix::clean_clip(loaded.clip, loaded.rig, footfix::CleanSettings{});
    footfix::ContactMask mask{result.contacts.feet[0].contact, result.contacts.feet[1].contact};
    footfix::ClipMetrics m = footfix::compare_clips(loaded.clip, result.cleaned, loaded.rig, mask);
    footfix::save_clip(result.cleaned, argv[2]);
    std::printf("frames %d -> %d, contact slide p95 %.2f -> %.2f cm/s\n", loaded.clip.frame_count,
                result.cleaned.frame_count, m.source_slide.p95_cm_per_s, m.cleaned_slide.p95_cm_per_s);
    bool ok = result.cleaned.frame_count == loaded.clip.frame_count &&
              m.cleaned_slide.p95_cm_per_s < m.source_slide.p95_cm_per_s;
    return ok ? 0 : 1;
  } catch (const footfix::Error& e) {
    std::fprintf(stderr, "footfix_consumer: %s\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "footfix_consumer: %s\n", e.what());
    return 70;
  }
}
