#pragma once
#include <algorithm>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace miniapp {

// An allocator whose value-initialization (vector(n), resize(n)) writes nothing: elements of trivially
// copyable types (doubles, indices, and aggregates such as Vec3 whose members have default values)
// are left as the allocation gives them, objects of implicit lifetime. A large array that is about to
// be written in parallel is then neither zero-filled nor first touched by the one thread that sizes it
// (which, for the set-up's matrices of hundreds of millions of entries, kept the other threads
// waiting). resize(n, value), assign and every other construction with a value still write it.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    if constexpr (!(std::is_trivially_copyable_v<U> && std::is_trivially_destructible_v<U>))
      ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    std::construct_at(p, std::forward<Args>(args)...);
  }
};

// A host array whose resize(n) leaves new trivially copyable elements unwritten (DefaultInitAllocator).
template <class T>
using UninitializedVector = std::vector<T, DefaultInitAllocator<T>>;

// The same entries, whichever the allocators: such arrays compared with plain vectors.
template <class T>
bool operator==(const UninitializedVector<T>& a, const std::vector<T>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

}  // namespace miniapp
