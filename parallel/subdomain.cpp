#include "parallel/subdomain.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "operators/kernels/dot.hpp"

namespace miniapp::parallel {

Subdomain::Subdomain(index_t cells) : inner_(cells), owned_(cells), local_(cells) {}

Subdomain::Subdomain(const Communicator& comm, const Executor& exec, const LocalNumbering& numbering,
                     HaloTransport transport)
    : inner_(numbering.inner_count), owned_(numbering.owned_count()), local_(numbering.local_count()),
      rank_(comm.rank()), ranks_(comm.size()) {
  if (ranks_ == 1) return;
  comm_.emplace(comm);
  halo_ = std::make_unique<HaloExchange>(comm, exec, numbering, transport);
}

Subdomain::~Subdomain() = default;
Subdomain::Subdomain(Subdomain&&) noexcept = default;
Subdomain& Subdomain::operator=(Subdomain&&) noexcept = default;

std::size_t Subdomain::halo_device_bytes() const {
  return halo_ ? halo_->device_bytes(max_vectors_per_update) : 0;
}

// In groups of at most max_vectors_per_update (a restart's eight fields), so that the exchange's
// buffers never outgrow what the memory estimate counts.
void Subdomain::update_halo(std::span<Vector* const> vectors) {
  if (!halo_) return;
  for (std::size_t first = 0; first < vectors.size(); first += max_vectors_per_update) {
    const auto group = vectors.subspan(first, std::min<std::size_t>(max_vectors_per_update, vectors.size() - first));
    if (observer_) observer_->halo_started(halo_->plan(), static_cast<int>(group.size()), 1);
    halo_->start_exchange(group);
    halo_->finish_exchange(group);
    if (observer_) observer_->halo_finished();
  }
}

void Subdomain::update_halo(Vector& v) {
  Vector* one[] = {&v};
  update_halo(one);
}

void Subdomain::start_halo_update(Vector& v) {
  if (!halo_) return;
  if (observer_) observer_->halo_started(halo_->plan(), 1, 1);
  halo_->start_exchange(v);
}

void Subdomain::finish_halo_update(Vector& v) {
  if (!halo_) return;
  halo_->finish_exchange(v);
  if (observer_) observer_->halo_finished();
}

double Subdomain::dot(const Executor& exec, const Vector& x, const Vector& y) const {
  return sum(miniapp::dot(exec, owned(x), owned(y)));
}

void Subdomain::multi_dot(const Executor& exec, std::span<const Vector* const> x, std::span<const Vector* const> y,
                          std::span<double> out) const {
  const std::size_t n = x.size();
  if (n > static_cast<std::size_t>(max_fused_dots) || y.size() != n)
    throw Error("Subdomain::multi_dot: " + std::to_string(n) + " x and " + std::to_string(y.size()) +
                " y; expected the same number, at most " + std::to_string(max_fused_dots));
  // Windows on the stack, built in place (a default Array would make an executor): this runs every
  // PCG iteration.
  std::array<std::optional<Vector>, 2 * max_fused_dots> windows;
  std::array<const Vector*, max_fused_dots> xs{}, ys{};
  for (std::size_t i = 0; i < n; ++i) {
    xs[i] = &windows[2 * i].emplace(owned(*x[i]));
    ys[i] = &windows[2 * i + 1].emplace(owned(*y[i]));
  }
  miniapp::multi_dot(exec, std::span(xs).first(n), std::span(ys).first(n), out);
  sum(out.first(n));
}

void Subdomain::sum(std::span<double> values) const {
  if (!comm_) return;
  if (observer_) observer_->reduced(static_cast<int>(values.size()));
  comm_->allreduce(values, ReduceOp::sum);
}

double Subdomain::sum(double value) const { return reduce(value, ReduceOp::sum); }
double Subdomain::min(double value) const { return reduce(value, ReduceOp::min); }
double Subdomain::max(double value) const { return reduce(value, ReduceOp::max); }

long long Subdomain::sum(long long value) const {
  if (!comm_) return value;
  if (observer_) observer_->reduced(1);
  return comm_->allreduce(value, ReduceOp::sum);
}

double Subdomain::reduce(double value, ReduceOp op) const {
  if (!comm_) return value;
  if (observer_) observer_->reduced(1);
  return comm_->allreduce(value, op);
}

}  // namespace miniapp::parallel
