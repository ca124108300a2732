#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import; this
// constant gives Swift the same value, telling SQLite to copy bound bytes before returning.
static const sqlite3_destructor_type tabstage_sqlite_transient = (sqlite3_destructor_type)-1;
