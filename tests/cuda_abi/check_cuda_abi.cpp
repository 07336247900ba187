// The check of dccuda's own CUDA declarations (src/loader/cuda_abi) against
// the toolkit's cuda.h, cudaTypedefs.h, nvrtc.h, nvJitLink.h, cublas_api.h and cufft.h. Built where the toolkit is
// installed (CTest: cuda_abi.check); tests/cuda_abi/planted_mistakes.py shows
// it failing on a mistake of every kind.
//
// The same lists that declare dccuda's types are expanded here into checks,
// so every declaration is checked:
//   at compile time (a mismatch fails the build)
//     - scalars: the same type as cuda.h's;
//     - handles: cuda.h's pointer to the same struct tag;
//     - enums: the same tag, size, alignment and promoted type; every
//       enumerator an enumerator of that enum in cuda.h, with the same value;
//     - structures and unions: the same tag, size and alignment; every field
//       (nested ones included) at the same offset with the corresponding type;
//     - constants: the same type and value as cuda.h's macro;
//     - entry points: PFN_<name>_v<version> written with the real types is
//       std::is_same as cudaTypedefs.h's, and for a current entry it is also
//       the type of the function cuda.h declares today; NVRTC functions the
//       same against nvrtc.h's declarations; callbacks the same;
//   at run time (this program)
//     - pointer constants (CU_STREAM_LEGACY...): a pointer made from an
//       integer is never a constant expression;
//     - exported names: each entry point's name maps to the symbol cuda.h's
//       macro maps it to (our table comes from our_symbol_names.cpp).
//
// "Corresponding" types: dccuda's and cuda.h's declarations are distinct C++
// types, so a field of type CUmemLocation is compared through corresponds<>,
// which holds for identical types and for each pair of same-named types
// declared in both (themselves checked here), through pointers, const and
// arrays.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>

// dccuda's declarations first, inside namespace dc_cuda_abi_ours, before
// cuda.h's macros exist.
#define DC_CUDA_ABI_CHECK 1
#include "loader/cuda_abi/driver_abi.h"
#include "loader/cuda_abi/nvrtc_abi.h"
#include "loader/cuda_abi/nvjitlink_abi.h"
#include "loader/cuda_abi/library_types_abi.h"
#include "loader/cuda_abi/cublas_abi.h"
#include "loader/cuda_abi/cufft_abi.h"
#include "loader/cuda_abi/nccl_abi.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cudaProfilerTypedefs.h>  // cuProfilerStart/Stop
#include <nvrtc.h>
#include <nvJitLink.h>
#include <cublas_api.h>  // the exported _v2/_64 names, without cublas_v2.h's macros
#include <cufft.h>
#include <nccl.h>

#include "cuda_abi/symbol_names.h"

namespace ours = dc_cuda_abi_ours;

namespace {

template <class O, class R>
struct corresponds : std::is_same<O, R> {};
template <class O, class R>
struct corresponds<O*, R*> : corresponds<O, R> {};
template <class O, class R>
struct corresponds<const O, const R> : corresponds<O, R> {};
template <class O, class R, std::size_t N>
struct corresponds<O[N], R[N]> : corresponds<O, R> {};

template <class T>
using member_type = std::remove_reference_t<T>;

}  // namespace

// Every list macro, empty; each pass below defines the ones it needs.
#define DC_CU_SCALAR(name, type)
#define DC_CU_HANDLE(name, tag)
#define DC_CU_CALLBACK(name, ret, params)
#define DC_CU_ENUM_BEGIN(name, tag)
#define DC_CU_ANONYMOUS_ENUM_BEGIN(name)
#define DC_CU_ENUMERATOR(name, value)
#define DC_CU_ENUM_END(name)
#define DC_CU_STRUCT_BEGIN(name, tag)
#define DC_CU_UNION_BEGIN(name, tag)
#define DC_CU_FIELD(type, field)
#define DC_CU_ARRAY_FIELD(type, field, count)
#define DC_CU_NESTED_BEGIN(member)
#define DC_CU_NESTED_FIELD(member, type, field)
// The fields of an anonymous union are the record's own: checked as its fields.
#define DC_CU_ANONYMOUS_UNION_BEGIN()
#define DC_CU_ANONYMOUS_UNION_END()
#define DC_CU_NESTED_END(member)
#define DC_CU_STRUCT_END(name)
#define DC_CU_CONSTANT(name, type, value)
#define DC_CU_POINTER_CONSTANT(name, type, value)
#define DC_CU_ENTRY(name, version, params)
#define DC_CU_ENTRY_OLDER(name, version, params)
#define DC_NVRTC_ENTRY(ret, name, params)
// nvJitLink's functions are checked as NVRTC's are (nvJitLink.h declares
// them as functions of the same names; forwarding expands nothing there).
#define DC_NVJITLINK_ENTRY(ret, name, params) DC_NVRTC_ENTRY(ret, name, params)
// cuBLAS's likewise (cublas_api.h declares the exported names as functions),
// with its own message in pass 3.
#define DC_CUBLAS_ENTRY(ret, name, params) DC_NVRTC_ENTRY(ret, name, params)
// cuFFT's likewise; its complex types (float2 and double2 in cuComplex.h)
// are checked for size, alignment and the offsets of x and y.
#define DC_CUFFT_ENTRY(ret, name, params) DC_NVRTC_ENTRY(ret, name, params)
#define DC_CUFFT_COMPLEX(name, scalar, alignment)
// NCCL's likewise (nccl.h declares them as functions of the same names).
#define DC_NCCL_ENTRY(ret, name, params) DC_NVRTC_ENTRY(ret, name, params)

// ---------------------------------------------------------------------------
// Pass 1: which of dccuda's named types stands for which of cuda.h's.
#undef DC_CU_HANDLE
#undef DC_CU_ENUM_BEGIN
#undef DC_CU_ANONYMOUS_ENUM_BEGIN
#undef DC_CU_STRUCT_BEGIN
#undef DC_CU_UNION_BEGIN
#define DC_CU_HANDLE(name, tag) \
  template <>                   \
  struct corresponds<ours::tag, ::tag> : std::true_type {};
#define DC_CU_NAMED_TYPE(name) \
  template <>                  \
  struct corresponds<ours::name, ::name> : std::true_type {};
#define DC_CU_ENUM_BEGIN(name, tag) DC_CU_NAMED_TYPE(name)
#define DC_CU_ANONYMOUS_ENUM_BEGIN(name) DC_CU_NAMED_TYPE(name)
#define DC_CU_STRUCT_BEGIN(name, tag) DC_CU_NAMED_TYPE(name)
#define DC_CU_UNION_BEGIN(name, tag) DC_CU_NAMED_TYPE(name)
#undef DC_CUFFT_COMPLEX
#define DC_CUFFT_COMPLEX(name, scalar, alignment) DC_CU_NAMED_TYPE(name)
namespace {
#include "loader/cuda_abi/driver_types.inc"
#include "loader/cuda_abi/driver_enums.inc"
#include "loader/cuda_abi/driver_structs.inc"
#include "loader/cuda_abi/nvrtc_declarations.inc"
#include "loader/cuda_abi/nvjitlink_declarations.inc"
#include "loader/cuda_abi/library_types_declarations.inc"
#include "loader/cuda_abi/cublas_declarations.inc"
#include "loader/cuda_abi/cufft_declarations.inc"
#include "loader/cuda_abi/nccl_declarations.inc"
}  // namespace
#undef DC_CUFFT_COMPLEX
#define DC_CUFFT_COMPLEX(name, scalar, alignment)
#undef DC_CU_HANDLE
#undef DC_CU_ENUM_BEGIN
#undef DC_CU_ANONYMOUS_ENUM_BEGIN
#undef DC_CU_STRUCT_BEGIN
#undef DC_CU_UNION_BEGIN
#define DC_CU_HANDLE(name, tag)
#define DC_CU_ENUM_BEGIN(name, tag)
#define DC_CU_ANONYMOUS_ENUM_BEGIN(name)
#define DC_CU_STRUCT_BEGIN(name, tag)
#define DC_CU_UNION_BEGIN(name, tag)

// ---------------------------------------------------------------------------
// Pass 2: dccuda's function types and constant types written again, here,
// where their type names mean cuda.h's types: what dccuda declares, said in
// cuda.h's terms, to compare with std::is_same.
#undef DC_CU_CALLBACK
#undef DC_CU_CONSTANT
#undef DC_CU_POINTER_CONSTANT
#undef DC_CU_ENTRY
#undef DC_CU_ENTRY_OLDER
#undef DC_NVRTC_ENTRY
#define DC_CU_CALLBACK(name, ret, params) typedef ret(CUDA_CB* name) params;
#define DC_CU_CONSTANT(name, type, value) using dc_type_##name = type;
#define DC_CU_POINTER_CONSTANT(name, type, value) using dc_type_##name = type;
#define DC_CU_ENTRY(name, version, params) typedef CUresult(CUDAAPI* PFN_##name##_v##version) params;
#define DC_CU_ENTRY_OLDER(name, version, params) typedef CUresult(CUDAAPI* PFN_##name##_v##version) params;
#define DC_NVRTC_ENTRY(ret, name, params) typedef ret (*PFN_##name) params;
namespace in_cuda_terms {
#include "loader/cuda_abi/driver_types.inc"
#include "loader/cuda_abi/driver_constants.inc"
#include "loader/cuda_abi/driver_entry_points.inc"
#include "loader/cuda_abi/nvrtc_declarations.inc"
#include "loader/cuda_abi/nvjitlink_declarations.inc"
#include "loader/cuda_abi/library_types_declarations.inc"
#include "loader/cuda_abi/cublas_declarations.inc"
#include "loader/cuda_abi/cufft_declarations.inc"
#include "loader/cuda_abi/cufft_constants.inc"
#include "loader/cuda_abi/nccl_declarations.inc"
}  // namespace in_cuda_terms
#undef DC_CU_CALLBACK
#undef DC_CU_CONSTANT
#undef DC_CU_POINTER_CONSTANT
#undef DC_CU_ENTRY
#undef DC_CU_ENTRY_OLDER
#undef DC_NVRTC_ENTRY
#define DC_CU_CALLBACK(name, ret, params)
#define DC_CU_CONSTANT(name, type, value)
#define DC_CU_POINTER_CONSTANT(name, type, value)
#define DC_CU_ENTRY(name, version, params)
#define DC_CU_ENTRY_OLDER(name, version, params)
#define DC_NVRTC_ENTRY(ret, name, params)

// ---------------------------------------------------------------------------
// Pass 3: the compile-time checks.
#undef DC_CU_SCALAR
#undef DC_CU_HANDLE
#undef DC_CU_CALLBACK
#undef DC_CU_ENUM_BEGIN
#undef DC_CU_ANONYMOUS_ENUM_BEGIN
#undef DC_CU_ENUMERATOR
#undef DC_CU_ENUM_END
#undef DC_CU_STRUCT_BEGIN
#undef DC_CU_UNION_BEGIN
#undef DC_CU_FIELD
#undef DC_CU_ARRAY_FIELD
#undef DC_CU_NESTED_BEGIN
#undef DC_CU_NESTED_FIELD
#undef DC_CU_STRUCT_END

#define DC_CU_SCALAR(name, type) \
  static_assert(std::is_same_v<ours::name, ::name>, "CUDA ABI: scalar " #name " is not cuda.h's type");
#define DC_CU_HANDLE(name, tag) \
  static_assert(std::is_same_v<::name, ::tag*>, "CUDA ABI: handle " #name " is not cuda.h's struct " #tag "*");
#define DC_CU_CALLBACK(name, ret, params)                                 \
  static_assert(std::is_same_v<in_cuda_terms::name, ::name>,             \
                "CUDA ABI: callback " #name " differs from cuda.h's");

// Enums: opened as a namespace so that each enumerator's check knows its enum.
#define DC_CU_ENUM_COMMON(name)                                                                           \
  namespace check_##name {                                                                                \
  using O = ours::name;                                                                                   \
  using R = ::name;                                                                                       \
  static_assert(sizeof(O) == sizeof(R) && alignof(O) == alignof(R),                                       \
                "CUDA ABI: enum " #name ": size or alignment differs from cuda.h's");                     \
  static_assert(std::is_same_v<decltype(+O{}), decltype(+R{})>,                                           \
                "CUDA ABI: enum " #name ": promotes to another type than cuda.h's");
#define DC_CU_ENUM_BEGIN(name, tag) \
  DC_CU_ENUM_COMMON(name)           \
  static_assert(std::is_same_v<R, ::tag>, "CUDA ABI: enum " #name " is not cuda.h's enum " #tag);
#define DC_CU_ANONYMOUS_ENUM_BEGIN(name) DC_CU_ENUM_COMMON(name)
#define DC_CU_ENUMERATOR(name, value)                                                         \
  static_assert(std::is_same_v<decltype(::name), R>,                                          \
                "CUDA ABI: " #name " is not an enumerator of the same enum in cuda.h");        \
  static_assert(static_cast<long long>(ours::name) == static_cast<long long>(::name),         \
                "CUDA ABI: enumerator " #name ": the value differs from cuda.h's");
#define DC_CU_ENUM_END(name) }

// Structures and unions: likewise a namespace per type.
#define DC_CU_RECORD_BEGIN(name, tag, kind)                                                        \
  namespace check_##name {                                                                         \
  using O = ours::name;                                                                            \
  using R = ::name;                                                                                \
  static_assert(std::is_same_v<R, ::tag>, "CUDA ABI: " #name " is not cuda.h's " #kind " " #tag); \
  static_assert(sizeof(O) == sizeof(R), "CUDA ABI: " #kind " " #name ": the size differs from cuda.h's"); \
  static_assert(alignof(O) == alignof(R), "CUDA ABI: " #kind " " #name ": the alignment differs from cuda.h's");
#define DC_CU_STRUCT_BEGIN(name, tag) DC_CU_RECORD_BEGIN(name, tag, struct)
#define DC_CU_UNION_BEGIN(name, tag) DC_CU_RECORD_BEGIN(name, tag, union)
#define DC_CU_FIELD(type, field)                                                          \
  static_assert(offsetof(O, field) == offsetof(R, field),                                 \
                "CUDA ABI: field " #field ": the offset differs from cuda.h's");          \
  static_assert(corresponds<decltype(O::field), decltype(R::field)>::value,               \
                "CUDA ABI: field " #field ": the type differs from cuda.h's");
#define DC_CU_ARRAY_FIELD(type, field, count) DC_CU_FIELD(type, field)
#define DC_CU_NESTED_BEGIN(member)                                                                       \
  static_assert(offsetof(O, member) == offsetof(R, member),                                              \
                "CUDA ABI: field " #member ": the offset differs from cuda.h's");                        \
  static_assert(sizeof(std::declval<O&>().member) == sizeof(std::declval<R&>().member),                \
                "CUDA ABI: field " #member ": the size differs from cuda.h's");
#define DC_CU_NESTED_FIELD(member, type, field)                                                          \
  static_assert(offsetof(O, member.field) == offsetof(R, member.field),                                  \
                "CUDA ABI: field " #member "." #field ": the offset differs from cuda.h's");             \
  static_assert(corresponds<member_type<decltype(std::declval<O&>().member.field)>,                      \
                            member_type<decltype(std::declval<R&>().member.field)>>::value,              \
                "CUDA ABI: field " #member "." #field ": the type differs from cuda.h's");
#define DC_CU_STRUCT_END(name) }
#undef DC_CUFFT_COMPLEX
#define DC_CUFFT_COMPLEX(name, scalar, alignment)                                                      \
  static_assert(sizeof(ours::name) == sizeof(::name) && alignof(ours::name) == alignof(::name),      \
                "CUDA ABI: complex " #name ": the size or alignment differs from cufft.h's");         \
  static_assert(offsetof(ours::name, x) == offsetof(::name, x) && offsetof(ours::name, y) == offsetof(::name, y) && \
                std::is_same_v<decltype(ours::name::x), decltype(::name::x)>,                        \
                "CUDA ABI: complex " #name ": the fields differ from cufft.h's");

#include "loader/cuda_abi/driver_types.inc"
#include "loader/cuda_abi/driver_enums.inc"
#include "loader/cuda_abi/driver_structs.inc"
#include "loader/cuda_abi/nvrtc_declarations.inc"
#include "loader/cuda_abi/nvjitlink_declarations.inc"
#include "loader/cuda_abi/library_types_declarations.inc"
#include "loader/cuda_abi/cublas_declarations.inc"
#include "loader/cuda_abi/cufft_declarations.inc"
#undef DC_CUFFT_COMPLEX
#define DC_CUFFT_COMPLEX(name, scalar, alignment)
#include "loader/cuda_abi/nccl_declarations.inc"

#undef DC_CU_CALLBACK
#define DC_CU_CALLBACK(name, ret, params)
#undef DC_CU_CONSTANT
#define DC_CU_CONSTANT(name, type, value)                                                              \
  static_assert(std::is_same_v<in_cuda_terms::dc_type_##name, decltype(name)>,                        \
                "CUDA ABI: constant " #name ": the type differs from cuda.h's");                       \
  static_assert(static_cast<long long>(ours::dc_constant_##name) == static_cast<long long>(name),     \
                "CUDA ABI: constant " #name ": the value differs from cuda.h's");
#undef DC_CU_POINTER_CONSTANT
#define DC_CU_POINTER_CONSTANT(name, type, value)                                                      \
  static_assert(std::is_same_v<in_cuda_terms::dc_type_##name, decltype(name)>,                        \
                "CUDA ABI: constant " #name ": the type differs from cuda.h's");
#include "loader/cuda_abi/driver_constants.inc"
#include "loader/cuda_abi/cufft_constants.inc"

#undef DC_CU_ENTRY
#undef DC_CU_ENTRY_OLDER
#undef DC_NVRTC_ENTRY
// (Each written out: an argument forwarded to another macro would be
// expanded, cuMemAlloc becoming cuda.h's cuMemAlloc_v2.)
#define DC_CU_ENTRY_OLDER(name, version, params)                                                        \
  static_assert(std::is_same_v<in_cuda_terms::PFN_##name##_v##version, ::PFN_##name##_v##version>,   \
                "CUDA ABI: " #name " at " #version ": the signature differs from cudaTypedefs.h's PFN_" #name "_v" #version);
#define DC_CU_ENTRY(name, version, params)                                                              \
  static_assert(std::is_same_v<in_cuda_terms::PFN_##name##_v##version, ::PFN_##name##_v##version>,   \
                "CUDA ABI: " #name " at " #version ": the signature differs from cudaTypedefs.h's PFN_" #name "_v" #version); \
  static_assert(std::is_same_v<decltype(&name), ::PFN_##name##_v##version>,               \
                "CUDA ABI: " #name " at " #version " is not the signature cuda.h declares today "   \
                "(an older one: list it with DC_CU_ENTRY_OLDER)");
#define DC_NVRTC_ENTRY(ret, name, params)                                                  \
  static_assert(std::is_same_v<in_cuda_terms::PFN_##name, decltype(&::name)>,              \
                "CUDA ABI: " #name ": the signature differs from nvrtc.h's");
#include "loader/cuda_abi/driver_entry_points.inc"
#include "loader/cuda_abi/nvrtc_declarations.inc"
#include "loader/cuda_abi/nvjitlink_declarations.inc"
#undef DC_CUBLAS_ENTRY
#define DC_CUBLAS_ENTRY(ret, name, params)                                                 \
  static_assert(std::is_same_v<in_cuda_terms::PFN_##name, decltype(&::name)>,              \
                "CUDA ABI: " #name ": the signature differs from cublas_api.h's");
#include "loader/cuda_abi/library_types_declarations.inc"
#include "loader/cuda_abi/cublas_declarations.inc"
#undef DC_CUBLAS_ENTRY
#define DC_CUBLAS_ENTRY(ret, name, params) DC_NVRTC_ENTRY(ret, name, params)
#include "loader/cuda_abi/cufft_declarations.inc"
#include "loader/cuda_abi/nccl_declarations.inc"

// ncclUniqueId, untagged in nccl.h and so declared outside the lists.
static_assert(ours::kNcclUniqueIdBytes == NCCL_UNIQUE_ID_BYTES, "CUDA ABI: ncclUniqueId: the size differs from nccl.h's");
static_assert(sizeof(ours::ncclUniqueId) == sizeof(::ncclUniqueId) && alignof(ours::ncclUniqueId) == alignof(::ncclUniqueId),
              "CUDA ABI: struct ncclUniqueId: the size or alignment differs from nccl.h's");
static_assert(offsetof(ours::ncclUniqueId, internal) == offsetof(::ncclUniqueId, internal),
              "CUDA ABI: field internal: the offset differs from nccl.h's");

// ---------------------------------------------------------------------------
// Run time: pointer constants and exported names.
#undef DC_CU_CONSTANT
#undef DC_CU_POINTER_CONSTANT
#undef DC_CU_ENTRY
#undef DC_CU_ENTRY_OLDER
#undef DC_NVRTC_ENTRY
#define DC_CU_CONSTANT(name, type, value)
#define DC_CU_ENTRY_OLDER(name, version, params)
#define DC_NVRTC_ENTRY(ret, name, params)

namespace {

int g_failures = 0;

void fail(const char* what) {
  std::printf("FAIL: CUDA ABI: %s\n", what);
  ++g_failures;
}

int check_pointer_constants() {
  int checked = 0;
#define DC_CU_POINTER_CONSTANT(name, type, value)                              \
  ++checked;                                                                   \
  if (reinterpret_cast<std::uintptr_t>(name) != ours::dc_constant_##name)      \
    fail("constant " #name ": the value differs from cuda.h's");
#include "loader/cuda_abi/driver_constants.inc"
#undef DC_CU_POINTER_CONSTANT
#define DC_CU_POINTER_CONSTANT(name, type, value)
  return checked;
}

// cuda.h's name -> symbol table, in the order of our_symbol_names.cpp's.
const cuda_abi_check::SymbolName kCudaSymbolNames[] = {
#define DC_CU_ENTRY(name, version, params) {#name, CUDA_ABI_CHECK_STR(name)},
#include "loader/cuda_abi/driver_entry_points.inc"
#undef DC_CU_ENTRY
#define DC_CU_ENTRY(name, version, params)
};

int check_symbol_names() {
  const std::size_t n = sizeof(kCudaSymbolNames) / sizeof(kCudaSymbolNames[0]);
  if (n != cuda_abi_check::kOurSymbolNameCount) {
    fail("the two symbol tables differ in length (build problem)");
    return 0;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const cuda_abi_check::SymbolName& real = kCudaSymbolNames[i];
    const cuda_abi_check::SymbolName& mine = cuda_abi_check::kOurSymbolNames[i];
    if (std::strcmp(real.symbol, mine.symbol) != 0) {
      char what[256];
      std::snprintf(what, sizeof what, "%s is exported as %s (cuda.h), driver_symbols.h says %s", real.name,
                    real.symbol, mine.symbol);
      fail(what);
    }
  }
  return static_cast<int>(n);
}

// How many of each kind the lists hold (printed, so a run shows what it covered).
struct Counts {
  int types = 0, enumerators = 0, fields = 0, constants = 0, entries = 0;
};
constexpr Counts count_lists() {
  Counts c;
#undef DC_CU_SCALAR
#undef DC_CU_HANDLE
#undef DC_CU_CALLBACK
#undef DC_CU_ENUM_BEGIN
#undef DC_CU_ANONYMOUS_ENUM_BEGIN
#undef DC_CU_ENUMERATOR
#undef DC_CU_ENUM_END
#undef DC_CU_STRUCT_BEGIN
#undef DC_CU_UNION_BEGIN
#undef DC_CU_FIELD
#undef DC_CU_ARRAY_FIELD
#undef DC_CU_NESTED_BEGIN
#undef DC_CU_NESTED_FIELD
#undef DC_CU_STRUCT_END
#undef DC_CU_CONSTANT
#undef DC_CU_POINTER_CONSTANT
#undef DC_CU_ENTRY
#undef DC_CU_ENTRY_OLDER
#undef DC_NVRTC_ENTRY
#define DC_CU_SCALAR(name, type) ++c.types;
#define DC_CU_HANDLE(name, tag) ++c.types;
#define DC_CU_CALLBACK(name, ret, params) ++c.types;
#define DC_CU_ENUM_BEGIN(name, tag) ++c.types;
#define DC_CU_ANONYMOUS_ENUM_BEGIN(name) ++c.types;
#define DC_CU_ENUMERATOR(name, value) ++c.enumerators;
#define DC_CU_ENUM_END(name)
#define DC_CU_STRUCT_BEGIN(name, tag) ++c.types;
#define DC_CU_UNION_BEGIN(name, tag) ++c.types;
#define DC_CU_FIELD(type, field) ++c.fields;
#define DC_CU_ARRAY_FIELD(type, field, count) ++c.fields;
#define DC_CU_NESTED_BEGIN(member) ++c.fields;
#define DC_CU_NESTED_FIELD(member, type, field) ++c.fields;
#define DC_CU_STRUCT_END(name)
#define DC_CU_CONSTANT(name, type, value) ++c.constants;
#define DC_CU_POINTER_CONSTANT(name, type, value) ++c.constants;
#define DC_CU_ENTRY(name, version, params) ++c.entries;
#define DC_CU_ENTRY_OLDER(name, version, params) ++c.entries;
#define DC_NVRTC_ENTRY(ret, name, params) ++c.entries;
#include "loader/cuda_abi/driver_types.inc"
#include "loader/cuda_abi/driver_enums.inc"
#include "loader/cuda_abi/driver_structs.inc"
#include "loader/cuda_abi/driver_constants.inc"
#include "loader/cuda_abi/driver_entry_points.inc"
#include "loader/cuda_abi/nvrtc_declarations.inc"
#include "loader/cuda_abi/nvjitlink_declarations.inc"
#include "loader/cuda_abi/library_types_declarations.inc"
#include "loader/cuda_abi/cublas_declarations.inc"
#undef DC_CUFFT_COMPLEX
#define DC_CUFFT_COMPLEX(name, scalar, alignment) ++c.types;
#include "loader/cuda_abi/cufft_declarations.inc"
#include "loader/cuda_abi/cufft_constants.inc"
#include "loader/cuda_abi/nccl_declarations.inc"
  return c;
}

}  // namespace

int main() {
  int pointers = check_pointer_constants();
  int symbols = check_symbol_names();
  constexpr Counts c = count_lists();
  std::printf("CUDA ABI check against the toolkit's headers (CUDA %d.%d, NVRTC headers of the same toolkit):\n",
              CUDA_VERSION / 1000, (CUDA_VERSION % 1000) / 10);
  std::printf("  at compile time: %d types, %d enumerators, %d fields, %d constants, %d entry points\n", c.types,
              c.enumerators, c.fields, c.constants, c.entries);
  std::printf("  at run time: %d pointer constants, %d exported names\n", pointers, symbols);
  if (g_failures) {
    std::printf("CUDA ABI check: %d FAILED\n", g_failures);
    return 1;
  }
  std::printf("CUDA ABI check: PASS\n");
  return 0;
}
