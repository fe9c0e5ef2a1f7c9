#pragma once
#include <cstddef>
#include <string>

// Device management for the CUDA backend, behind a header free of CUDA types so that host code
// compiles without nvcc. In a build without CUDA, built() is false, device_count() is 0 and the rest
// throw miniapp::Error("... built without CUDA").
namespace miniapp::cuda {

bool built();
int device_count();  // 0 when no device is visible (never throws)
std::string device_name(int device);
std::size_t free_memory(int device);

void* create_stream(int device);
void destroy_stream(void* stream) noexcept;
void synchronize(void* stream);

void* allocate(int device, std::size_t bytes);
void deallocate(void* ptr) noexcept;
void copy_from_host(void* stream, void* dst, const void* src, std::size_t bytes);
void copy_to_host(void* stream, void* dst, const void* src, std::size_t bytes);
void copy_device(void* stream, void* dst, const void* src, std::size_t bytes);

}  // namespace miniapp::cuda
