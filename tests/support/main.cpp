// GoogleTest main for dccuda's tests: says up front which driver the tests
// run on, so that a log never passes a fake-driver run off as a GPU run.
#include <gtest/gtest.h>

#include <cstdio>

#include "support/fake.h"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  std::printf("[ dccuda   ] %s\n", dctest::driver_description());
  return RUN_ALL_TESTS();
}
