#pragma once

namespace miniapp {

// How the VTK pieces' arrays are compressed: LZ4 (the default: several times faster to write than
// zlib, for files about a third larger), zlib for smaller files, or none. ParaView reads all three.
// Named by the case file (output.compression) and applied by the VTK writer.
enum class VtkCompression { lz4, zlib, none };

}  // namespace miniapp
