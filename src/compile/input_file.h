// Reading a link input from a file: a regular file (a symbolic link to one is
// followed) of at most 2 GiB, read whole. The same rules as a module file
// (module/module_file.h), with messages that speak of link inputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dc {

// The file's bytes. `argument` names where the path came from
// ("inputs[2].path"). Fails with DC_ERROR_NOT_FOUND, DC_ERROR_IO or
// DC_ERROR_INVALID_IMAGE (empty, too large).
std::vector<uint8_t> read_input_file(const std::string& path, const std::string& argument);

}  // namespace dc
