#include "miniapp/predict/comm_recorder.hpp"

#include <algorithm>
#include <chrono>

namespace miniapp::predict {
namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

}  // namespace

CommRecorder::CommRecorder(parallel::Subdomain& domain, const KernelCounters& counters)
    : domain_(domain), counters_(counters) {
  domain_.observe(this);
}

CommRecorder::~CommRecorder() { domain_.observe(nullptr); }

CommRecord CommRecorder::take() {
  CommRecord r = std::move(record_);
  record_ = {};
  return r;
}

void CommRecorder::halo_started(const parallel::HaloPlan& plan, int vectors, index_t values_per_cell) {
  current_ = {};
  current_.vectors = vectors;
  // One message per vector to each neighbour that has values to send (none is posted otherwise).
  const double bytes_per_cell = 8.0 * static_cast<double>(values_per_cell) * vectors;
  for (const parallel::HaloNeighbour& nb : plan.neighbours) {
    if (nb.send_count > 0) current_.sent_bytes[nb.rank] = bytes_per_cell * static_cast<double>(nb.send_count);
    if (nb.recv_count > 0) current_.received_bytes[nb.rank] = bytes_per_cell * static_cast<double>(nb.recv_count);
  }
  in_update_ = true;
  at_start_ = counters_;
  started_at_ = now();
}

void CommRecorder::halo_finished() {
  if (!in_update_) return;  // attached while an update was in flight: its start was not seen
  const double wall = now() - started_at_;
  const KernelCounters during = counters_.since(at_start_);
  for (int k = 0; k < kernel_kind_count; ++k) {
    const auto kind = static_cast<KernelKind>(k);
    if (kind == KernelKind::copy) continue;
    const KernelTally& t = during.tally(kind);
    current_.overlapped.calls += t.calls;
    current_.overlapped.bytes += t.bytes;
    current_.overlapped.flops += t.flops;
    current_.overlapped.seconds += t.seconds;
  }
  current_.seconds = std::max(wall - during.total().seconds, 0.0);
  current_.position = counters_.total().calls;
  record_.updates.push_back(std::move(current_));
  in_update_ = false;
}

void CommRecorder::reduced(int values) { record_.reductions.push_back({counters_.total().calls, values}); }

}  // namespace miniapp::predict
