# CTest script: fails unless the shared probe runtime depends on nothing but the C
# library (libc, libm, libpthread, the dynamic loader), as DESIGN §2 requires: no
# libstdc++ or libgcc_s in its NEEDED entries, and no C++ runtime or libgcc_s symbol among
# its undefined ones. Also checks that it exports only the idb_* API.
# With -DSANITIZED=ON (a -fsanitize build) the sanitizers' runtimes may be NEEDED, and so
# may libstdc++, which GCC's sanitizer link specification adds on its own; the symbol
# check still shows the runtime uses none of it.
# Usage: cmake -DREADELF=<readelf> -DLIBRARY=<libidb_probe.so> [-DSANITIZED=ON]
#        -P needed_libraries.cmake
function(read_elf option out)
  execute_process(COMMAND ${READELF} ${option} --wide ${LIBRARY}
    OUTPUT_VARIABLE text RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "${READELF} ${option} ${LIBRARY} failed")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

read_elf(-d dynamic)
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]\n]*\\]" entries "${dynamic}")
set(libc_seen FALSE)
foreach(entry IN LISTS entries)
  string(REGEX REPLACE ".*\\[(.*)\\]" "\\1" name "${entry}")
  message(STATUS "NEEDED ${name}")
  if(name MATCHES "^libc\\.so")
    set(libc_seen TRUE)
  elseif(SANITIZED AND name MATCHES "^(lib(a|ub|t|l|hwa)san|libstdc\\+\\+)\\.so")
    # brought in by the build's -fsanitize flags, not by the runtime's code
  elseif(NOT name MATCHES "^(libm|libpthread|ld-linux[-a-z0-9_]*)\\.so")
    message(FATAL_ERROR "${LIBRARY} depends on ${name}; it may need libc (libm, libpthread) only")
  endif()
endforeach()
if(NOT libc_seen)
  message(FATAL_ERROR "no NEEDED libc in ${LIBRARY}: is this the shared runtime?\n${dynamic}")
endif()

# Dynamic symbols: "Num: Value Size Type Bind Vis Ndx Name[@version]".
read_elf(--dyn-syms symbols)
string(REPLACE "\n" ";" lines "${symbols}")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^ *[0-9]+: [0-9a-f]+ +[0-9]+ ([A-Z_]+) +(GLOBAL|WEAK) +[A-Z]+ +([A-Z0-9]+) +([^ ]+)")
    continue()
  endif()
  set(type "${CMAKE_MATCH_1}")
  set(section "${CMAKE_MATCH_3}")
  set(symbol "${CMAKE_MATCH_4}")
  if(section STREQUAL "UND")
    # libc has a few __cxa_ functions of its own (unversioned when a sanitizer wraps them).
    if(symbol MATCHES "@(GLIBCXX|CXXABI|GCC)_"
       OR (symbol MATCHES "^(_Z|__cxa_|__gxx_)" AND NOT symbol MATCHES "@GLIBC_"
           AND NOT symbol MATCHES "^__cxa_(atexit|finalize|thread_atexit_impl)(@|$)"))
      message(FATAL_ERROR "${LIBRARY} uses ${symbol} from the C++ runtime or libgcc_s")
    endif()
  elseif(type MATCHES "^(FUNC|OBJECT|TLS)$" AND NOT symbol MATCHES "^idb_")
    message(FATAL_ERROR "${LIBRARY} exports ${symbol}: only idb_* symbols belong to the API")
  endif()
endforeach()
