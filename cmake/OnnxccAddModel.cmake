# onnxcc_add_model(<target> MODEL <file.onnx> [NAME <c++ name>]
#                  [DIMS name=value...] [FLAGS <onnxcc flags>...])
#
# Compiles the model at build time with onnxcc and adds a static library
# <target> holding the generated code and its weights. The model is
# recompiled when the .onnx file or the onnxcc binary changes. Link it and
# #include "<name>.h" to call <name>::predict().
include_guard(GLOBAL)
enable_language(ASM) # the weights are linked through an .incbin unit

function(onnxcc_add_model target)
  cmake_parse_arguments(ARG "" "MODEL;NAME" "DIMS;FLAGS" ${ARGN})
  if(NOT ARG_MODEL)
    message(FATAL_ERROR "onnxcc_add_model(${target}): MODEL is required")
  endif()
  if(NOT ARG_NAME)
    set(ARG_NAME ${target})
  endif()
  get_filename_component(model "${ARG_MODEL}" ABSOLUTE)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/onnxcc/${target}")
  set(dim_args)
  foreach(dim IN LISTS ARG_DIMS)
    list(APPEND dim_args --dim ${dim})
  endforeach()
  set(generated "${out}/${ARG_NAME}.h" "${out}/${ARG_NAME}.cpp"
                "${out}/${ARG_NAME}_weights.S" "${out}/${ARG_NAME}.weights.bin")
  add_custom_command(OUTPUT ${generated}
    COMMAND "${ONNXCC_EXECUTABLE}" compile "${model}" -o "${out}"
            --name ${ARG_NAME} ${dim_args} ${ARG_FLAGS}
    DEPENDS "${model}" "${ONNXCC_EXECUTABLE}"
    COMMENT "onnxcc: compiling ${ARG_MODEL}"
    VERBATIM)
  set_source_files_properties("${out}/${ARG_NAME}_weights.S" PROPERTIES
    OBJECT_DEPENDS "${out}/${ARG_NAME}.weights.bin")
  add_library(${target} STATIC "${out}/${ARG_NAME}.cpp" "${out}/${ARG_NAME}_weights.S")
  # ${out} also lets the assembler's .incbin find the weight blob.
  target_include_directories(${target} PUBLIC "${out}" "${ONNXCC_RUNTIME_INCLUDE_DIR}")
  target_compile_features(${target} PUBLIC cxx_std_17)
endfunction()
