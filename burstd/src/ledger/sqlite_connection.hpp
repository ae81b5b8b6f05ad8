#pragma once
// Minimal RAII over SQLite's C API: one owner for each sqlite3* and
// sqlite3_stmt*, errors turned into exceptions that name the database file.

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace burst {

class SqliteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class SqliteStatement;

class SqliteConnection {
public:
    // Opens (creating if asked) the database at `path`.
    SqliteConnection(const std::string& path, bool create);

    const std::string& path() const { return path_; }
    // Runs one or more statements that return no rows.
    void exec(std::string_view sql);
    // Abandons the open transaction, if any; never throws (used while unwinding).
    void rollback() noexcept;
    SqliteStatement prepare(std::string_view sql);
    std::int64_t changes() const;
    std::int64_t last_insert_rowid() const;
    // "<what> on <path>: <sqlite message>", for every failure.
    [[noreturn]] void fail(std::string_view what) const;

private:
    friend class SqliteStatement;
    struct Closer {
        void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
    };
    std::string path_;
    std::unique_ptr<sqlite3, Closer> db_;
};

class SqliteStatement {
public:
    // Binds are 1-based, like SQLite's.
    SqliteStatement& bind(int index, std::string_view text);
    SqliteStatement& bind(int index, std::int64_t value);
    SqliteStatement& bind(int index, double value);
    SqliteStatement& bind_null(int index);
    // Advances to the next row; false when done.
    bool step();
    // Runs a statement that returns no rows.
    void run();
    // Back to before the first step, for new binds (the old ones stay until rebound).
    void reset();

    std::string text(int column) const;
    std::int64_t integer(int column) const;
    double real(int column) const;
    bool is_null(int column) const;

private:
    friend class SqliteConnection;
    struct Finalizer {
        void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
    };
    SqliteStatement(const SqliteConnection& conn, sqlite3_stmt* stmt) : conn_(&conn), stmt_(stmt) {}
    void check_bind(int rc, int index);
    const SqliteConnection* conn_;
    std::unique_ptr<sqlite3_stmt, Finalizer> stmt_;
};

} // namespace burst
