# The Rust binding (bindings/rust): `cargo test` of both crates against this build's
# libdccuda through the fake driver, the saxpy and bench_calls samples run on the fake, and
# the release build of the samples for the GPU bundle (target rust_gpu_extra).
# Cargo's output goes to <build>/cargo-target. Without cargo the tests are reported skipped.

# rustup's cargo first: Debian's packaged cargo can be older than the crates need.
find_program(DCCUDA_CARGO cargo PATHS $ENV{CARGO_HOME}/bin $ENV{HOME}/.cargo/bin NO_DEFAULT_PATH)
find_program(DCCUDA_CARGO cargo)
set(DCRUST_DIR ${PROJECT_SOURCE_DIR}/bindings/rust)
set(DCRUST_MIN_VERSION 1.77)  # rust-version in bindings/rust/Cargo.toml (offset_of!)

set(_dcrust_skip "")
if(NOT DCCUDA_CARGO)
  set(_dcrust_skip "cargo not found")
else()
  execute_process(COMMAND ${DCCUDA_CARGO} --version OUTPUT_VARIABLE _dcrust_version ERROR_QUIET)
  if(_dcrust_version MATCHES "^cargo ([0-9]+\\.[0-9]+(\\.[0-9]+)?)")
    set(_dcrust_version ${CMAKE_MATCH_1})
  else()
    set(_dcrust_version "")
  endif()
  if(NOT _dcrust_version OR _dcrust_version VERSION_LESS DCRUST_MIN_VERSION)
    set(_dcrust_skip "${DCCUDA_CARGO} is cargo '${_dcrust_version}', the crates need ${DCRUST_MIN_VERSION} or newer")
  endif()
endif()
if(_dcrust_skip)
  message(STATUS "Rust binding: ${_dcrust_skip}; its tests are registered as skipped")
  foreach(t cargo_test saxpy_sample bench_calls_sample)
    add_test(NAME rust.${t} COMMAND sh -c "echo 'skipped: ${_dcrust_skip}'; exit 77")
    set_tests_properties(rust.${t} PROPERTIES SKIP_RETURN_CODE 77 LABELS "rust;bindings")
  endforeach()
  return()
endif()

get_filename_component(_dcrust_cargo_dir ${DCCUDA_CARGO} DIRECTORY)
# Two fake devices, so that the two-device tests run too.
set(DCRUST_ENV
  PATH=${_dcrust_cargo_dir}:$ENV{PATH}
  DCCUDA_LIB_DIR=$<TARGET_FILE_DIR:dccuda>
  ${DCTEST_FAKE_ENV}
  DCFAKE_DEVICES=2
  DCCUDA_CUBLAS_LIBRARY=${PROJECT_BINARY_DIR}/tests/libdcfake_cublas.so
  DCCUDA_NCCL_LIBRARY=${PROJECT_BINARY_DIR}/tests/libdcfake_nccl.so
  CARGO_TARGET_DIR=${CMAKE_BINARY_DIR}/cargo-target
  CARGO_TERM_COLOR=never
  DCCUDA_CUFFT_LIBRARY=${PROJECT_BINARY_DIR}/tests/libdcfake_cufft.so)

add_test(NAME rust.cargo_test
  COMMAND env ${DCRUST_ENV} ${DCCUDA_CARGO} test --offline --workspace
  WORKING_DIRECTORY ${DCRUST_DIR})
add_test(NAME rust.saxpy_sample
  COMMAND env ${DCRUST_ENV} ${DCCUDA_CARGO} run --offline --quiet -p dccuda --example saxpy -- 100003
  WORKING_DIRECTORY ${DCRUST_DIR})
add_test(NAME rust.bench_calls_sample
  COMMAND env ${DCRUST_ENV} ${DCCUDA_CARGO} run --offline --quiet -p dccuda --example bench_calls -- --repeats 3 --burst 32
  WORKING_DIRECTORY ${DCRUST_DIR})
# A user's crate (tests/rust/downstream): `cargo check` with no libdccuda to be found
# (no DCCUDA_LIB_DIR, DCCUDA_LIBRARY or pkg-config), then built and run with it. The check
# has a target folder of its own: its dccuda-sys is built without the library.
set(DCRUST_DOWNSTREAM ${PROJECT_SOURCE_DIR}/tests/rust/downstream)
add_test(NAME rust.downstream_check_without_library
  COMMAND env -u DCCUDA_LIB_DIR -u DCCUDA_LIBRARY PKG_CONFIG=false PATH=${_dcrust_cargo_dir}:$ENV{PATH}
          CARGO_TARGET_DIR=${CMAKE_BINARY_DIR}/cargo-downstream-check CARGO_TERM_COLOR=never
          ${DCCUDA_CARGO} check --offline
  WORKING_DIRECTORY ${DCRUST_DOWNSTREAM})
add_test(NAME rust.downstream_run
  COMMAND env ${DCRUST_ENV} ${DCCUDA_CARGO} run --offline --quiet
  WORKING_DIRECTORY ${DCRUST_DOWNSTREAM})
# The documentation builds without a warning (-D warnings), and clippy finds nothing
# (where cargo has clippy; otherwise reported skipped).
add_test(NAME rust.doc_without_warnings
  COMMAND env ${DCRUST_ENV} RUSTDOCFLAGS=-Dwarnings ${DCCUDA_CARGO} doc --offline --workspace --no-deps
  WORKING_DIRECTORY ${DCRUST_DIR})
execute_process(COMMAND ${DCCUDA_CARGO} clippy --version RESULT_VARIABLE _dcrust_clippy_rc OUTPUT_QUIET ERROR_QUIET)
if(_dcrust_clippy_rc EQUAL 0)
  add_test(NAME rust.clippy
    COMMAND env ${DCRUST_ENV} ${DCCUDA_CARGO} clippy --offline --workspace --all-targets -- -D warnings
    WORKING_DIRECTORY ${DCRUST_DIR})
else()
  add_test(NAME rust.clippy COMMAND sh -c "echo 'skipped: cargo clippy is not installed'; exit 77")
  set_tests_properties(rust.clippy PROPERTIES SKIP_RETURN_CODE 77)
endif()
set_tests_properties(rust.doc_without_warnings rust.clippy PROPERTIES
  LABELS "rust;bindings;slow" RESOURCE_LOCK dccuda_cargo_target TIMEOUT 1200)
set_tests_properties(rust.downstream_run PROPERTIES PASS_REGULAR_EXPRESSION "downstream \\(Rust crate\\): OK")
set_tests_properties(rust.downstream_check_without_library rust.downstream_run PROPERTIES
  LABELS "rust;bindings;slow" RESOURCE_LOCK dccuda_cargo_target TIMEOUT 1200)
set_tests_properties(rust.saxpy_sample PROPERTIES PASS_REGULAR_EXPRESSION "saxpy \\(Rust\\): PASS")
# One cargo at a time on the shared target folder (cargo would wait for its lock anyway,
# but a waiting test would eat its timeout). The first run compiles both crates.
set_tests_properties(rust.cargo_test rust.saxpy_sample rust.bench_calls_sample PROPERTIES
  LABELS "rust;bindings;slow" RESOURCE_LOCK dccuda_cargo_target TIMEOUT 1200)

# Release builds of the samples into <build>/extra/rust for the GPU bundle.
option(DCCUDA_RUST_GPU_EXTRA "Build the Rust samples for the GPU bundle with the default target"
  ${DCCUDA_BUILD_BENCH})
if(DCCUDA_RUST_GPU_EXTRA)
  set(_dcrust_all ALL)
endif()
add_custom_target(rust_gpu_extra ${_dcrust_all}
  COMMAND ${CMAKE_COMMAND} -E env CARGO=${DCCUDA_CARGO} PATH=${_dcrust_cargo_dir}:$ENV{PATH}
          ${DCRUST_DIR}/build_gpu_extra.sh ${CMAKE_BINARY_DIR}
  DEPENDS dccuda
  COMMENT "Rust samples (release) -> ${CMAKE_BINARY_DIR}/extra/rust"
  VERBATIM USES_TERMINAL)
