/* Built against an installed dccuda (tests/install/check_install.sh): the
 * header and the library agree on the version, and a call works without a
 * GPU. Prints "consumer: dccuda X.Y.Z" and exits 0, or says what differs. */
#include <dccuda.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  uint32_t header = DCCUDA_VERSION;
  uint32_t library = dc_version();
  if (library != header) {
    fprintf(stderr, "consumer: the header says version %u, the library %u\n", (unsigned)header,
            (unsigned)library);
    return 1;
  }
  if (strcmp(dc_status_name(DC_SUCCESS), "DC_SUCCESS") != 0) {
    fprintf(stderr, "consumer: dc_status_name(DC_SUCCESS) is \"%s\"\n", dc_status_name(DC_SUCCESS));
    return 1;
  }
  printf("consumer: dccuda %d.%d.%d\n", DCCUDA_VERSION_MAJOR, DCCUDA_VERSION_MINOR, DCCUDA_VERSION_PATCH);
  return 0;
}
