/*
 * The program test_trust_boundaries runs as other users, and as a
 * set-user-ID program: it loads libdccuda.so.1 from its own directory (by
 * absolute path: a set-user-ID program ignores LD_LIBRARY_PATH and $ORIGIN)
 * and reports what dccuda did, one "key=value" per line.
 *
 *   trust_helper driver              load the driver and NVRTC; report where
 *                                    the cache is and the warnings
 *   trust_helper compile FILE ARCH   compile FILE for sm_ARCH; report where
 *                                    the output came from and its digest
 */
#define _GNU_SOURCE 1 /* readlink, dlopen in C99 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dccuda.h"

#define RESOLVE(lib, name) ((__typeof__(&name))dlsym(lib, #name))

/* FNV-1a of the output: enough to tell two images apart. */
static uint64_t digest(const void* data, uint64_t size) {
  const unsigned char* p = (const unsigned char*)data;
  uint64_t h = 1469598103934665603ull;
  uint64_t i;
  for (i = 0; i < size; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

static char* read_all(const char* path) {
  FILE* f = fopen(path, "rb");
  long n;
  char* text;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  text = (char*)calloc((size_t)n + 1, 1);
  if (text && fread(text, 1, (size_t)n, f) != (size_t)n) text[0] = '\0';
  fclose(f);
  return text;
}

int main(int argc, char** argv) {
  char self[4096], lib_path[4200];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  char* slash;
  void* lib;
  const char* dir = "";
  dc_status (*warnings)(const char**);
  if (argc < 2 || n <= 0) return 64;
  self[n] = '\0';
  slash = strrchr(self, '/');
  if (slash) *slash = '\0';
  snprintf(lib_path, sizeof lib_path, "%s/libdccuda.so.1", self);
  lib = dlopen(lib_path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("error=dlopen %s\n", dlerror());
    return 65;
  }
  printf("euid=%d\nuid=%d\n", (int)geteuid(), (int)getuid());
  if (strcmp(argv[1], "driver") == 0) {
    int32_t version = 0, major = 0, minor = 0;
    dc_status d = RESOLVE(lib, dc_driver_version)(&version);
    printf("driver=%s\n", RESOLVE(lib, dc_status_name)(d));
    printf("driver_message=%s\n", RESOLVE(lib, dc_last_error_message)());
    d = RESOLVE(lib, dc_nvrtc_version)(&major, &minor);
    printf("nvrtc=%s\n", RESOLVE(lib, dc_status_name)(d));
  } else if (strcmp(argv[1], "compile") == 0 && argc >= 4) {
    char* source = read_all(argv[2]);
    dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
    dc_program p = NULL;
    dc_status s;
    if (!source) return 66;
    o.arch = atoi(argv[3]);
    s = RESOLVE(lib, dc_compile)(source, "trust.cu", &o, NULL, &p);
    printf("compile=%s\n", RESOLVE(lib, dc_status_name)(s));
    if (s == DC_SUCCESS) {
      int32_t from = -1;
      const void* data = NULL;
      uint64_t size = 0;
      RESOLVE(lib, dc_program_cache_source)(p, &from);
      RESOLVE(lib, dc_program_output)(p, NULL, &data, &size);
      printf("source=%d\nimage=%016llx\n", (int)from, (unsigned long long)digest(data, size));
      RESOLVE(lib, dc_program_release)(p);
    } else {
      printf("compile_message=%s\n", RESOLVE(lib, dc_last_error_message)());
    }
    free(source);
  } else {
    return 64;
  }
  RESOLVE(lib, dc_cache_directory)(&dir);
  printf("cache_dir=%s\n", dir ? dir : "(null)");
  /* Newer libraries say what they refused or ignored. */
  warnings = (dc_status(*)(const char**))dlsym(lib, "dc_config_warnings");
  if (warnings) {
    const char* text = "";
    if (warnings(&text) == DC_SUCCESS) {
      const char* p;
      printf("warnings=");
      for (p = text; *p; ++p) putchar(*p == '\n' ? '|' : *p);
      printf("\n");
    }
  }
  return 0;
}
