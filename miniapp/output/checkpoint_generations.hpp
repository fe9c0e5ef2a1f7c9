#pragma once
#include <filesystem>
#include <vector>

// The generations of checkpoints in an output folder. A generation is the set of per-rank files of one
// step (checkpoint_path); it counts as complete once its marker <dir>/checkpoint_<step>.complete
// exists, which is written after every rank's file is in place. A run killed at any moment therefore
// leaves the previous complete generation untouched, whatever the ranks had written.
namespace miniapp::output {

// The marker file of the generation of `step`.
std::filesystem::path generation_marker(const std::filesystem::path& dir, long step);

// Writes the marker of the generation of `step` (atomically; one writer, after all ranks committed).
void mark_generation_complete(const std::filesystem::path& dir, long step, int rank_count);

// The steps of the complete generations in `dir`, newest first (none when `dir` does not exist).
std::vector<long> complete_generations(const std::filesystem::path& dir);

// Removes the marker of the generation of `step`, so that it no longer counts as complete.
void remove_generation_marker(const std::filesystem::path& dir, long step);

// Removes rank `rank`'s checkpoint files (and leftover temporaries) of every generation not in `keep`.
void remove_rank_files_except(const std::filesystem::path& dir, int rank, const std::vector<long>& keep);

}  // namespace miniapp::output
