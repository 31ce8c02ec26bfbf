// The shared locomotion clips (../shared/data/clips) that quality protocols run on: walks, runs,
// hops and jumps with root motion. Header-only, shared by tests and bench/.
#pragma once

namespace footfix::test {

inline constexpr const char* k_locomotion_clips[] = {
    "cmu_07_01_walk.bvh", "cmu_01_01_hops_turnaround.bvh", "cmu3dsmax_131_01_start_walk_stop.bvh",
    "cmu3dsmax_131_03_start_hop_stop_meters.bvh", "xia_neutral_01_000_walk.bvh", "sfu_0005_2FeetJump001_inches.bvh",
    "bandai1_walk_normal_001.bvh", "bandai1_run_active_001.bvh", "bandai1_walk-back_active_001.bvh",
    "bandai2_walk-turn-right_normal_001.bvh", "mixamo_walking_rootmotion_bin7700.fbx",
    "mixamo_walking_rootmotion_ascii7700.fbx",
};

}  // namespace footfix::test
