# build rules for burstd/src/provider/local (appends to the variables declared in Makefile.am)
libburst_a_SOURCES += \
	burstd/src/provider/local/local_provider.cpp \
	burstd/src/provider/local/local_provider.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/local/local_provider_test.cpp
