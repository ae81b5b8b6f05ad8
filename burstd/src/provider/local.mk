libburst_a_SOURCES += \
	burstd/src/provider/provider.cpp \
	burstd/src/provider/provider.hpp
