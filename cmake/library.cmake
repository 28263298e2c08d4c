# quarry as a library (docs/LIBRARY.md), included by the top-level CMakeLists.txt:
#   quarry_api     the facade of include/quarry/ (src/quarry/api/), in the tests
#   quarry_static  libquarry.a: quarry_lib's, quarry_text's and quarry_api's objects
#                  archived once more (nothing compiled twice)
#   quarry_shared  libquarry.so: the same objects (compiled position-independent
#                  when it is built, so that the engine compiles once), linked
#                  against the codecs' shared libraries; not in sanitizer or fuzz builds
# and `cmake --install` puts both libraries, the headers, quarryConfig.cmake (with
# its version file) and quarry.pc under the prefix. The CLI executables are
# unchanged: they link quarry_lib statically as before.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

file(GLOB QUARRY_API_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/quarry/api/*.cc)
add_library(quarry_api OBJECT ${QUARRY_API_SOURCES})
target_include_directories(quarry_api PUBLIC ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(quarry_api PUBLIC quarry_lib)

add_library(quarry_static STATIC $<TARGET_OBJECTS:quarry_lib> $<TARGET_OBJECTS:quarry_text>
            $<TARGET_OBJECTS:quarry_api>)
set_target_properties(quarry_static PROPERTIES OUTPUT_NAME quarry ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)

# What the libraries link beyond libstdc++, by their pkg-config names: quarry.pc
# requires them, quarryConfig.cmake finds them for the static library, and the
# shared library links their shared objects.
set(QUARRY_PC_REQUIRES libzstd liblz4 libbrotlidec libbrotlienc zlib libxxhash libdeflate lzo2 snappy re2
    protobuf-lite)

option(QUARRY_SHARED "Build libquarry.so (not in sanitizer or fuzz builds)" ON)
if(QUARRY_SHARED AND NOT QUARRY_SANITIZE AND NOT QUARRY_FUZZ)
  # One compile serves the CLI, libquarry.a and libquarry.so: position-independent
  # objects cost the statically linked CLI nothing measurable (Debian's compiler
  # builds position-independent executables already) and a second compile of the
  # engine would add a third to a cold release build.
  set_target_properties(quarry_lib quarry_text quarry_api PROPERTIES POSITION_INDEPENDENT_CODE ON)
  add_library(quarry_shared SHARED $<TARGET_OBJECTS:quarry_lib> $<TARGET_OBJECTS:quarry_text>
              $<TARGET_OBJECTS:quarry_api>)
  set_target_properties(quarry_shared PROPERTIES OUTPUT_NAME quarry VERSION ${PROJECT_VERSION}
                        SOVERSION ${PROJECT_VERSION_MAJOR} LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
  set(QUARRY_SHARED_DEPENDENCIES)
  foreach(module ${QUARRY_PC_REQUIRES})
    string(MAKE_C_IDENTIFIER "QUARRY_SO_${module}" prefix)
    pkg_check_modules(${prefix} REQUIRED IMPORTED_TARGET ${module})
    list(APPEND QUARRY_SHARED_DEPENDENCIES PkgConfig::${prefix})
  endforeach()
  # Every symbol resolved when the library links, not when a program loads it.
  target_link_libraries(quarry_shared PRIVATE ${QUARRY_SHARED_DEPENDENCIES} Threads::Threads)
  target_link_options(quarry_shared PRIVATE -Wl,--no-undefined)
  install(TARGETS quarry_shared LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

install(TARGETS quarry_static ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The public headers, and the reader's own headers they forward to (quarry/parquet.h):
# common/, io/ and formats/ but ORC's, whose headers need its generated protobuf code.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/quarry DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# quarry/arrow.h's C Data and C Stream Interface structs (the rest of arrow/ is internal).
install(FILES ${CMAKE_SOURCE_DIR}/src/quarry/arrow/c_interface.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/quarry/arrow)
foreach(folder common io formats)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/src/quarry/${folder} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/quarry
          FILES_MATCHING PATTERN "*.h" PATTERN "*.inc" PATTERN "orc" EXCLUDE)
endforeach()

set(QUARRY_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/quarry)
string(JOIN " " QUARRY_PC_REQUIRES_TEXT ${QUARRY_PC_REQUIRES})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/quarryConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/package/quarryConfig.cmake INSTALL_DESTINATION ${QUARRY_CMAKE_DIR}
                              PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/quarryConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
# quarry.pc names the prefix from its own place (relocatable): libdir/pkgconfig/../..
file(RELATIVE_PATH QUARRY_PC_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" QUARRY_PC_PREFIX "${QUARRY_PC_PREFIX}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/quarry.pc.in ${CMAKE_BINARY_DIR}/package/quarry.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/quarryConfig.cmake ${CMAKE_BINARY_DIR}/package/quarryConfigVersion.cmake
        DESTINATION ${QUARRY_CMAKE_DIR})
install(FILES ${CMAKE_BINARY_DIR}/package/quarry.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
