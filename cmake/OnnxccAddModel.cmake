# onnxcc_add_model(<target> MODEL <file.onnx> [NAME <c++ name>]
#                  [DIMS name=value[,value...]...] [FLAGS <onnxcc flags>...]
#                  [TARGET native|x86-64-v3|x86-64-v4|aarch64|generic]
#                  [WEIGHTS incbin|array] [THREADS <n>])
#
# Compiles the model at build time with onnxcc and adds a static library
# <target> holding the generated code and its weights. The model is
# recompiled when the .onnx file or the onnxcc binary changes. Link it and
# #include "<name>.h" to call <name>::predict(). A DIMS entry with several
# sizes (batch=1,8,32) compiles shape buckets behind <name>::predict(rows, ...).
#
# TARGET names the CPU the generated code is built for (only its sources get
# the flags; see docs/user-guide.md):
#   native     -march=native: the build machine's ISA (the default, except
#              when cross-compiling)
#   x86-64-v3  -march=x86-64-v3: AVX2 + FMA (Haswell, Zen and later)
#   x86-64-v4  -march=x86-64-v4: AVX-512 F/BW/CD/DQ/VL
#   aarch64    -march=armv8-a: NEON
#   generic    no flags: the compiler's baseline (SSE2 on x86-64; the
#              default when cross-compiling, where -march is the toolchain's)
#
# WEIGHTS names how the weights are linked (onnxcc --embed-weights):
#   incbin     an assembler unit that .incbin's the blob: fast to build, for
#              GNU-style assemblers (ELF, Mach-O, MinGW); the default
#   array      a C++ array: any C++ compiler; the default for MSVC,
#              WebAssembly (WASI, Emscripten) and compilers without ASM
#
# THREADS n (onnxcc --threads): predict() splits its large convolutions and
# products over n threads, itself and a pool of n - 1 workers that
# <name>::init() (or the first call) starts; the library then links the
# platform's threads (Threads::Threads). Default 1: no pool, no threads.
include_guard(GLOBAL)
# The incbin unit needs the assembler; enable_language() works only at file
# scope, so it is enabled here wherever incbin can be the default.
if(NOT MSVC AND NOT CMAKE_SYSTEM_NAME MATCHES "^(WASI|Emscripten)$")
  enable_language(ASM)
endif()

function(onnxcc_add_model target)
  cmake_parse_arguments(ARG "" "MODEL;NAME;TARGET;WEIGHTS;THREADS" "DIMS;FLAGS"
                        ${ARGN})
  if(NOT ARG_MODEL)
    message(FATAL_ERROR "onnxcc_add_model(${target}): MODEL is required")
  endif()
  if(NOT ARG_NAME)
    set(ARG_NAME ${target})
  endif()
  get_filename_component(model "${ARG_MODEL}" ABSOLUTE)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/onnxcc/${target}")
  # A DIMS entry with several sizes (batch=1,8,32) asks for shape buckets:
  # one more header and source per size.
  set(dim_args)
  set(bucket_files)
  foreach(dim IN LISTS ARG_DIMS)
    list(APPEND dim_args --dim ${dim})
    if(dim MATCHES "^[^=]+=(.*,.*)$")
      string(REPLACE "," ";" sizes "${CMAKE_MATCH_1}")
      list(REMOVE_DUPLICATES sizes)
      foreach(size IN LISTS sizes)
        list(APPEND bucket_files "${out}/${ARG_NAME}_b${size}.h"
                                 "${out}/${ARG_NAME}_b${size}.cpp")
      endforeach()
    endif()
  endforeach()
  set(weights "${ARG_WEIGHTS}")
  if(NOT weights)
    if(MSVC OR CMAKE_SYSTEM_NAME MATCHES "^(WASI|Emscripten)$"
       OR CMAKE_CXX_COMPILER_TARGET MATCHES "^wasm")
      set(weights array)
    else()
      set(weights incbin)
    endif()
  endif()
  if(weights STREQUAL "incbin")
    set(weight_sources "${out}/${ARG_NAME}_weights.S")
    set(generated "${out}/${ARG_NAME}.h" "${out}/${ARG_NAME}.cpp"
                  "${out}/${ARG_NAME}_weights.S" "${out}/${ARG_NAME}.weights.bin")
  elseif(weights STREQUAL "array")
    set(weight_sources "${out}/${ARG_NAME}_weights.cpp")
    set(generated "${out}/${ARG_NAME}.h" "${out}/${ARG_NAME}.cpp" ${weight_sources})
  else()
    message(FATAL_ERROR "onnxcc_add_model(${target}): WEIGHTS must be incbin "
            "or array, got '${weights}'")
  endif()
  list(APPEND generated ${bucket_files})
  if(NOT ARG_THREADS)
    set(ARG_THREADS 1)
  endif()
  if(NOT ARG_THREADS MATCHES "^[1-9][0-9]*$" OR ARG_THREADS GREATER 256)
    message(FATAL_ERROR "onnxcc_add_model(${target}): THREADS must be a "
            "thread count from 1 to 256, got '${ARG_THREADS}'")
  endif()
  set(thread_args)
  if(ARG_THREADS GREATER 1)
    set(thread_args --threads ${ARG_THREADS})
  endif()
  add_custom_command(OUTPUT ${generated}
    COMMAND "${ONNXCC_EXECUTABLE}" compile "${model}" -o "${out}"
            --name ${ARG_NAME} ${dim_args} --embed-weights ${weights}
            ${thread_args} ${ARG_FLAGS}
    DEPENDS "${model}" "${ONNXCC_EXECUTABLE}"
    COMMENT "onnxcc: compiling ${ARG_MODEL}"
    VERBATIM)
  if(weights STREQUAL "incbin")
    set_source_files_properties("${out}/${ARG_NAME}_weights.S" PROPERTIES
      OBJECT_DEPENDS "${out}/${ARG_NAME}.weights.bin")
  endif()
  set(bucket_sources ${bucket_files})
  list(FILTER bucket_sources INCLUDE REGEX "\\.cpp$")
  add_library(${target} STATIC "${out}/${ARG_NAME}.cpp" ${weight_sources}
                               ${bucket_sources})
  # ${out} also lets the assembler's .incbin find the weight blob.
  target_include_directories(${target} PUBLIC "${out}" "${ONNXCC_RUNTIME_INCLUDE_DIR}")
  target_compile_features(${target} PUBLIC cxx_std_17)
  _onnxcc_target_flags(${target} "${ARG_TARGET}")
  if(ARG_THREADS GREATER 1)
    find_package(Threads REQUIRED)
    target_link_libraries(${target} PUBLIC Threads::Threads)
  endif()
endfunction()

# The compile flags of TARGET (see above) on the generated sources.
function(_onnxcc_target_flags target cpu)
  if(NOT cpu)
    if(CMAKE_CROSSCOMPILING)
      set(cpu generic)
    else()
      set(cpu native)
    endif()
  endif()
  if(MSVC)
    set(flags_native "")
    set(flags_x86-64-v3 /arch:AVX2)
    set(flags_x86-64-v4 /arch:AVX512)
    set(flags_aarch64 "")
  else()
    set(flags_native -march=native)
    set(flags_x86-64-v3 -march=x86-64-v3)
    set(flags_x86-64-v4 -march=x86-64-v4)
    set(flags_aarch64 -march=armv8-a)
  endif()
  set(flags_generic "")
  if(NOT DEFINED flags_${cpu})
    message(FATAL_ERROR "onnxcc_add_model(${target}): TARGET must be native, "
            "x86-64-v3, x86-64-v4, aarch64 or generic, got '${cpu}'")
  endif()
  if(flags_${cpu})
    target_compile_options(${target} PRIVATE ${flags_${cpu}})
  endif()
endfunction()
