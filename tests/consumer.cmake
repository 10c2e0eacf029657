# Installs saltus into a scratch prefix, then configures, builds and runs the
# consumer project of drivers/consumer against it with find_package(saltus).
file(REMOVE_RECURSE ${BINARY_DIR}/consumer-prefix ${BINARY_DIR}/consumer-build)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${BINARY_DIR}/consumer-prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "install failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/drivers/consumer -B ${BINARY_DIR}/consumer-build
                        -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${BINARY_DIR}/consumer-prefix
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer project failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR}/consumer-build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer project failed")
endif()
execute_process(COMMAND ${BINARY_DIR}/consumer-build/my_study RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the consumer program failed")
endif()
