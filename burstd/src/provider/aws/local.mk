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
libburst_a_SOURCES += \
	burstd/src/provider/http/http_transport.hpp \
	burstd/src/provider/aws/credential_chain.cpp \
	burstd/src/provider/aws/credential_chain.hpp \
	burstd/src/provider/aws/credential_source.hpp \
	burstd/src/provider/aws/environment_credentials.cpp \
	burstd/src/provider/aws/environment_credentials.hpp \
	burstd/src/provider/aws/environment_lookup.cpp \
	burstd/src/provider/aws/environment_lookup.hpp \
	burstd/src/provider/aws/imds_credentials.cpp \
	burstd/src/provider/aws/imds_credentials.hpp \
	burstd/src/provider/aws/ini_file.cpp \
	burstd/src/provider/aws/ini_file.hpp \
	burstd/src/provider/aws/shared_file_credentials.cpp \
	burstd/src/provider/aws/shared_file_credentials.hpp
tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/aws/credentials_test.cpp \
	tests/unit/provider/aws/scripted_transport.hpp
libburst_a_SOURCES += \
	burstd/src/provider/aws/ec2_error_classifier.cpp \
	burstd/src/provider/aws/ec2_error_classifier.hpp \
	burstd/src/provider/aws/ec2_query.cpp \
	burstd/src/provider/aws/ec2_query.hpp \
	burstd/src/provider/aws/ec2_responses.cpp \
	burstd/src/provider/aws/ec2_responses.hpp \
	burstd/src/provider/aws/xml_document.cpp \
	burstd/src/provider/aws/xml_document.hpp \
	burstd/src/provider/aws/xml_error.hpp
tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/aws/ec2_error_classifier_test.cpp \
	tests/unit/provider/aws/ec2_query_test.cpp \
	tests/unit/provider/aws/ec2_responses_test.cpp \
	tests/unit/provider/aws/fixture.hpp
libburst_a_SOURCES += \
	burstd/src/provider/aws/ec2_client.cpp \
	burstd/src/provider/aws/ec2_client.hpp \
	burstd/src/provider/aws/ec2_provider.cpp \
	burstd/src/provider/aws/ec2_provider.hpp
tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/aws/ec2_provider_test.cpp
