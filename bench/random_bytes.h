// Random non-zero data for the memory the benchmarks copy from: real data is
// neither zeros (pageable memory never written is the kernel's shared zero
// page) nor one repeated byte, and a benchmark should not let either take a
// shortcut that real data would not. Bytes in 1..255 from a fixed seed, so
// every run moves the same data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace bench {

// The first `size` bytes of one fixed sequence of uniformly random bytes in
// 1..255. Each draw of the generator gives four bytes; a zero byte is skipped
// (not mapped to another value, which would make that value twice as likely).
inline std::vector<unsigned char> random_nonzero_sequence(std::size_t size) {
  std::vector<unsigned char> bytes(size);
  std::mt19937 generator(20261122u);
  std::size_t filled = 0;
  while (filled < size) {
    std::uint32_t draw = generator();
    for (int byte = 0; byte < 4 && filled < size; ++byte, draw >>= 8)
      if (unsigned char value = draw & 0xffu; value != 0) bytes[filled++] = value;
  }
  return bytes;
}

// Fills `size` bytes at `data` with the start of that sequence. The sequence
// is generated once per process, at the largest size asked for so far, and
// copied from then on: generating 256 MiB takes about half a second, copying
// it a few tens of milliseconds, and a benchmark function runs several times
// per size. Not thread-safe (the benchmarks fill their buffers on one thread).
inline void fill_random_nonzero(void* data, std::size_t size) {
  static std::vector<unsigned char> sequence;
  if (sequence.size() < size) sequence = random_nonzero_sequence(size);
  std::memcpy(data, sequence.data(), size);
}

}  // namespace bench
