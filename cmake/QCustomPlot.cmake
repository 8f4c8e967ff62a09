# QCustomPlot 2.1 for Qt 6, from wherever the platform provides it. Defines the target
# parascope::qcustomplot.
#   1. Debian/Ubuntu libqcustomplot-dev: find_package(QCustomPlotQt6) (a shared library).
#   2. Conan's qcustomplot package (Windows, macOS): find_package(qcustomplot), target
#      qcustomplot::qcustomplot.
#   3. The official release's qcustomplot.h/.cpp (qcustomplot.com, "QCustomPlot.tar.gz"):
#      -DPARASCOPE_QCUSTOMPLOT_SOURCE_DIR=/path/to/qcustomplot, compiled here as a static library.

set(PARASCOPE_QCUSTOMPLOT_SOURCE_DIR "" CACHE PATH "Folder with qcustomplot.h and qcustomplot.cpp (when no package provides QCustomPlot)")

add_library(parascope_qcustomplot INTERFACE)
add_library(parascope::qcustomplot ALIAS parascope_qcustomplot)

find_package(QCustomPlotQt6 CONFIG QUIET)
if(TARGET QCustomPlotQt6::QCustomPlotQt6)
  # Debian's build is a shared library: its header wants QCUSTOMPLOT_USE_LIBRARY.
  target_link_libraries(parascope_qcustomplot INTERFACE QCustomPlotQt6::QCustomPlotQt6)
  target_compile_definitions(parascope_qcustomplot INTERFACE QCUSTOMPLOT_USE_LIBRARY)
  message(STATUS "QCustomPlot: QCustomPlotQt6 package")
  return()
endif()

find_package(qcustomplot CONFIG QUIET)
if(TARGET qcustomplot::qcustomplot)
  target_link_libraries(parascope_qcustomplot INTERFACE qcustomplot::qcustomplot)
  message(STATUS "QCustomPlot: qcustomplot package (Conan)")
  return()
endif()

if(PARASCOPE_QCUSTOMPLOT_SOURCE_DIR AND EXISTS "${PARASCOPE_QCUSTOMPLOT_SOURCE_DIR}/qcustomplot.cpp")
  add_library(parascope_qcustomplot_static STATIC "${PARASCOPE_QCUSTOMPLOT_SOURCE_DIR}/qcustomplot.cpp")
  set_target_properties(parascope_qcustomplot_static PROPERTIES AUTOMOC ON)
  target_include_directories(parascope_qcustomplot_static SYSTEM PUBLIC "${PARASCOPE_QCUSTOMPLOT_SOURCE_DIR}")
  target_link_libraries(parascope_qcustomplot_static PUBLIC Qt6::Widgets Qt6::PrintSupport)
  target_link_libraries(parascope_qcustomplot INTERFACE parascope_qcustomplot_static)
  message(STATUS "QCustomPlot: compiled from ${PARASCOPE_QCUSTOMPLOT_SOURCE_DIR}")
  return()
endif()

message(FATAL_ERROR "QCustomPlot 2.1 (Qt 6) not found. Install libqcustomplot-dev (Debian/Ubuntu), the Conan "
                    "package qcustomplot, or pass -DPARASCOPE_QCUSTOMPLOT_SOURCE_DIR=<folder with qcustomplot.cpp>.")
