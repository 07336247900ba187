#include "module/elf_parse.h"

#include "module/elf_types.h"

#include <cstring>
#include <map>

namespace dc {
namespace {

constexpr uint16_t kEmCuda = 190;       // EM_CUDA
constexpr uint8_t kStoCudaEntry = 0x10; // st_other bit of a kernel (entry point)
// .nv.info record formats and the attributes read here.
constexpr uint8_t kFmtNoValue = 0x01, kFmtByte = 0x02, kFmtHalf = 0x03, kFmtSized = 0x04;
constexpr uint8_t kAttrKparamInfo = 0x17;   // one per parameter: ordinal, offset, size
constexpr uint8_t kAttrParamBankSize = 0x19; // total bytes of the parameters

template <class T>
T read(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

struct Elf {
  const uint8_t* base;
  size_t size;
  Elf64_Ehdr eh;
  Elf64_Shdr shdr(size_t i) const { return read<Elf64_Shdr>(base + eh.e_shoff + i * eh.e_shentsize); }
  // A NUL-terminated string at `offset` in string table section `table`, or "".
  std::string str(size_t table, uint64_t offset) const {
    if (table >= eh.e_shnum) return {};
    Elf64_Shdr s = shdr(table);
    if (offset >= s.sh_size) return {};
    const char* p = reinterpret_cast<const char*>(base + s.sh_offset + offset);
    size_t max = static_cast<size_t>(s.sh_size - offset);
    size_t n = strnlen(p, max);
    return n == max ? std::string() : std::string(p, n);
  }
};

bool open_elf(const void* data, size_t size, Elf* elf) {
  if (!elf_bounds_problem(data, size).empty()) return false;
  elf->base = static_cast<const uint8_t*>(data);
  elf->size = size;
  elf->eh = read<Elf64_Ehdr>(elf->base);
  return true;
}

// The layout recorded in one `.nv.info.<kernel>` section; unknown if the
// records are not what this reader understands.
ParamLayout layout_from_info(const uint8_t* p, size_t n) {
  std::map<uint32_t, ParamInfo> by_ordinal;
  int64_t bank_size = -1;
  size_t i = 0;
  while (i + 4 <= n) {
    uint8_t fmt = p[i], attr = p[i + 1];
    if (fmt == kFmtSized) {
      uint16_t len = read<uint16_t>(p + i + 2);
      if (i + 4 + len > n) return {};
      if (attr == kAttrKparamInfo) {
        if (len < 12) return {};
        uint16_t ordinal = read<uint16_t>(p + i + 8);
        uint16_t offset = read<uint16_t>(p + i + 10);
        uint32_t packed = read<uint32_t>(p + i + 12);
        uint32_t size = packed >> 18;
        if (!by_ordinal.emplace(ordinal, ParamInfo{offset, size}).second) return {};
      }
      i += 4 + len;
    } else if (fmt == kFmtHalf) {
      if (attr == kAttrParamBankSize) bank_size = read<uint16_t>(p + i + 2);
      i += 4;
    } else if (fmt == kFmtNoValue || fmt == kFmtByte) {
      i += 4;
    } else {
      return {};
    }
  }
  ParamLayout layout;
  uint32_t end = 0;
  uint32_t expected = 0;
  for (const auto& [ordinal, info] : by_ordinal) {
    if (ordinal != expected++ || info.offset < end || info.size == 0) return {};  // gaps or overlaps
    layout.params.push_back(info);
    end = info.offset + info.size;
  }
  if (bank_size >= 0 && static_cast<uint32_t>(bank_size) != end) return {};
  layout.known = true;
  layout.total_bytes = end;
  return layout;
}

}  // namespace

bool is_elf(const void* data, size_t size) {
  return size >= 4 && std::memcmp(data, ELFMAG, SELFMAG) == 0;
}

std::string elf_bounds_problem(const void* data, size_t size) {
  const uint8_t* b = static_cast<const uint8_t*>(data);
  if (size < sizeof(Elf64_Ehdr)) return "it is shorter than an ELF header";
  if (b[EI_CLASS] != ELFCLASS64) return "it is not a 64-bit ELF image";
  if (b[EI_DATA] != ELFDATA2LSB) return "it is not a little-endian ELF image";
  Elf64_Ehdr eh = read<Elf64_Ehdr>(b);
  if (eh.e_machine != kEmCuda) return "it is an ELF file for another machine, not a CUBIN";
  if (eh.e_shnum && eh.e_shentsize != sizeof(Elf64_Shdr)) return "its section header size is wrong";
  if (eh.e_phnum && eh.e_phentsize != sizeof(Elf64_Phdr)) return "its program header size is wrong";
  auto fits = [&](uint64_t offset, uint64_t length) { return offset <= size && length <= size - offset; };
  if (!fits(eh.e_shoff, uint64_t(eh.e_shnum) * eh.e_shentsize)) return "its section headers lie past the end (truncated)";
  if (!fits(eh.e_phoff, uint64_t(eh.e_phnum) * eh.e_phentsize)) return "its program headers lie past the end (truncated)";
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr s = read<Elf64_Shdr>(b + eh.e_shoff + i * eh.e_shentsize);
    if (s.sh_type != SHT_NOBITS && !fits(s.sh_offset, s.sh_size)) return "a section lies past the end (truncated)";
  }
  for (size_t i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph = read<Elf64_Phdr>(b + eh.e_phoff + i * eh.e_phentsize);
    if (!fits(ph.p_offset, ph.p_filesz)) return "a segment lies past the end (truncated)";
  }
  if (eh.e_shstrndx >= eh.e_shnum && eh.e_shnum) return "its section name table index is wrong";
  return {};
}

std::vector<ImageKernel> parse_cubin_kernels(const void* data, size_t size) {
  Elf elf;
  std::vector<ImageKernel> out;
  if (!open_elf(data, size, &elf)) return out;
  // Sections by name, for `.nv.info.<kernel>` and `.nv.constant0.<kernel>`.
  std::map<std::string, size_t> by_name;
  size_t symtab = 0;
  for (size_t i = 0; i < elf.eh.e_shnum; ++i) {
    Elf64_Shdr s = elf.shdr(i);
    by_name[elf.str(elf.eh.e_shstrndx, s.sh_name)] = i;
    if (s.sh_type == SHT_SYMTAB) symtab = i;
  }
  if (!symtab) return out;
  Elf64_Shdr st = elf.shdr(symtab);
  if (st.sh_entsize != sizeof(Elf64_Sym)) return out;
  size_t count = static_cast<size_t>(st.sh_size / sizeof(Elf64_Sym));
  std::vector<std::string> entries, functions;
  for (size_t i = 0; i < count; ++i) {
    Elf64_Sym sym = read<Elf64_Sym>(elf.base + st.sh_offset + i * sizeof(Elf64_Sym));
    if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF) continue;
    std::string name = elf.str(st.sh_link, sym.st_name);
    if (name.empty()) continue;
    if (sym.st_other & kStoCudaEntry) entries.push_back(name);
    else functions.push_back(name);
  }
  // Without the entry mark, a kernel is a function with a parameter bank of its own.
  if (entries.empty())
    for (const std::string& f : functions)
      if (by_name.count(".nv.constant0." + f)) entries.push_back(f);
  for (const std::string& name : entries) {
    ImageKernel k;
    k.name = name;
    auto info = by_name.find(".nv.info." + name);
    if (info != by_name.end()) {
      Elf64_Shdr s = elf.shdr(info->second);
      k.layout = layout_from_info(elf.base + s.sh_offset, static_cast<size_t>(s.sh_size));
    }
    out.push_back(std::move(k));
  }
  return out;
}

int32_t cubin_arch(const void* data, size_t size) {
  Elf elf;
  if (!open_elf(data, size, &elf)) return 0;
  // The SM version sits in bits 8..15 of e_flags in current CUBINs (ABI
  // version 8 and newer), in bits 0..7 in older ones.
  uint32_t flags = elf.eh.e_flags;
  uint32_t sm = elf.base[EI_ABIVERSION] >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
  return static_cast<int32_t>(sm);
}

}  // namespace dc
