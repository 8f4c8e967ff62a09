# Generates a C++ source that holds every resources/presets/<kind>/<id>.json file as a string,
# registered by kind and id. Re-runs whenever a preset file changes.
function(parascope_embed_presets out_cpp)
  set(preset_root "${PROJECT_SOURCE_DIR}/resources/presets")
  file(GLOB_RECURSE preset_files CONFIGURE_DEPENDS "${preset_root}/*.json")
  list(SORT preset_files)
  add_custom_command(
    OUTPUT "${out_cpp}"
    COMMAND ${CMAKE_COMMAND} -DPRESET_ROOT=${preset_root} -DOUT=${out_cpp}
            -P "${PROJECT_SOURCE_DIR}/cmake/GeneratePresetSource.cmake"
    DEPENDS ${preset_files} "${PROJECT_SOURCE_DIR}/cmake/GeneratePresetSource.cmake"
    COMMENT "Embedding ParaScope presets"
    VERBATIM)
endfunction()
