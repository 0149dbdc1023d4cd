# adjoint_generate(<target> SOURCES <files...> FUNCTIONS <names...> [MODE grad|jvp] [OPTIONS <args...>])
#
# Adds, for every function and the source that defines it (with several SOURCES, found by `adjoint
# definitions`), a build step running `adjoint <mode>` that writes
# <build dir>/adjoint/<target>/<source stem>.<function>.<mode>.cpp and .h (the function as its name
# goes in a file name: Chain::energy as Chain_energy, dot<double> as dot_double; .cu and .h for a .cu
# source: kernels and their launchers, for a target with CUDA enabled), and adds the source to <target>
# (the .h directory and Adjoint's runtime headers go on its include path). The step sees the
# target's include directories, compile definitions, C++ standard and the compile options that
# change what the parse sees (-D, -std, -march, -fno-exceptions, ...), and its depfile lists the source and every
# header it includes: editing any of them regenerates, and nothing else does. OPTIONS go to the
# tool (for example --wrt a,b or --line-directives); those after a `--` in OPTIONS are compiler
# flags, passed after the target's own (OPTIONS --wrt x -- -std=c++20).
function(adjoint_generate target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "MODE" "SOURCES;FUNCTIONS;OPTIONS")
  if(NOT ARG_MODE)
    set(ARG_MODE grad)
  endif()
  if(NOT ARG_MODE MATCHES "^(grad|jvp)$")
    message(FATAL_ERROR "adjoint_generate: MODE must be grad or jvp, not '${ARG_MODE}'")
  endif()
  if(NOT ARG_SOURCES OR NOT ARG_FUNCTIONS)
    message(FATAL_ERROR "adjoint_generate: SOURCES and FUNCTIONS are required")
  endif()
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/adjoint/${target})
  file(MAKE_DIRECTORY ${out_dir})
  _adjoint_compile_flags(${target} include_flags parse_flags)
  _adjoint_split_options("${ARG_OPTIONS}" tool_options compiler_options)
  _adjoint_sources_of_functions("${ARG_SOURCES}" "${ARG_FUNCTIONS}")
  foreach(source ${ARG_SOURCES})
    get_filename_component(source_path ${source} ABSOLUTE)
    get_filename_component(stem ${source} NAME_WE)
    get_filename_component(extension ${source} LAST_EXT)
    set(out_extension .cpp)
    if(extension STREQUAL ".cu")
      set(out_extension .cu)
    endif()
    foreach(fn ${_adjoint_functions_of_${source}})
      # Chain::energy, dot<double>: Chain_energy, dot_double in file names (ir::identifier, as `adjoint check`
      # names them)
      string(REGEX REPLACE "[^A-Za-z0-9_]+" "_" file_fn "${fn}")
      if(NOT fn MATCHES "_$")
        string(REGEX REPLACE "_+$" "" file_fn "${file_fn}")
      endif()
      set(out ${out_dir}/${stem}.${file_fn}.${ARG_MODE}${out_extension})
      set(header ${out_dir}/${stem}.${file_fn}.${ARG_MODE}.h)
      add_custom_command(
        OUTPUT ${out} ${header}
        COMMAND Adjoint::adjoint ${ARG_MODE} ${source_path} --fn ${fn} -o ${out} --depfile ${out}.d ${tool_options} -- "${include_flags}" "${parse_flags}" ${compiler_options}
        DEPENDS ${source_path} $<TARGET_FILE:Adjoint::adjoint>
        DEPFILE ${out}.d
        COMMAND_EXPAND_LISTS
        COMMENT "adjoint ${ARG_MODE} ${stem} --fn ${fn}"
        VERBATIM)
      target_sources(${target} PRIVATE ${out})
    endforeach()
  endforeach()
  target_include_directories(${target} PRIVATE ${out_dir} ${ADJOINT_INCLUDE_DIR})
endfunction()

# adjoint_add_check(<name> SOURCE <file> FUNCTION <name> [CPU] [OPTIONS <args...>] [LINK <targets...>])
#
# Builds the verification harness of `adjoint check` (finite differences and the dot-product test
# on random inputs) for one function as the executable <name>, and registers it as a CTest test.
# For a kernel (a .cu source) the harness is CUDA and runs on the GPU; with CPU, it and the
# generated kernels are compiled as C++ and run on the CPU execution of kernels instead.
function(adjoint_add_check name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "CPU" "SOURCE;FUNCTION" "OPTIONS;LINK;INCLUDE_DIRECTORIES")
  get_filename_component(source_path ${ARG_SOURCE} ABSOLUTE)
  get_filename_component(extension ${ARG_SOURCE} LAST_EXT)
  set(harness_extension .cpp)
  if(extension STREQUAL ".cu")
    set(harness_extension .cu)
  endif()
  set(harness ${CMAKE_CURRENT_BINARY_DIR}/adjoint/${name}.check${harness_extension})
  set(include_flags)
  foreach(dir ${ARG_INCLUDE_DIRECTORIES})
    list(APPEND include_flags -I${dir})
  endforeach()
  _adjoint_split_options("${ARG_OPTIONS}" tool_options compiler_options)
  add_custom_command(
    OUTPUT ${harness}
    COMMAND Adjoint::adjoint check ${source_path} --fn ${ARG_FUNCTION} --emit-harness ${harness} ${tool_options} -- ${include_flags} ${compiler_options}
    DEPENDS ${source_path} $<TARGET_FILE:Adjoint::adjoint>
    COMMENT "adjoint check --emit-harness ${ARG_FUNCTION}"
    VERBATIM)
  add_executable(${name} ${harness})
  adjoint_generate(${name} SOURCES ${ARG_SOURCE} FUNCTIONS ${ARG_FUNCTION} MODE grad OPTIONS ${ARG_OPTIONS})
  adjoint_generate(${name} SOURCES ${ARG_SOURCE} FUNCTIONS ${ARG_FUNCTION} MODE jvp OPTIONS ${ARG_OPTIONS})
  target_include_directories(${name} PRIVATE ${ARG_INCLUDE_DIRECTORIES})
  if(ARG_CPU AND harness_extension STREQUAL ".cu")
    get_target_property(sources ${name} SOURCES)
    set_source_files_properties(${sources} TARGET_DIRECTORY ${name} PROPERTIES LANGUAGE CXX)
    target_compile_definitions(${name} PRIVATE ADJOINT_CPU_EXECUTION)
  endif()
  if(ARG_LINK)
    target_link_libraries(${name} PRIVATE ${ARG_LINK})
  endif()
  add_test(NAME ${name} COMMAND ${name})
endfunction()

# For each of `sources`, in _adjoint_functions_of_<source>, the `functions` it defines: with one
# source, all of them; with several, those `adjoint definitions` finds in it (it reads the source
# without preprocessing, so the target's flags are not needed yet). A function that no source
# defines is an error.
function(_adjoint_sources_of_functions sources functions)
  list(LENGTH sources count)
  if(count EQUAL 1)
    set(_adjoint_functions_of_${sources} ${functions} PARENT_SCOPE)
    return()
  endif()
  get_target_property(imported Adjoint::adjoint IMPORTED)
  if(NOT imported)
    message(FATAL_ERROR "adjoint_generate: several SOURCES need the installed tool (find_package(Adjoint))")
  endif()
  get_target_property(tool Adjoint::adjoint LOCATION)
  foreach(source ${sources})
    get_filename_component(path ${source} ABSOLUTE)
    execute_process(COMMAND ${tool} definitions ${path} OUTPUT_VARIABLE defined RESULT_VARIABLE status
                    ERROR_VARIABLE error)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "adjoint_generate: `adjoint definitions ${source}` failed: ${error}")
    endif()
    string(REGEX REPLACE "\n" ";" defined "${defined}")
    set(mine)
    foreach(fn ${functions})
      string(REGEX REPLACE "<.*$" "" name "${fn}")  # dot<double> is defined as dot
      if(name IN_LIST defined)
        list(APPEND mine ${fn})
        set(found_${fn} TRUE)
      endif()
    endforeach()
    set(_adjoint_functions_of_${source} ${mine} PARENT_SCOPE)
  endforeach()
  foreach(fn ${functions})
    if(NOT found_${fn})
      message(FATAL_ERROR "adjoint_generate: none of ${sources} defines '${fn}' (as `adjoint definitions` reads them)")
    endif()
  endforeach()
endfunction()

# OPTIONS split at their first `--`: the tool's options before it, compiler flags after it.
function(_adjoint_split_options options tool_out compiler_out)
  list(FIND options "--" dashes)
  set(tool "${options}")
  set(compiler "")
  if(NOT dashes EQUAL -1)
    list(SUBLIST options 0 ${dashes} tool)
    math(EXPR first "${dashes} + 1")
    list(SUBLIST options ${first} -1 compiler)
  endif()
  set(${tool_out} "${tool}" PARENT_SCOPE)
  set(${compiler_out} "${compiler}" PARENT_SCOPE)
endfunction()

# The target's include directories, definitions, C++ standard and the compile options that change
# what a parse sees, as compiler flags for the tool: one argument each, split into several by
# COMMAND_EXPAND_LISTS after generator expressions ran. Other options (warnings, optimization,
# another compiler's own) are left out: Clang rejects those it does not know.
function(_adjoint_compile_flags target include_out flags_out)
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(standard "$<TARGET_PROPERTY:${target},CXX_STANDARD>")
  # The options that change what the parse sees: the standard, macros, the target machine (its
  # intrinsics' macros), language switches.
  set(parse_options "^-(std=|[DU]|march=|mcpu=|f(no-)?(exceptions|rtti|openmp|signed-char|unsigned-char|char8_t|fast-math)$)")
  set(options "$<FILTER:$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>,INCLUDE,${parse_options}>")
  set(${include_out} "$<$<BOOL:${includes}>:-I$<JOIN:${includes},$<SEMICOLON>-I>>" PARENT_SCOPE)
  set(${flags_out} "$<$<BOOL:${defines}>:-D$<JOIN:${defines},$<SEMICOLON>-D>>;$<$<BOOL:${standard}>:-std=c++${standard}>;${options}" PARENT_SCOPE)
endfunction()
