libburst_a_SOURCES += \
	burstd/src/provider/provider.hpp
libburst_a_SOURCES += \
	burstd/src/provider/owning_provider.hpp \
	burstd/src/provider/provider_environment.hpp
