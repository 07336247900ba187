// Defines the DC_CU_* list macros to declare what the lists name (used by
// driver_abi.h and nvrtc_abi.h, undone by declare_end.h). No include guard:
// each header that expands lists includes it.
//
// With DC_CUDA_ABI_CHECK defined (tests/cuda_abi only), the constants are
// declared as dc_constant_<name>: the check includes the real cuda.h next,
// whose macros of the same names would otherwise replace them.

#define DC_CU_SCALAR(name, type) typedef type name;
#define DC_CU_HANDLE(name, tag) typedef struct tag* name;
#define DC_CU_CALLBACK(name, ret, params) typedef ret(CUDA_CB* name) params;

#define DC_CU_ENUM_BEGIN(name, tag) typedef enum tag : int {
#define DC_CU_ANONYMOUS_ENUM_BEGIN(name) typedef enum : int {
#define DC_CU_ENUMERATOR(name, value) name = value,
#define DC_CU_ENUM_END(name) \
  }                          \
  name;

#define DC_CU_STRUCT_BEGIN(name, tag) typedef struct tag {
#define DC_CU_UNION_BEGIN(name, tag) typedef union tag {
#define DC_CU_FIELD(type, field) type field;
#define DC_CU_ARRAY_FIELD(type, field, count) type field[count];
#define DC_CU_NESTED_BEGIN(member) struct {
#define DC_CU_NESTED_FIELD(member, type, field) type field;
#define DC_CU_ANONYMOUS_UNION_BEGIN() union {
#define DC_CU_ANONYMOUS_UNION_END() };
#define DC_CU_NESTED_END(member) \
  }                              \
  member;
#define DC_CU_STRUCT_END(name) \
  }                            \
  name;

#ifdef DC_CUDA_ABI_CHECK
#define DC_CU_CONSTANT(name, type, value) inline constexpr type dc_constant_##name = value;
#define DC_CU_POINTER_CONSTANT(name, type, value) inline constexpr std::uintptr_t dc_constant_##name = value;
#else
#define DC_CU_CONSTANT(name, type, value) inline constexpr type name = value;
// Not constexpr (a pointer from an integer never is); constant-initialised all the same.
#define DC_CU_POINTER_CONSTANT(name, type, value) \
  inline type const name = reinterpret_cast<type>(static_cast<std::uintptr_t>(value));
#endif

#define DC_CU_ENTRY(name, version, params) typedef CUresult(CUDAAPI* PFN_##name##_v##version) params;
// Written out, not forwarded to DC_CU_ENTRY: a forwarded argument would be
// macro-expanded (cuMemAlloc to cuMemAlloc_v2) where driver_symbols.h is in effect.
#define DC_CU_ENTRY_OLDER(name, version, params) typedef CUresult(CUDAAPI* PFN_##name##_v##version) params;
#define DC_NVRTC_ENTRY(ret, name, params) typedef ret (*PFN_##name) params;
#define DC_NVJITLINK_ENTRY(ret, name, params) typedef ret (*PFN_##name) params;
#define DC_CUBLAS_ENTRY(ret, name, params) typedef ret (*PFN_##name) params;
#define DC_CUFFT_ENTRY(ret, name, params) typedef ret (*PFN_##name) params;
#define DC_CUFFT_COMPLEX(name, scalar, alignment) \
  typedef struct alignas(alignment) {              \
    scalar x;                                      \
    scalar y;                                      \
  } name;
#define DC_NCCL_ENTRY(ret, name, params) typedef ret (*PFN_##name) params;
