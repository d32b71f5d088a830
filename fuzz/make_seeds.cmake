# Makes a folder of fuzz inputs from their committed text form:
#   cmake -DSRC=dir -DDST=dir -P make_seeds.cmake
# The repository holds no binary trace or database files, so inputs that are
# binary are written as text and made here:
#   NAME.sql    -> NAME, a SQLite database built by the sqlite3 shell from
#                  the SQL (a `.dump`, with its page size)
#   NAME.gzip   -> NAME.gz, the file gzip-compressed (gzip -9 -n: the same
#                  bytes on every machine)
#   anything else is copied; README.md is left out.
# DST is emptied first, so a seed removed from SRC leaves the folder too.
if(NOT SRC OR NOT DST)
  message(FATAL_ERROR "make_seeds.cmake: give -DSRC=... and -DDST=...")
endif()
find_program(SQLITE3 sqlite3 REQUIRED)
find_program(GZIP gzip REQUIRED)
file(REMOVE_RECURSE "${DST}")
file(MAKE_DIRECTORY "${DST}")
file(GLOB inputs "${SRC}/*")
foreach(input IN LISTS inputs)
  get_filename_component(name "${input}" NAME)
  if(name STREQUAL "README.md" OR IS_DIRECTORY "${input}")
    continue()
  endif()
  if(name MATCHES "^(.*)\\.sql$")
    execute_process(COMMAND "${SQLITE3}" "${DST}/${CMAKE_MATCH_1}"
                    INPUT_FILE "${input}" RESULT_VARIABLE rc ERROR_VARIABLE err)
  elseif(name MATCHES "^(.*)\\.gzip$")
    execute_process(COMMAND "${GZIP}" -9 -n -c "${input}"
                    OUTPUT_FILE "${DST}/${CMAKE_MATCH_1}.gz" RESULT_VARIABLE rc ERROR_VARIABLE err)
  else()
    file(COPY "${input}" DESTINATION "${DST}")
    set(rc 0)
  endif()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "make_seeds.cmake: ${input}: ${err}")
  endif()
endforeach()
