/*
 * The reference layout of every public struct, as the C compiler lays it out.
 *
 * abi/check_abi.py generates layout_fields.inc from abi/api.py (one DC_LAYOUT_STRUCT and
 * one DC_LAYOUT_FIELD per struct and field of include/dccuda.h), compiles this file with
 * it and compares what it prints with each binding's layout program. The line format is
 * the one every layout program prints (abi/README.md):
 *
 *   struct dc_arg size 32 align 8
 *   field dc_arg.offset offset 24 size 8
 */
#include <stddef.h>
#include <stdio.h>
#include "dccuda.h"

#define DC_LAYOUT_STRUCT(s) \
  printf("struct %s size %u align %u\n", #s, (unsigned)sizeof(s), (unsigned)_Alignof(s));
#define DC_LAYOUT_FIELD(s, f) \
  printf("field %s.%s offset %u size %u\n", #s, #f, (unsigned)offsetof(s, f), \
         (unsigned)sizeof(((s*)0)->f));

int main(void) {
#include "layout_fields.inc"
  return 0;
}
