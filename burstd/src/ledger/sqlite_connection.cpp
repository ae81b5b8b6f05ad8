#include "ledger/sqlite_connection.hpp"

namespace burst {

SqliteConnection::SqliteConnection(const std::string& path, bool create) : path_(path)
{
    sqlite3* raw = nullptr;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
    int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
    db_.reset(raw); // sqlite3_open_v2 hands out a handle even on failure
    if (rc != SQLITE_OK)
        fail("cannot open");
    sqlite3_extended_result_codes(raw, 1);
}

void SqliteConnection::fail(std::string_view what) const
{
    std::string msg = std::string(what) + " on " + path_ + ": " +
                      (db_ ? sqlite3_errmsg(db_.get()) : "out of memory");
    throw SqliteError(msg);
}

void SqliteConnection::exec(std::string_view sql)
{
    std::string copy(sql);
    if (sqlite3_exec(db_.get(), copy.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
        fail("cannot execute \"" + copy.substr(0, 60) + "\"");
}

void SqliteConnection::rollback() noexcept
{
    if (!sqlite3_get_autocommit(db_.get()))
        sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
}

SqliteStatement SqliteConnection::prepare(std::string_view sql)
{
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_.get(), sql.data(), static_cast<int>(sql.size()), &stmt, nullptr) !=
        SQLITE_OK)
        fail("cannot prepare \"" + std::string(sql.substr(0, 60)) + "\"");
    return SqliteStatement(*this, stmt);
}

std::int64_t SqliteConnection::changes() const
{
    return sqlite3_changes(db_.get());
}

std::int64_t SqliteConnection::last_insert_rowid() const
{
    return sqlite3_last_insert_rowid(db_.get());
}

void SqliteStatement::check_bind(int rc, int index)
{
    if (rc != SQLITE_OK)
        conn_->fail("cannot bind parameter " + std::to_string(index));
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text)
{
    check_bind(sqlite3_bind_text(stmt_.get(), index, text.data(), static_cast<int>(text.size()),
                                 SQLITE_TRANSIENT),
               index);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value)
{
    check_bind(sqlite3_bind_int64(stmt_.get(), index, value), index);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value)
{
    check_bind(sqlite3_bind_double(stmt_.get(), index, value), index);
    return *this;
}

SqliteStatement& SqliteStatement::bind_null(int index)
{
    check_bind(sqlite3_bind_null(stmt_.get(), index), index);
    return *this;
}

bool SqliteStatement::step()
{
    int rc = sqlite3_step(stmt_.get());
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    conn_->fail("cannot run \"" + std::string(sqlite3_sql(stmt_.get())).substr(0, 60) + "\"");
}

void SqliteStatement::reset()
{
    sqlite3_reset(stmt_.get());
}

void SqliteStatement::run()
{
    while (step()) {
    }
}

std::string SqliteStatement::text(int column) const
{
    const unsigned char* p = sqlite3_column_text(stmt_.get(), column);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           static_cast<std::size_t>(sqlite3_column_bytes(stmt_.get(), column)))
             : std::string();
}

std::int64_t SqliteStatement::integer(int column) const
{
    return sqlite3_column_int64(stmt_.get(), column);
}

double SqliteStatement::real(int column) const
{
    return sqlite3_column_double(stmt_.get(), column);
}

bool SqliteStatement::is_null(int column) const
{
    return sqlite3_column_type(stmt_.get(), column) == SQLITE_NULL;
}

} // namespace burst
