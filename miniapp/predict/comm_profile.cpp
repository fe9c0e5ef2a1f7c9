#include "miniapp/predict/comm_profile.hpp"

#include "miniapp/predict/comm_recorder.hpp"

namespace miniapp::predict {
namespace {

// The phase an event at `position` belongs to; `ends[p]` is the position after phase p's last call.
int phase_at(std::uint64_t position, const std::array<std::uint64_t, time::phase_count>& ends,
             const std::array<bool, time::phase_count>& has_calls) {
  int last = 0;
  for (int p = 0; p < time::phase_count; ++p) {
    if (!has_calls[p]) continue;
    if (position <= ends[p]) return p;
    last = p;
  }
  return last;  // after the step's last kernel: the last phase with calls
}

}  // namespace

CommLoad load_of(const HaloUpdateRecord& u) {
  CommLoad l;
  l.updates = 1;
  l.overlapped_updates = u.overlapped.calls > 0 ? 1 : 0;
  l.overlapped_bytes = u.overlapped.bytes;
  l.overlapped_calls = static_cast<double>(u.overlapped.calls);
  l.vectors = u.vectors;
  l.messages = static_cast<double>(u.vectors) * static_cast<double>(u.sent_bytes.size());
  for (const auto& [rank, bytes] : u.sent_bytes) l.sent_bytes += bytes;
  for (const auto& [rank, bytes] : u.received_bytes) l.received_bytes += bytes;
  l.seconds = u.seconds;
  return l;
}

PhaseComm attribute_to_phases(const CommRecord& record, const time::StepReport& report, std::uint64_t step_start) {
  std::array<std::uint64_t, time::phase_count> ends{};
  std::array<bool, time::phase_count> has_calls{};
  std::uint64_t position = step_start;
  for (int p = 0; p < time::phase_count; ++p) {
    const std::uint64_t calls = report.kernels[p].total().calls;
    has_calls[p] = calls > 0;
    position += calls;
    ends[p] = position;
  }
  PhaseComm phases{};
  for (const HaloUpdateRecord& u : record.updates) phases[phase_at(u.position, ends, has_calls)] += load_of(u);
  for (const ReductionRecord& r : record.reductions) {
    CommLoad& l = phases[phase_at(r.position, ends, has_calls)];
    l.reductions += 1;
    l.reduced_values += r.values;
  }
  return phases;
}

}  // namespace miniapp::predict
