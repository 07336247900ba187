# Writes dccuda.def, the Windows export list, from abi/dccuda.symbols (one
# exported name per line; what the version script abi/dccuda.map exports on
# Linux). Run by the build: cmake -DSYMBOLS=<list> -DOUT=<def> -P dccuda_def.cmake
file(STRINGS ${SYMBOLS} _names REGEX "^[A-Za-z_][A-Za-z0-9_]*$")
list(LENGTH _names _count)
if(_count EQUAL 0)
  message(FATAL_ERROR "${SYMBOLS} names no symbol")
endif()
set(_text "; Generated from abi/dccuda.symbols by cmake/dccuda_def.cmake: do not edit.\nLIBRARY dccuda.dll\nEXPORTS\n")
foreach(_name IN LISTS _names)
  string(APPEND _text "  ${_name}\n")
endforeach()
file(WRITE ${OUT}.tmp "${_text}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
