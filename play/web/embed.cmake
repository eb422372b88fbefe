# cmake -DOUTPUT=assets.cpp -DROOT=play/web/page -DGENERATED=build/play/web/page -P embed.cmake
# Writes a C++ file holding the bytes of each file in ROOT and in GENERATED
# (the page's files written at build time: tables.js, by page_tables), for
# play/web/assets.h.
file(GLOB FILES LIST_DIRECTORIES false "${ROOT}/*")
file(GLOB GENERATED_FILES LIST_DIRECTORIES false "${GENERATED}/*")
list(APPEND FILES ${GENERATED_FILES})
list(SORT FILES)
set(body "")
set(table "")
set(index 0)
foreach(file IN LISTS FILES)
  file(READ "${file}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
  list(FIND GENERATED_FILES "${file}" generated_at)
  if(generated_at GREATER -1)
    file(RELATIVE_PATH name "${GENERATED}" "${file}")
  else()
    file(RELATIVE_PATH name "${ROOT}" "${file}")
  endif()
  get_filename_component(extension "${file}" LAST_EXT)
  if(extension STREQUAL ".html")
    set(type "text/html; charset=utf-8")
  elseif(extension STREQUAL ".js")
    set(type "text/javascript; charset=utf-8")
  elseif(extension STREQUAL ".css")
    set(type "text/css; charset=utf-8")
  elseif(extension STREQUAL ".svg")
    set(type "image/svg+xml")
  else()
    message(FATAL_ERROR "embed.cmake: no content type for ${file}")
  endif()
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  string(APPEND body "constexpr char file${index}[] = {${bytes} 0};\n")
  string(APPEND table "    {\"/${name}\", \"${type}\", {file${index}, ${size}}},\n")
  math(EXPR index "${index} + 1")
endforeach()
file(WRITE "${OUTPUT}.new" "// Written by play/web/embed.cmake from play/web/page/: do not edit.\n"
     "#include \"web/assets.h\"\n\nnamespace stack::web {\nnamespace {\n${body}\n"
     "constexpr Asset Assets[] = {\n${table}};\n}  // namespace\n\n"
     "const Asset* find_asset(std::string_view path) {\n"
     "    if (path == \"/\")\n        path = \"/index.html\";\n"
     "    for (const Asset& asset : Assets)\n        if (asset.path == path)\n            return &asset;\n"
     "    return nullptr;\n}\n\n"
     "std::size_t asset_count() { return sizeof Assets / sizeof Assets[0]; }\n"
     "const Asset& asset(std::size_t index) { return Assets[index]; }\n\n}  // namespace stack::web\n")
file(RENAME "${OUTPUT}.new" "${OUTPUT}")
