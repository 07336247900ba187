/*
 * The reference value of every constant of the header, as the C compiler evaluates it.
 *
 * abi/check_abi.py generates constant_names.inc from abi/api.py (one DC_CONSTANT(NAME) per
 * constant of include/dccuda.h), compiles this file with it and compares what it prints with
 * each binding's constants program. The line format (abi/README.md):
 *
 *   constant DC_ERROR_INVALID_HANDLE -2
 */
#include <stdio.h>
#include "dccuda.h"

#define DC_CONSTANT(name) printf("constant %s %lld\n", #name, (long long)(name));

int main(void) {
#include "constant_names.inc"
  return 0;
}
