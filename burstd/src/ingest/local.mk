# Snapshot protocol (doc/protocol.md): message decoding and advice encoding.
libburst_a_SOURCES += \
	burstd/src/ingest/advice_message.cpp \
	burstd/src/ingest/advice_message.hpp \
	burstd/src/ingest/line_framer.cpp \
	burstd/src/ingest/line_framer.hpp \
	burstd/src/ingest/message_parser.cpp \
	burstd/src/ingest/message_parser.hpp \
	burstd/src/ingest/peer_credentials.cpp \
	burstd/src/ingest/peer_credentials.hpp \
	burstd/src/ingest/protocol_message.hpp \
	burstd/src/ingest/snapshot_server.cpp \
	burstd/src/ingest/snapshot_server.hpp \
	burstd/src/ingest/unix_listener.cpp \
	burstd/src/ingest/unix_listener.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/ingest/advice_message_test.cpp \
	tests/unit/ingest/line_framer_test.cpp \
	tests/unit/ingest/message_parser_test.cpp \
	tests/unit/ingest/snapshot_server_test.cpp \
	tests/unit/ingest/unix_listener_test.cpp
