"""Where records live: versioned JSON records written by compare-and-set, on SQLite or Redis,
and how a process hears that a record changed."""
