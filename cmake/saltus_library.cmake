# saltus_library(<folder> [JSON]): one static library per top-level folder
# (its subfolders included), aliased saltus::<folder>. Headers are included as
# "<folder>/<path>.h" both in the tree and after installation (under
# include/saltus). Its files are compiled with saltus_precompiled_headers
# (below), nlohmann/json among them with JSON.
function(saltus_library folder)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}
       ${CMAKE_CURRENT_SOURCE_DIR}/*.h)
  add_library(saltus_${folder} STATIC ${sources})
  add_library(saltus::${folder} ALIAS saltus_${folder})
  set_target_properties(saltus_${folder} PROPERTIES EXPORT_NAME ${folder}
                        POSITION_INDEPENDENT_CODE ON)
  target_include_directories(saltus_${folder} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/saltus>)
  foreach(header ${headers})
    get_filename_component(subdir ${header} DIRECTORY)
    install(FILES ${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/saltus/${folder}/${subdir})
  endforeach()
  saltus_precompiled_headers(saltus_${folder} ${ARGN})
endfunction()

# saltus_precompiled_headers(<target> [JSON]): the standard-library, Eigen
# and Ceres headers that nearly every file of saltus includes, parsed once
# per target instead of once per file (1-2 s of CPU less a file, a fifth of
# a typical one: docs/performance.md, "Building"); nlohmann/json too with
# JSON, for the targets whose files mostly read or write it (elsewhere it
# costs more to load than it saves). Third-party headers only: an edit of
# saltus's own headers does not rebuild the precompiled one.
function(saltus_precompiled_headers target)
  set(headers <algorithm> <array> <cmath> <complex> <functional> <limits> <map> <memory> <optional>
              <sstream> <stdexcept> <string> <vector> <Eigen/Dense> <ceres/jet.h>)
  if("JSON" IN_LIST ARGN)
    list(APPEND headers <nlohmann/json.hpp>)
  endif()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()
