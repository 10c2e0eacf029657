# saltus_library(<folder>): one static library per top-level folder (its
# subfolders included), aliased saltus::<folder>. Headers are included as
# "<folder>/<path>.h" both in the tree and after installation (under
# include/saltus).
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
endfunction()
