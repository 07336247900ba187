// The tests' own CPU reference for NCCL's collectives: values of every
// DC_NCCL_* datatype encoded from and decoded to double, and reductions
// computed in double (independent of the fake NCCL's arithmetic).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nccl_ref {

size_t size_of(int32_t datatype);
const char* type_name(int32_t datatype);
const char* op_name(int32_t op);
// `value` (a small integer) written as one element of `datatype` at `out`.
void encode(int32_t datatype, double value, uint8_t* out);
double decode(int32_t datatype, const uint8_t* in);
// The reduction of `values` (one per rank) with DC_NCCL_* op, as the
// datatype would hold it (integers: integer average).
double reduce(int32_t datatype, int32_t op, const std::vector<double>& values);
// How far a result may be from the reference: 0 for integers and exact cases,
// a relative bound for floating types.
double tolerance(int32_t datatype, double expected);

}  // namespace nccl_ref
