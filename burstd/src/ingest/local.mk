# Snapshot protocol (doc/protocol.md): decoding the plugin's messages, building the
# state from snapshots and deltas, encoding advice and resync requests.
libburst_a_SOURCES += \
	burstd/src/ingest/line_framer.cpp \
	burstd/src/ingest/line_framer.hpp \
	burstd/src/ingest/message_parser.cpp \
	burstd/src/ingest/message_parser.hpp \
	burstd/src/ingest/peer_credentials.cpp \
	burstd/src/ingest/peer_credentials.hpp \
	burstd/src/ingest/plugin_message.cpp \
	burstd/src/ingest/plugin_message.hpp \
	burstd/src/ingest/protocol_message.hpp \
	burstd/src/ingest/recorded_stream.cpp \
	burstd/src/ingest/recorded_stream.hpp \
	burstd/src/ingest/snapshot_assembler.cpp \
	burstd/src/ingest/snapshot_assembler.hpp \
	burstd/src/ingest/snapshot_server.cpp \
	burstd/src/ingest/snapshot_server.hpp \
	burstd/src/ingest/unix_listener.cpp \
	burstd/src/ingest/unix_listener.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/ingest/line_framer_test.cpp \
	tests/unit/ingest/message_parser_test.cpp \
	tests/unit/ingest/plugin_message_test.cpp \
	tests/unit/ingest/recorded_stream_test.cpp \
	tests/unit/ingest/snapshot_assembler_test.cpp \
	tests/unit/ingest/snapshot_server_test.cpp \
	tests/unit/ingest/unix_listener_test.cpp
