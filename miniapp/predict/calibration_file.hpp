#pragma once
#include <string>

#include "miniapp/predict/calibration.hpp"

// The calibration file: JSON, one per device and build, written by 'miniapp predict --calibrate' and
// read by every later prediction. docs/cost-model.md shows its layout.
namespace miniapp::predict {

// Version 10: the spmv_interleaved_3 curves (SpMVs priced by form). Version 9: batched_widths and
// batched_amg_blocks, the FFT path's batched iteration's cost per byte
// by the width of its range of systems and of its AMG blocks' V-cycles (each at its own cost, not the
// whole batch's). Version 8:
// cache_retention, the share of an operand the last-level cache keeps against the bytes of other
// traffic since its use (the sub-steps priced on a mix of the warm and streaming curves by it),
// instead of retained_cache_bytes, one size up to which the warm curves applied; and the
// communication section's iteration units timed on the ranks. Version 7: the pcg_amg unit timed on a
// hierarchy with float matrices (the time loop's default since 2026-12-02; version 6 timed double
// ones, whose third more bytes per entry at much the same time would under-price a case's float
// iteration). Version 6: each point of the iteration_curves holds the iteration's kernel calls (it is
// priced by its calls and bytes). Version 5 had iteration points without calls; version 4 no
// iteration_curves (a Poisson iteration timed whole, per IterationUnit); version 3 no graph_curves
// (calls replayed from a kernel graph; null on the CPU); version 2 no communication section; version
// 1 timed every call alone and synchronised. All are rejected with a request to re-calibrate.
inline constexpr const char* calibration_format = "miniapp-calibration 10";

// The default file for a device: "miniapp-calibration-<description>.json" in the working directory,
// the description reduced to lower-case letters, digits and dashes (e.g. ...-cpu-2-threads.json).
std::string default_calibration_path(const DeviceDescription& device);

// Writes `c` to `path` (replaced atomically: a crash leaves the old file or the new one).
void write_calibration(const std::string& path, const Calibration& c);

// Reads and checks a calibration file: the format tag, every field, every curve (and graph curve,
// when not null) of every variant and cache level (at least two sizes, positive finite bytes and seconds). Throws miniapp::Error naming
// the file and the line (invalid JSON) or the element (e.g. "curves[3]") on a corrupt or incomplete file.
Calibration read_calibration(const std::string& path);

// Throws miniapp::Error unless `c` was measured on `device` with `build`: the message says what
// differs and how to re-calibrate (so a prediction never silently uses another device's costs).
void check_calibration(const Calibration& c, const DeviceDescription& device, const BuildDescription& build,
                       const std::string& path);

// Throws miniapp::Error when `c` cannot price the communication of a run on `ranks` ranks whose halos
// travel by `transport`: its communication was measured with another transport, or (ranks > 1) it
// has none or fewer ranks than that. The message names the file and the mpirun command that measures it.
void check_communication(const Calibration& c, const std::string& transport, int ranks, const std::string& path);

}  // namespace miniapp::predict
