#include "miniapp/predict/rank_profile.hpp"

#include <algorithm>

namespace miniapp::predict {
namespace {

template <class F>
void visit_comm(CommLoad& l, F& f) {
  auto v = l.values();
  for (double& x : v) f(x);
  l = CommLoad::from_values(v);
}

// Calls f(double&) on every number of a profile, always in the same order (the layout of the
// gathered array); `graphs` stands for counts.iteration_graphs, `m` for the measurement, `unit` for
// counts.iteration_unit (its index, −1 for none), `phase_graphs` for counts.fixed_graphs.
template <class F>
void visit(RankProfile& p, StepMeasurement& m, double& graphs, double& unit,
           std::array<double, time::phase_count>& phase_graphs, F&& f) {
  StepCounts& c = p.counts;
  for (KindLoad& k : c.per_iteration) f(k.calls), f(k.bytes), f(k.flops);
  for (PhaseLoad& phase : c.fixed)
    for (KindLoad& k : phase) f(k.calls), f(k.bytes), f(k.flops);
  for (KindLoad& k : c.per_iteration_spmv) f(k.calls), f(k.bytes), f(k.flops);
  for (SpmvForms& phase : c.fixed_spmv)
    for (KindLoad& k : phase) f(k.calls), f(k.bytes), f(k.flops);
  f(c.iterations), f(c.launched_per_iteration), f(graphs), f(unit), f(c.iteration_host_reads);
  for (double& reads : c.fixed_host_reads) f(reads);
  for (double& g : phase_graphs) f(g);
  visit_comm(c.comm_per_iteration, f);
  for (CommLoad& l : c.comm_fixed) visit_comm(l, f);
  f(p.shape.local), f(p.shape.owned), f(p.shape.inner), f(p.shape.halo), f(p.shape.working_set);
  f(m.step_seconds), f(m.iterations);
  for (auto& phase : m.kernel_seconds)
    for (double& s : phase) f(s);
  for (double& s : m.comm_seconds) f(s);
  for (double& s : m.timed_seconds) f(s);
}

std::vector<double> to_values(RankProfile p) {
  StepMeasurement m = p.measured.value_or(StepMeasurement{});
  double graphs = p.counts.iteration_graphs ? 1 : 0;
  double unit = p.counts.iteration_unit ? static_cast<double>(*p.counts.iteration_unit) : -1;
  std::array<double, time::phase_count> phase_graphs{};
  for (int q = 0; q < time::phase_count; ++q) phase_graphs[q] = p.counts.fixed_graphs[q] ? 1 : 0;
  std::vector<double> out;
  visit(p, m, graphs, unit, phase_graphs, [&](double& x) { out.push_back(x); });
  return out;
}

RankProfile from_values(const double* values, int steps, bool measured) {
  RankProfile p;
  StepMeasurement m;
  double graphs = 0, unit = -1;
  std::array<double, time::phase_count> phase_graphs{};
  visit(p, m, graphs, unit, phase_graphs, [&](double& x) { x = *values++; });
  for (int q = 0; q < time::phase_count; ++q) p.counts.fixed_graphs[q] = phase_graphs[q] != 0;
  p.counts.iteration_graphs = graphs != 0;
  if (unit >= 0) p.counts.iteration_unit = static_cast<IterationUnit>(static_cast<int>(unit));
  m.steps = steps;
  if (measured) p.measured = m;
  return p;
}

}  // namespace

std::vector<RankProfile> gather_profiles(const parallel::Communicator* comm, const RankProfile& mine) {
  if (!comm || comm->size() == 1) return {mine};
  const std::vector<double> values = to_values(mine);
  const std::size_t n = values.size();
  // Each rank fills its own slot; the sum is everyone's values everywhere.
  std::vector<double> all(n * static_cast<std::size_t>(comm->size()), 0.0);
  std::copy(values.begin(), values.end(), all.begin() + static_cast<std::ptrdiff_t>(n * comm->rank()));
  comm->allreduce(all, parallel::ReduceOp::sum);
  std::vector<RankProfile> out;
  const int steps = mine.measured ? mine.measured->steps : 0;
  for (int r = 0; r < comm->size(); ++r) out.push_back(from_values(all.data() + n * r, steps, mine.measured.has_value()));
  return out;
}

StepPrediction slowest_rank_step(const std::vector<RankProfile>& ranks, const Calibration& c, double iterations) {
  const int devices = static_cast<int>(ranks.size());
  std::vector<StepPrediction> each;
  for (const RankProfile& r : ranks)
    each.push_back(predict_rank_step(r.counts, c, iterations, r.shape.working_set, devices));
  const auto slowest = std::max_element(each.begin(), each.end(), [](const auto& a, const auto& b) {
    return a.seconds < b.seconds;
  });
  StepPrediction s = *slowest;  // its explicit and iteration split, cache levels, memory
  s.seconds = s.communication_seconds = 0;
  for (int p = 0; p < time::phase_count; ++p) {
    for (const StepPrediction& e : each)
      if (e.phases[p].seconds > s.phases[p].seconds) s.phases[p] = e.phases[p];
    s.seconds += s.phases[p].seconds;
    s.communication_seconds += s.phases[p].comm.seconds();
  }
  for (const StepPrediction& e : each) s.working_set_bytes = std::max(s.working_set_bytes, e.working_set_bytes);
  return s;
}

StepMeasurement slowest_rank_measurement(const std::vector<RankProfile>& ranks) {
  StepMeasurement m = *ranks.front().measured;
  for (const RankProfile& r : ranks) {
    const StepMeasurement& o = *r.measured;
    m.step_seconds = std::max(m.step_seconds, o.step_seconds);
    for (int p = 0; p < time::phase_count; ++p)
      if (o.phase_seconds(static_cast<time::Phase>(p)) > m.phase_seconds(static_cast<time::Phase>(p))) {
        m.kernel_seconds[p] = o.kernel_seconds[p];
        m.comm_seconds[p] = o.comm_seconds[p];
        m.timed_seconds[p] = o.timed_seconds[p];
      }
  }
  return m;
}

}  // namespace miniapp::predict
