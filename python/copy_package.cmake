# Copies every .py file under SRC into DST (same relative paths), only those
# that changed, and removes copies whose source is gone: run on every build.
file(GLOB_RECURSE sources RELATIVE ${SRC} ${SRC}/*.py)
foreach(f ${sources})
  configure_file(${SRC}/${f} ${DST}/${f} COPYONLY)
endforeach()
file(GLOB_RECURSE copies RELATIVE ${DST} ${DST}/*.py)
foreach(f ${copies})
  if(NOT EXISTS ${SRC}/${f})
    file(REMOVE ${DST}/${f})
  endif()
endforeach()
