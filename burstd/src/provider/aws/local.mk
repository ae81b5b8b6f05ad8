# build rules for burstd/src/provider/aws (appends to the variables declared in Makefile.am)
# The provider-neutral HTTP layer (burstd/src/provider/http) is built from here
# too, so that adding it needed no edit to Makefile.am.
libburst_a_SOURCES += \
	burstd/src/provider/http/http_message.cpp \
	burstd/src/provider/http/http_message.hpp \
	burstd/src/provider/http/http_request_parser.cpp \
	burstd/src/provider/http/http_request_parser.hpp \
	burstd/src/provider/aws/aws_credentials.hpp \
	burstd/src/provider/aws/sha256.cpp \
	burstd/src/provider/aws/sha256.hpp \
	burstd/src/provider/aws/sigv4_signer.cpp \
	burstd/src/provider/aws/sigv4_signer.hpp \
	burstd/src/provider/aws/uri_encoding.cpp \
	burstd/src/provider/aws/uri_encoding.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/aws/sigv4_suite_test.cpp
tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/aws/sigv4_signer_test.cpp \
	tests/unit/provider/http/http_request_parser_test.cpp
