# Python package tests (docs/python.md): every test/python/**/test_*.py is
# its own ctest entry, run by the interpreter the package is built for
# (/usr/bin/python3 unless -DPython3_EXECUTABLE=...) with pytest, against the
# package in <build>/python. Label `python`. Absent when the package is not
# built (no pybind11 or Python headers: python/CMakeLists.txt says why).
if(LAKESTREAM_PYTHON_BUILT)
  file(GLOB_RECURSE PYTHON_TESTS CONFIGURE_DEPENDS RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}/python
       ${CMAKE_CURRENT_SOURCE_DIR}/python/test_*.py)
  foreach(py_test ${PYTHON_TESTS})
    string(REGEX REPLACE "\\.py$" "" py_name ${py_test})
    add_test(NAME python/${py_name}
      COMMAND ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider ${CMAKE_CURRENT_SOURCE_DIR}/python/${py_test}
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(python/${py_name} PROPERTIES LABELS python TIMEOUT 300
      ENVIRONMENT "PYTHONPATH=${CMAKE_BINARY_DIR}/python;LAKESTREAM_SHELL=$<TARGET_FILE:lakestream>;LAKESTREAM_SHARED_DIR=${LAKESTREAM_SHARED_DIR};PYTHONDONTWRITEBYTECODE=1")
  endforeach()
  # `make install` (cmake --install) stages an importable package: the
  # extension and every .py file, found through site-packages alone.
  add_test(NAME python/install
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/python/install_test.sh ${CMAKE_BINARY_DIR} ${Python3_EXECUTABLE}
            ${LAKESTREAM_PYTHON_INSTALL_DIR} ${PROJECT_SOURCE_DIR}/python/lakestream
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(python/install PROPERTIES LABELS python TIMEOUT 120)
  # `pip install .` into a fresh venv and `python3 -m build --wheel`, offline,
  # reusing this build directory (docs/python.md "Installing with pip").
  add_test(NAME python/pip_install
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/python/pip_install_test.sh ${CMAKE_BINARY_DIR} ${Python3_EXECUTABLE}
            ${PROJECT_SOURCE_DIR}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(python/pip_install PROPERTIES LABELS python TIMEOUT 900 RUN_SERIAL TRUE)
endif()
