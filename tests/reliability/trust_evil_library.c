/*
 * What an attacker would give a privileged program as DCCUDA_DRIVER_LIBRARY
 * or DCCUDA_NVRTC_LIBRARY: its constructor runs when the library is loaded
 * and leaves a mark (the effective user it ran as) in $DCTEST_EVIL_MARK.
 * test_trust_boundaries checks that a set-user-ID program never loads it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void leave_a_mark(void) {
  const char* mark = getenv("DCTEST_EVIL_MARK");
  FILE* f;
  if (!mark) return;
  f = fopen(mark, "a");
  if (!f) return;
  fprintf(f, "ran with euid %d\n", (int)geteuid());
  fclose(f);
}
