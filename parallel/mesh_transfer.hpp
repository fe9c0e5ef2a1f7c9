#pragma once
#include <string>

#include "parallel/communicator.hpp"
#include "parallel/mesh_window.hpp"

// Point-to-point transfer of a MeshWindow from the mesh reader to one rank. Each transfer is a
// handshake: the sizes (or the reader's reason for sending none), the receiver's answer whether it
// could allocate them, then the arrays only when it could; so neither side ever waits for a message
// the other will not send, whatever fails.
namespace miniapp::parallel {

// Sends `window` to rank `dest` (which calls receive_window). Returns "" once sent, or dest's reason
// for refusing it (it could not allocate the arrays; dest reports that itself).
std::string send_window(const Communicator& comm, int dest, MeshWindow& window);

// Tells rank `dest` (which calls receive_window) why it gets no window.
void send_failure(const Communicator& comm, int dest, const std::string& why);

// The window rank `source` sends. Throws miniapp::Error, once the exchange is over, with the
// sender's reason (send_failure) or when this rank cannot allocate the window (out of host memory).
MeshWindow receive_window(const Communicator& comm, int source);

}  // namespace miniapp::parallel
