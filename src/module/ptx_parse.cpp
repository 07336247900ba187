#include "module/ptx_parse.h"

#include <cctype>
#include <cstdint>

namespace dc {
namespace {

// PTX without comments (strings are kept whole: a "//" inside a .file path is not a comment).
std::string strip_comments(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  size_t i = 0;
  while (i < in.size()) {
    char c = in[i];
    if (c == '"') {
      size_t end = in.find('"', i + 1);
      end = end == std::string_view::npos ? in.size() : end + 1;
      out.append(in.substr(i, end - i));
      i = end;
    } else if (c == '/' && i + 1 < in.size() && in[i + 1] == '/') {
      while (i < in.size() && in[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < in.size() && in[i + 1] == '*') {
      size_t end = in.find("*/", i + 2);
      i = end == std::string_view::npos ? in.size() : end + 2;
      out += ' ';
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' || c == '%';
}

std::vector<std::string> tokenize(const std::string& s) {
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '"') {
      size_t end = s.find('"', i + 1);
      end = end == std::string::npos ? s.size() : end + 1;
      tokens.push_back(s.substr(i, end - i));
      i = end;
    } else if (ident_char(c)) {
      size_t start = i;
      while (i < s.size() && ident_char(s[i])) ++i;
      tokens.push_back(s.substr(start, i - start));
    } else {
      tokens.emplace_back(1, c);
      ++i;
    }
  }
  return tokens;
}

// Bytes of a PTX fundamental type (".u32" -> 4), 0 if not one.
uint32_t type_size(const std::string& t) {
  static const struct {
    const char* name;
    uint32_t size;
  } kTypes[] = {{".b8", 1},  {".u8", 1},  {".s8", 1},  {".b16", 2}, {".u16", 2}, {".s16", 2}, {".f16", 2},
                {".bf16", 2}, {".b32", 4}, {".u32", 4}, {".s32", 4}, {".f32", 4}, {".f16x2", 4}, {".bf16x2", 4},
                {".b64", 8}, {".u64", 8}, {".s64", 8}, {".f64", 8}, {".b128", 16}};
  for (const auto& t2 : kTypes)
    if (t == t2.name) return t2.size;
  return 0;
}

bool parse_number(const std::string& s, uint64_t* v) {
  if (s.empty() || s.size() > 12) return false;
  uint64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  *v = n;
  return true;
}

// One `.param ...` declaration, tokens [begin, end) without the leading ".param".
bool parse_param(const std::vector<std::string>& t, size_t begin, size_t end, uint32_t* size, uint32_t* align) {
  uint32_t elem = 0, vec = 1, explicit_align = 0;
  uint64_t count = 1;
  bool pointer = false, named = false;
  for (size_t i = begin; i < end; ++i) {
    const std::string& tok = t[i];
    if (tok == ".align") {
      uint64_t a;
      if (i + 1 >= end || !parse_number(t[i + 1], &a) || a == 0 || a > 4096 || (a & (a - 1))) return false;
      // After .ptr, .align is the pointee's alignment, not the parameter's.
      if (!pointer) explicit_align = static_cast<uint32_t>(a);
      ++i;
    } else if (tok == ".ptr") {
      pointer = true;
    } else if (tok == ".global" || tok == ".const" || tok == ".shared" || tok == ".local") {
      if (!pointer) return false;
    } else if (tok == ".v2" || tok == ".v4" || tok == ".v8") {
      vec = static_cast<uint32_t>(tok[2] - '0');
    } else if (uint32_t s = type_size(tok)) {
      if (elem) return false;
      elem = s;
    } else if (tok == "[") {
      uint64_t n;
      if (i + 2 >= end || !parse_number(t[i + 1], &n) || t[i + 2] != "]" || n == 0) return false;
      count *= n;
      if (count > (uint64_t(1) << 20)) return false;
      i += 2;
    } else if (!tok.empty() && tok[0] != '.' && !named) {
      named = true;  // the parameter's name
    } else {
      return false;  // something this parser does not know: say "unknown", never guess
    }
  }
  if (!elem || !named) return false;
  uint64_t bytes = uint64_t(elem) * vec * count;
  *size = static_cast<uint32_t>(bytes);
  *align = explicit_align ? explicit_align : elem * vec;
  return true;
}

ParamLayout parse_param_list(const std::vector<std::string>& t, size_t open, size_t close) {
  ParamLayout layout;
  size_t i = open + 1;
  uint64_t cursor = 0;
  while (i < close) {
    if (t[i] != ".param") return {};
    size_t end = i + 1;
    while (end < close && t[end] != ",") ++end;
    uint32_t size = 0, align = 1;
    if (!parse_param(t, i + 1, end, &size, &align)) return {};
    uint64_t offset = (cursor + align - 1) / align * align;
    layout.params.push_back({static_cast<uint32_t>(offset), size});
    cursor = offset + size;
    if (cursor > UINT32_MAX) return {};
    i = end + 1;
  }
  layout.known = true;
  layout.total_bytes = static_cast<uint32_t>(cursor);
  return layout;
}

}  // namespace

std::vector<ImageKernel> parse_ptx_kernels(std::string_view ptx) {
  std::vector<std::string> t = tokenize(strip_comments(ptx));
  std::vector<ImageKernel> out;
  int depth = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == "{") ++depth;
    else if (t[i] == "}") --depth;
    if (depth != 0 || t[i] != ".entry" || i + 1 >= t.size()) continue;
    ImageKernel k;
    k.name = t[i + 1];
    size_t j = i + 2;
    if (j < t.size() && t[j] == "(") {
      size_t close = j;
      while (close < t.size() && t[close] != ")") ++close;
      if (close == t.size()) break;  // truncated text
      k.layout = parse_param_list(t, j, close);
      i = close;
    } else {
      k.layout.known = true;  // `.entry name {`: no parameters
    }
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace dc
