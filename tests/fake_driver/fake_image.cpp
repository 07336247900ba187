// The fake driver's image reader (a test double): PTX text (with regular
// expressions), CUBIN ELF (symbol table and .nv.info records), and
// uncompressed fatbins.
#include "fake_image.h"

#include "loader/cuda_abi/driver_abi.h"
#include "module/elf_types.h"

#include <cstring>
#include <map>
#include <regex>
#include <sstream>

namespace fake {
namespace {

// Compiled once: building a std::regex costs more than a whole fake module load.
const std::regex& version_re() {
  static const std::regex r(R"(^\s*\.version\s+(\d+)\.(\d+))");
  return r;
}
const std::regex& target_re() {
  static const std::regex r(R"(\.target\s+sm_(\d+))");
  return r;
}
const std::regex& maxntid_re() {
  static const std::regex r(R"(\.maxntid\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?)");
  return r;
}

std::string without_comments(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
      out += '\n';
    } else if (s.compare(i, 2, "/*") == 0) {
      size_t e = s.find("*/", i + 2);
      i = e == std::string::npos ? s.size() : e + 1;
    } else {
      out += s[i];
    }
  }
  return out;
}

size_t ptx_type_bytes(const std::string& t) {
  if (t == "b8" || t == "u8" || t == "s8" || t == "pred") return 1;
  if (t == "b16" || t == "u16" || t == "s16" || t == "f16" || t == "bf16") return 2;
  if (t == "b32" || t == "u32" || t == "s32" || t == "f32" || t == "f16x2" || t == "bf16x2") return 4;
  if (t == "b64" || t == "u64" || t == "s64" || t == "f64") return 8;
  if (t == "b128") return 16;
  return 0;
}

size_t array_count(const std::string& dims) {
  size_t n = 1;
  static const std::regex dim(R"(\[(\d+)\])");
  for (auto it = std::sregex_iterator(dims.begin(), dims.end(), dim); it != std::sregex_iterator(); ++it)
    n *= std::stoul((*it)[1]);
  return n;
}

// Initial values of a PTX variable: "= 42", "= {1, 2, 3}", "= 0f3F800000".
std::vector<uint8_t> ptx_initializer(const std::string& text, size_t elem) {
  std::vector<uint8_t> out;
  static const std::regex value(R"((0[fFdD][0-9A-Fa-f]+|-?0[xX][0-9A-Fa-f]+|-?\d+))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), value); it != std::sregex_iterator(); ++it) {
    std::string v = (*it)[1];
    uint64_t bits;
    if (v.size() > 2 && (v[1] == 'f' || v[1] == 'F' || v[1] == 'd' || v[1] == 'D')) bits = std::stoull(v.substr(2), nullptr, 16);
    else bits = static_cast<uint64_t>(std::stoll(v, nullptr, 0));
    for (size_t b = 0; b < elem; ++b) out.push_back(static_cast<uint8_t>(bits >> (8 * b)));
  }
  return out;
}

ParsedImage fail_with(int result, std::string log) {
  ParsedImage p;
  p.result = result;
  p.log = std::move(log);
  return p;
}

ParsedImage parse_ptx(const std::string& raw, int device_arch, int max_ptx_isa) {
  std::string text = without_comments(raw);
  std::smatch m;
  if (!std::regex_search(text, m, version_re()))
    return fail_with(CUDA_ERROR_INVALID_PTX, "ptxas application ptx input, line 1; fatal   : Missing .version "
                                             "directive at start of file (fake driver)");
  ParsedImage p;
  p.from_ptx = true;
  p.ptx_isa = std::stoi(m[1]) * 10 + std::stoi(m[2]);
  if (max_ptx_isa && p.ptx_isa > max_ptx_isa) {
    std::ostringstream log;
    log << "ptxas application ptx input, line 1; fatal   : Unsupported .version " << m[1] << "." << m[2]
        << "; current version is '" << max_ptx_isa / 10 << "." << max_ptx_isa % 10 << "' (fake driver)";
    return fail_with(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, log.str());
  }
  if (!std::regex_search(text, m, target_re()))
    return fail_with(CUDA_ERROR_INVALID_PTX, "ptxas application ptx input; fatal   : Missing .target directive "
                                             "(fake driver)");
  p.arch = std::stoi(m[1]);
  if (p.arch > device_arch)
    return fail_with(CUDA_ERROR_INVALID_PTX, "ptxas fatal   : SM version specified by .target is higher than the "
                                             "device's (fake driver)");
  long depth = 0;
  for (char c : text) {
    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (depth < 0) break;
  }
  if (depth != 0)
    return fail_with(CUDA_ERROR_INVALID_PTX, "ptxas application ptx input; fatal   : Parsing error: unbalanced "
                                             "braces (fake driver)");

  // Kernels: `.entry name ( params ) ... { body }`.
  static const std::regex entry(R"(\.entry\s+([A-Za-z_$][\w$]*)\s*(\(([^)]*)\))?[^{]*\{)");
  static const std::regex param(R"(^\s*\.param\s+(?:\.align\s+(\d+)\s+)?(?:\.v(\d)\s+)?\.(\w+)\s+(?:\.ptr\s+(?:\.\w+\s+)?(?:\.align\s+\d+\s+)?)?[A-Za-z_$][\w$]*((?:\s*\[\d+\])*)\s*$)");
  static const std::regex shared(R"(\.shared\s+(?:\.align\s+\d+\s+)?\.(\w+)\s+[\w$]+((?:\[\d+\])*)\s*;)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), entry); it != std::sregex_iterator(); ++it) {
    ImageKernel k;
    k.name = (*it)[1];
    k.params_known = true;
    std::string list = (*it)[3];
    size_t cursor = 0;
    std::stringstream items(list);
    std::string item;
    while (k.params_known && std::getline(items, item, ',')) {
      if (item.find_first_not_of(" \t\r\n") == std::string::npos) continue;
      std::smatch pm;
      size_t elem;
      if (!std::regex_match(item, pm, param) || !(elem = ptx_type_bytes(pm[3]))) {
        k.params_known = false;
        break;
      }
      size_t vec = pm[2].matched ? std::stoul(pm[2]) : 1;
      size_t size = elem * vec * array_count(pm[4]);
      size_t align = pm[1].matched ? std::stoul(pm[1]) : elem * vec;
      size_t offset = (cursor + align - 1) / align * align;
      k.params.push_back({offset, size});
      cursor = offset + size;
    }
    if (!k.params_known) k.params.clear();
    // __launch_bounds__: `.maxntid x, y, z` between the parameter list and the body.
    std::string head = (*it)[0];
    std::smatch mt;
    if (std::regex_search(head, mt, maxntid_re()))
      k.max_threads = std::stoi(mt[1]) * (mt[2].matched ? std::stoi(mt[2]) : 1) * (mt[3].matched ? std::stoi(mt[3]) : 1);
    // Static shared memory declared in the body.
    size_t body = static_cast<size_t>(it->position(0) + it->length(0));
    size_t level = 1, end = body;
    while (end < text.size() && level) level += text[end] == '{' ? 1 : text[end] == '}' ? -1 : 0, ++end;
    std::string inside = text.substr(body, end - body);
    for (auto s = std::sregex_iterator(inside.begin(), inside.end(), shared); s != std::sregex_iterator(); ++s)
      k.static_shared += ptx_type_bytes((*s)[1]) * array_count((*s)[2]);
    p.kernels.push_back(std::move(k));
  }
  // Module-scope variables.
  std::regex var(R"((?:^|\n)\s*(?:\.visible\s+|\.weak\s+)?\.(global|const)\s+(?:\.align\s+\d+\s+)?(?:\.v(\d)\s+)?\.(\w+)\s+([A-Za-z_$][\w$]*)((?:\[\d+\])*)\s*(=\s*([^;]*))?;)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), var); it != std::sregex_iterator(); ++it) {
    size_t elem = ptx_type_bytes((*it)[3]);
    if (!elem) continue;
    size_t vec = (*it)[2].matched ? std::stoul((*it)[2]) : 1;
    ImageGlobal g;
    g.name = (*it)[4];
    g.size = elem * vec * array_count((*it)[5]);
    if ((*it)[7].matched) g.init = ptx_initializer((*it)[7], elem);
    if (g.init.size() > g.size) g.init.resize(g.size);
    p.globals.push_back(std::move(g));
  }
  std::ostringstream info;
  for (const ImageKernel& k : p.kernels)
    info << "ptxas info    : Compiling entry function '" << k.name << "' for 'sm_" << device_arch
         << "' (fake driver: no code generated)\n";
  p.log = info.str();
  p.ok = true;
  return p;
}

template <class T>
T at(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

ParsedImage parse_elf(const uint8_t* b, int device_arch) {
  Elf64_Ehdr eh = at<Elf64_Ehdr>(b);
  if (b[EI_CLASS] != ELFCLASS64 || eh.e_machine != 190 || eh.e_shentsize != sizeof(Elf64_Shdr))
    return fail_with(CUDA_ERROR_INVALID_IMAGE, "fake driver: not a 64-bit CUDA ELF image");
  ParsedImage p;
  p.arch = b[EI_ABIVERSION] >= 8 ? (eh.e_flags >> 8) & 0xff : eh.e_flags & 0xff;
  if (p.arch / 10 != device_arch / 10 || p.arch > device_arch)
    return fail_with(CUDA_ERROR_NO_BINARY_FOR_GPU, "fake driver: the CUBIN is for sm_" + std::to_string(p.arch) +
                                                       ", the device is sm_" + std::to_string(device_arch));
  auto section = [&](size_t i) { return at<Elf64_Shdr>(b + eh.e_shoff + i * eh.e_shentsize); };
  Elf64_Shdr names = section(eh.e_shstrndx);
  std::map<std::string, Elf64_Shdr> by_name;
  std::vector<std::string> section_names(eh.e_shnum);
  Elf64_Shdr symtab{};
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr s = section(i);
    section_names[i] = reinterpret_cast<const char*>(b + names.sh_offset + s.sh_name);
    by_name[section_names[i]] = s;
    if (s.sh_type == SHT_SYMTAB) symtab = s;
  }
  Elf64_Shdr strtab = section(symtab.sh_link);
  std::map<uint32_t, int> regs_by_symbol;
  if (by_name.count(".nv.info")) {
    Elf64_Shdr info = by_name[".nv.info"];
    for (size_t o = 0; o + 4 <= info.sh_size;) {
      const uint8_t* r = b + info.sh_offset + o;
      if (r[0] == 0x04) {
        uint16_t len = at<uint16_t>(r + 2);
        if (r[1] == 0x2f && len == 8) regs_by_symbol[at<uint32_t>(r + 4)] = static_cast<int>(at<uint32_t>(r + 8));
        o += 4 + len;
      } else {
        o += 4;
      }
    }
  }
  size_t count = symtab.sh_size / sizeof(Elf64_Sym);
  for (size_t i = 0; i < count; ++i) {
    Elf64_Sym sym = at<Elf64_Sym>(b + symtab.sh_offset + i * sizeof(Elf64_Sym));
    std::string name = reinterpret_cast<const char*>(b + strtab.sh_offset + sym.st_name);
    if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= eh.e_shnum || name.empty()) continue;
    if (ELF64_ST_TYPE(sym.st_info) == STT_FUNC && (sym.st_other & 0x10)) {
      ImageKernel k;
      k.name = name;
      k.registers = regs_by_symbol.count(static_cast<uint32_t>(i)) ? regs_by_symbol[static_cast<uint32_t>(i)] : 0;
      if (by_name.count(".nv.shared." + name)) k.static_shared = by_name[".nv.shared." + name].sh_size;
      auto info = by_name.find(".nv.info." + name);
      if (info != by_name.end()) {
        // EIATTR_KPARAM_INFO (0x17): u32 index, u16 ordinal, u16 offset, u32 flags with the size in bits 18..31.
        std::map<int, ImageParam> by_ordinal;
        for (size_t o = 0; o + 4 <= info->second.sh_size;) {
          const uint8_t* r = b + info->second.sh_offset + o;
          if (r[0] != 0x04) {
            o += 4;
            continue;
          }
          uint16_t len = at<uint16_t>(r + 2);
          if (r[1] == 0x17 && len >= 12)
            by_ordinal[at<uint16_t>(r + 8)] = {at<uint16_t>(r + 10), at<uint32_t>(r + 12) >> 18};
          // EIATTR_MAX_THREADS (0x05): u32 x, y, z from __launch_bounds__.
          if (r[1] == 0x05 && len == 12)
            k.max_threads = static_cast<int>(at<uint32_t>(r + 4) * at<uint32_t>(r + 8) * at<uint32_t>(r + 12));
          o += 4 + len;
        }
        k.params_known = true;
        for (auto& [ordinal, param] : by_ordinal) {
          if (ordinal != static_cast<int>(k.params.size())) k.params_known = false;
          k.params.push_back(param);
        }
        if (!k.params_known) k.params.clear();
      }
      p.kernels.push_back(std::move(k));
    } else if (ELF64_ST_TYPE(sym.st_info) == STT_OBJECT && sym.st_size > 0) {
      const std::string& where = section_names[sym.st_shndx];
      if (where.rfind(".nv.shared", 0) == 0) continue;
      ImageGlobal g;
      g.name = name;
      g.size = sym.st_size;
      Elf64_Shdr s = section(sym.st_shndx);
      if (s.sh_type == SHT_PROGBITS && sym.st_value + sym.st_size <= s.sh_size)
        g.init.assign(b + s.sh_offset + sym.st_value, b + s.sh_offset + sym.st_value + sym.st_size);
      p.globals.push_back(std::move(g));
    }
  }
  p.ok = true;
  return p;
}

}  // namespace

ParsedImage parse_image(const void* image, int device_arch, int max_ptx_isa) {
  const uint8_t* b = static_cast<const uint8_t*>(image);
  // Byte by byte, so that a short NUL-terminated text is never read past its end.
  auto starts_with = [&](const uint8_t* magic) {
    for (int i = 0; i < 4; ++i)
      if (b[i] != magic[i]) return false;
    return true;
  };
  static const uint8_t kElf[4] = {0x7f, 'E', 'L', 'F'};
  static const uint8_t kFatbin[4] = {0x50, 0xed, 0x55, 0xba};
  if (starts_with(kElf)) return parse_elf(b, device_arch);
  if (starts_with(kFatbin)) {
    // Fatbin: members of [kind u16, _, header size u32, payload size u64, ..., sm u32 at 28, flags u64 at 40].
    uint16_t header = at<uint16_t>(b + 6);
    uint64_t body = at<uint64_t>(b + 8);
    const uint8_t* ptx = nullptr;
    bool compressed = false;
    for (size_t pos = header; pos + 16 <= header + body;) {
      const uint8_t* m = b + pos;
      uint16_t kind = at<uint16_t>(m);
      uint32_t mh = at<uint32_t>(m + 4);
      uint64_t payload = at<uint64_t>(m + 8);
      uint32_t sm = at<uint32_t>(m + 28);
      uint64_t flags = at<uint64_t>(m + 40);
      if (flags & (0x2000 | 0x8000)) {  // LZ4 or Zstandard
        compressed = true;  // the fake cannot decompress: skip it
      } else if (kind == 2 && static_cast<int>(sm) / 10 == device_arch / 10 && static_cast<int>(sm) <= device_arch) {
        return parse_elf(m + mh, device_arch);
      } else if (kind == 1) {
        ptx = m + mh;
      }
      pos += mh + payload;
    }
    if (ptx) return parse_ptx(reinterpret_cast<const char*>(ptx), device_arch, max_ptx_isa);
    if (compressed)
      return fail_with(CUDA_ERROR_NOT_SUPPORTED, "fake driver: compressed fatbin members are not supported");
    return fail_with(CUDA_ERROR_NO_BINARY_FOR_GPU, "fake driver: the fatbin has no code for this device");
  }
  const char* text = static_cast<const char*>(image);
  size_t n = std::strlen(text);
  for (size_t i = 0; i < n && i < 4096; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f')
      return fail_with(CUDA_ERROR_INVALID_IMAGE, "fake driver: the image is neither PTX, a CUBIN nor a fatbin");
  }
  return parse_ptx(std::string(text, n), device_arch, max_ptx_isa);
}

}  // namespace fake
