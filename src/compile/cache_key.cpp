#include "compile/cache_key.h"

#include "compile/include_scan.h"

namespace dc {

CacheKey make_cache_key(const CompileRequest& r, int32_t nvrtc_major, int32_t nvrtc_minor, int32_t driver_version) {
  Sha256 h;
  // A new key layout must change this tag, so that old entries never match.
  h.field("dccuda kernel cache key 1");
  h.field(r.source);
  h.field(r.program_name);
  h.field_u64(r.header_names.size());
  for (size_t i = 0; i < r.header_names.size(); ++i) {
    h.field(r.header_names[i]);
    h.field(r.header_sources[i]);
  }
  h.field_u64(r.name_expressions.size());
  for (const std::string& e : r.name_expressions) h.field(e);
  std::vector<std::string> args = r.nvrtc_args();
  h.field_u64(args.size());
  for (const std::string& a : args) h.field(a);
  h.field_u64(static_cast<uint64_t>(r.output));
  h.field_u64(static_cast<uint64_t>(r.arch));
  h.field_u64(static_cast<uint64_t>(nvrtc_major));
  h.field_u64(static_cast<uint64_t>(nvrtc_minor));
  h.field_u64(static_cast<uint64_t>(driver_version));

  std::vector<IncludedFile> includes = scan_includes(r);
  h.field_u64(includes.size());
  for (const IncludedFile& f : includes) {
    h.field(f.path);
    h.update(f.content.data(), f.content.size());
  }
  CacheKey key;
  key.digest = h.finish();
  key.hex = to_hex(key.digest);
  return key;
}

}  // namespace dc
