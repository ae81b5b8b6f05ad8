# build rules for burstd/src/ledger (appends to the variables declared in Makefile.am)
libburst_a_SOURCES += \
	burstd/src/ledger/ledger.cpp \
	burstd/src/ledger/ledger.hpp \
	burstd/src/ledger/ledger_window.cpp \
	burstd/src/ledger/ledger_window.hpp \
	burstd/src/ledger/reconciler.cpp \
	burstd/src/ledger/reconciler.hpp \
	burstd/src/ledger/sqlite_connection.cpp \
	burstd/src/ledger/sqlite_connection.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/ledger/ledger_test.cpp \
	tests/unit/ledger/ledger_window_test.cpp \
	tests/unit/ledger/reconciler_test.cpp
