#include "module/image.h"

#include <cstring>
#include <set>
#include <string_view>

#include "core/error.h"
#include "module/elf_parse.h"

namespace dc {
namespace {

constexpr uint32_t kFatbinMagic = 0xBA55ED50u;
constexpr uint32_t kLtoIrMagic = 0x7F4E43EDu;  // NVRTC's LTO-IR
constexpr size_t kFatbinHeaderSize = 16;
constexpr uint16_t kFatbinMemberPtx = 1, kFatbinMemberElf = 2;
// Compressed members (LZ4 in older toolkits, Zstandard since CUDA 12.8) cannot be read here.
constexpr uint64_t kFatbinMemberCompressed = 0x2000 | 0x8000;

uint32_t u32_at(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
uint64_t u64_at(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
uint16_t u16_at(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

// One member of a fatbin: a CUBIN or PTX for one architecture.
struct FatbinMember {
  uint16_t kind;
  bool compressed;
  const uint8_t* payload;
  size_t size;
};

// The fatbin's members; empty if its layout is not what this reader knows.
std::vector<FatbinMember> fatbin_members(const uint8_t* b, size_t size) {
  std::vector<FatbinMember> out;
  uint16_t header = u16_at(b + 6);
  uint64_t body = u64_at(b + 8);
  if (header < kFatbinHeaderSize || header > size || body > size - header) return {};
  size_t pos = header, end = header + static_cast<size_t>(body);
  while (pos + 16 <= end) {
    uint16_t kind = u16_at(b + pos);
    uint32_t member_header = u32_at(b + pos + 4);
    uint64_t payload = u64_at(b + pos + 8);
    if (member_header < 16 || member_header > end - pos || payload > end - pos - member_header) return {};
    uint64_t flags = member_header >= 48 ? u64_at(b + pos + 40) : 0;
    out.push_back({kind, (flags & kFatbinMemberCompressed) != 0, b + pos + member_header, static_cast<size_t>(payload)});
    pos += member_header + static_cast<size_t>(payload);
  }
  return out;
}

std::string first_bytes(const uint8_t* b, size_t size) {
  std::string s;
  for (size_t i = 0; i < size && i < 8; ++i) s += strf("%s%02x", i ? " " : "", b[i]);
  return s;
}

bool looks_like_text(const uint8_t* b, size_t size) {
  size_t n = size < 4096 ? size : 4096;
  for (size_t i = 0; i < n; ++i) {
    uint8_t c = b[i];
    if (c == 0) return i > 0;  // the end of a NUL-terminated text
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f') return false;
  }
  return true;
}

void add_kernels(std::vector<ImageKernel>& all, std::set<std::string>& seen, std::vector<ImageKernel> found) {
  for (ImageKernel& k : found) {
    if (seen.insert(k.name).second) {
      all.push_back(std::move(k));
    } else if (!k.layout.known) {
      continue;
    } else {
      for (ImageKernel& existing : all)
        if (existing.name == k.name && !existing.layout.known) existing.layout = k.layout;
    }
  }
}

}  // namespace

const char* image_kind_name(ImageKind kind) noexcept {
  switch (kind) {
    case ImageKind::Ptx: return "PTX";
    case ImageKind::Cubin: return "CUBIN";
    case ImageKind::Fatbin: return "fatbin";
    case ImageKind::LtoIr: return "LTO-IR";
  }
  return "image";
}

PreparedImage prepare_image(const void* image, size_t size) {
  const uint8_t* b = static_cast<const uint8_t*>(image);
  PreparedImage out;
  out.data = image;
  out.size = size;
  if (is_elf(b, size)) {
    out.kind = ImageKind::Cubin;
    std::string problem = elf_bounds_problem(b, size);
    if (!problem.empty())
      fail(DC_ERROR_INVALID_IMAGE, "the image starts like a CUBIN (ELF) but %s (%zu bytes given); pass the whole "
           "file", problem.c_str(), size);
    return out;
  }
  if (size >= 4 && u32_at(b) == kLtoIrMagic)
    fail(DC_ERROR_INVALID_IMAGE, "the image is LTO-IR, which the driver cannot load; link it with nvJitLink first, "
         "or compile to DC_OUTPUT_CUBIN");
  if (size >= 4 && u32_at(b) == kFatbinMagic) {
    out.kind = ImageKind::Fatbin;
    if (size < kFatbinHeaderSize)
      fail(DC_ERROR_INVALID_IMAGE, "the image starts like a fatbin but is only %zu bytes long", size);
    uint16_t header = u16_at(b + 6);
    uint64_t body = u64_at(b + 8);
    if (header < kFatbinHeaderSize || header > size || body > size - header)
      fail(DC_ERROR_INVALID_IMAGE, "the fatbin says it is %llu bytes long but %zu bytes were given (truncated); "
           "pass the whole file", static_cast<unsigned long long>(header + body), size);
    return out;
  }
  if (!looks_like_text(b, size))
    fail(DC_ERROR_INVALID_IMAGE, "the image is neither PTX text, a CUBIN (ELF) nor a fatbin (it begins with %s)",
         first_bytes(b, size).c_str());
  out.kind = ImageKind::Ptx;
  // The driver reads PTX up to its NUL: add one if the caller's bytes lack it.
  if (!std::memchr(b, 0, size)) {
    out.owned.assign(b, b + size);
    out.owned.push_back(0);
    out.data = out.owned.data();
    out.size = out.owned.size();
  }
  return out;
}

std::vector<ImageKernel> image_kernels(const PreparedImage& image) {
  const uint8_t* b = static_cast<const uint8_t*>(image.data);
  switch (image.kind) {
    case ImageKind::Ptx:
      return parse_ptx_kernels(std::string_view(reinterpret_cast<const char*>(b), strnlen(reinterpret_cast<const char*>(b), image.size)));
    case ImageKind::Cubin:
      return parse_cubin_kernels(b, image.size);
    case ImageKind::Fatbin: {
      std::vector<ImageKernel> all;
      std::set<std::string> seen;
      for (const FatbinMember& m : fatbin_members(b, image.size)) {
        if (m.compressed) continue;
        if (m.kind == kFatbinMemberElf && is_elf(m.payload, m.size))
          add_kernels(all, seen, parse_cubin_kernels(m.payload, m.size));
        else if (m.kind == kFatbinMemberPtx)
          add_kernels(all, seen, parse_ptx_kernels(std::string_view(reinterpret_cast<const char*>(m.payload),
                                                                    strnlen(reinterpret_cast<const char*>(m.payload), m.size))));
      }
      return all;
    }
    case ImageKind::LtoIr:
      break;
  }
  return {};
}

}  // namespace dc
