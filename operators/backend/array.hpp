#pragma once
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/default_init_allocator.hpp"
#include "core/types.hpp"
#include "operators/backend/executor.hpp"

namespace miniapp {

// A flat array in the memory of an executor (host for CPU, device for CUDA). Move-only: copies
// between memories are explicit. An array either owns its memory or is a window into another array
// (window(): no allocation, freed with nothing; the owner must outlive it).
template <class T>
class Array {
 public:
  Array() = default;
  Array(const Executor& exec, index_t size) : exec_(exec), size_(size) {
    if (size_ > 0) data_ = static_cast<T*>(exec_.allocate(sizeof(T) * static_cast<std::size_t>(size_)));
  }
  static Array from_host(const Executor& exec, std::span<const T> host) {
    Array a(exec, checked_index(host.size(), "array"));
    a.copy_from_host(host);
    return a;
  }
  // The same of a vector built on the host in its final layout (e.g. a coefficient map): on the CPU
  // backend the vector itself becomes the array, without the copy into fresh memory (whose first
  // touch is most of an upload's time there); on CUDA copied as above.
  static Array from_host(const Executor& exec, UninitializedVector<T>&& host) {
    if (exec.backend() != Backend::cpu || host.empty()) return from_host(exec, std::span<const T>(host));
    Array a;
    a.exec_ = exec;
    a.size_ = checked_index(host.size(), "array");
    a.adopted_ = std::make_shared<UninitializedVector<T>>(std::move(host));
    a.data_ = a.adopted_->data();
    exec.count_adopted(a.data_, sizeof(T) * a.adopted_->size());
    return a;
  }
  Array(Array&& o) noexcept { swap(o); }
  Array& operator=(Array&& o) noexcept { Array(std::move(o)).swap(*this); return *this; }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  ~Array() {
    if (!data_ || !owner_) return;
    if (adopted_) exec_.forget_adopted(data_);
    else exec_.deallocate(data_);
  }

  // Entries [offset, offset + count) of this array, without a copy: e.g. the owned part of a vector in
  // the owned-then-halo layout of a multi-rank run, or the interface rows of an SpMV result. Throws
  // when the range does not lie inside the array.
  Array window(index_t offset, index_t count) {
    check_window(offset, count);
    return Array(exec_, data_ + offset, count);
  }
  // The same of a const array: the window is read-only by contract (returned non-const only so that
  // windows can be moved into containers; never write through it).
  Array window(index_t offset, index_t count) const {
    check_window(offset, count);
    return Array(exec_, data_ + offset, count);
  }

  void copy_from_host(std::span<const T> host) {
    if (host.size() != static_cast<std::size_t>(size_)) throw Error("Array::copy_from_host: size mismatch");
    if (size_ > 0) exec_.copy_from_host(data_, host.data(), sizeof(T) * host.size());
  }
  // Into a std::vector, or another host container (e.g. UninitializedVector) given as `Host`.
  template <class Host = std::vector<T>>
  Host to_host() const {
    Host host(static_cast<std::size_t>(size_));
    if (size_ > 0) exec_.copy_to_host(host.data(), data_, sizeof(T) * host.size());
    return host;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  index_t size() const { return size_; }
  const Executor& executor() const { return exec_; }

 private:
  Array(const Executor& exec, T* data, index_t size) : exec_(exec), data_(data), size_(size), owner_(false) {}
  void check_window(index_t offset, index_t count) const {
    if (offset < 0 || count < 0 || offset > size_ - count)
      throw Error("Array::window: entries [" + std::to_string(offset) + ", " + std::to_string(offset + count) +
                  ") are outside an array of " + std::to_string(size_));
  }
  void swap(Array& o) noexcept {
    std::swap(exec_, o.exec_);
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(owner_, o.owner_);
    std::swap(adopted_, o.adopted_);
  }
  Executor exec_ = Executor::cpu();
  T* data_ = nullptr;
  index_t size_ = 0;
  bool owner_ = true;
  std::shared_ptr<UninitializedVector<T>> adopted_;  // the host vector this array is, if it was adopted
};

using Vector = Array<double>;

}  // namespace miniapp
