#!/usr/bin/env python3
"""src/core/cuda_result_names.inc (dc_cuda_error_name's table) names every CUresult of the
toolkit's cuda.h: each `CUDA_SUCCESS` / `CUDA_ERROR_*` enumerator of `enum cudaError_enum`
must have its DC_CUDA_RESULT line. (That every line is a real enumerator, the compiler checks.)

    check_cuda_result_names.py <cuda.h> <cuda_result_names.inc> [--plant-missing NAME]

--plant-missing drops one name from the table before comparing: the planted mistake CTest
expects to fail. Skipped (exit 0, a SKIPPED line) without a toolkit."""

import re
import sys


def main(argv) -> int:
    if len(argv) < 3:
        print(__doc__)
        return 2
    header, table = argv[1], argv[2]
    planted = argv[argv.index("--plant-missing") + 1] if "--plant-missing" in argv else None
    try:
        text = open(header, encoding="utf-8").read()
    except OSError as e:
        print(f"SKIPPED: no cuda.h ({e}): the table cannot be compared with the toolkit")
        return 0
    i = text.find("typedef enum cudaError_enum {")
    j = text.find("} CUresult;", i)
    if i < 0 or j < 0:
        print(f"{header}: no `enum cudaError_enum` ... `CUresult;`: cannot read the CUresults")
        return 1
    names = re.findall(r"^\s*(CUDA_(?:SUCCESS|ERROR_\w+))\s*=", text[i:j], re.M)
    ours = set(re.findall(r"^DC_CUDA_RESULT\((\w+)\)", open(table, encoding="utf-8").read(), re.M))
    if planted:
        ours.discard(planted)
    missing = [n for n in names if n not in ours]
    for n in missing:
        print(f"{table}: no DC_CUDA_RESULT({n}) line: cuda.h has it, so dc_cuda_error_name would answer "
              "CUDA_RESULT_UNKNOWN; add the line")
    print(f"{len(names)} CUresults in {header}, {len(ours)} in the table, {len(missing)} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
