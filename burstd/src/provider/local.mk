# build rules for burstd/src/provider (appends to the variables declared in Makefile.am)
# What every provider type shares; each type's own files are in its folder's local.mk.
libburst_a_SOURCES += \
	burstd/src/provider/budgeted_transport.cpp \
	burstd/src/provider/budgeted_transport.hpp \
	burstd/src/provider/http/request_budget.cpp \
	burstd/src/provider/http/request_budget.hpp \
	burstd/src/provider/http/throttled_transport.cpp \
	burstd/src/provider/http/throttled_transport.hpp \
	burstd/src/provider/http/token_bucket.cpp \
	burstd/src/provider/http/token_bucket.hpp \
	burstd/src/provider/owning_provider.hpp \
	burstd/src/provider/provider.hpp \
	burstd/src/provider/provider_builder.hpp \
	burstd/src/provider/provider_environment.hpp \
	burstd/src/provider/provider_keys.cpp \
	burstd/src/provider/provider_keys.hpp \
	burstd/src/provider/provider_registry.cpp \
	burstd/src/provider/provider_registry.hpp \
	burstd/src/provider/provider_spec.hpp \
	burstd/src/provider/cloud/bearer_token_source.hpp \
	burstd/src/provider/cloud/oauth_token_response.cpp \
	burstd/src/provider/cloud/oauth_token_response.hpp \
	burstd/src/provider/cloud/param_reader.hpp \
	burstd/src/provider/cloud/parallel_for.hpp \
	burstd/src/provider/cloud/provider_params.hpp \
	burstd/src/provider/cloud/secret_file.cpp \
	burstd/src/provider/cloud/secret_file.hpp \
	burstd/src/provider/cloud/sha256.cpp \
	burstd/src/provider/cloud/sha256.hpp \
	burstd/src/provider/cloud/uri_encoding.cpp \
	burstd/src/provider/cloud/uri_encoding.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/http/throttled_transport_test.cpp \
	tests/unit/provider/http/token_bucket_test.cpp \
	tests/unit/provider/provider_registry_test.cpp
