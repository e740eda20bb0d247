import GRDB

// Fixed SQL texts run through GRDB's per-connection statement cache: for the short statements of an import,
// preparing costs more than running (SQLite parses the text, GRDB's authorizer walks every column it reads).
// SQL built at run time (a variable number of placeholders) keeps GRDB's uncached `sql:` forms.

extension Database {
    /// Executes one fixed SQL statement, prepared once per connection.
    func execute(cached sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}

extension Row {
    /// Every row of one fixed SQL statement, prepared once per connection.
    static func fetchAll(_ db: Database, cached sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The first row of one fixed SQL statement, prepared once per connection.
    static func fetchOne(_ db: Database, cached sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// A cursor over the rows of one fixed SQL statement, prepared once per connection.
    static func fetchCursor(_ db: Database, cached sql: String, arguments: StatementArguments = StatementArguments()) throws -> RowCursor {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// Every value of one fixed SQL statement, prepared once per connection.
    static func fetchAll(_ db: Database, cached sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The first value of one fixed SQL statement, prepared once per connection.
    static func fetchOne(_ db: Database, cached sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    /// The distinct values of one fixed SQL statement, prepared once per connection.
    static func fetchSet(_ db: Database, cached sql: String, arguments: StatementArguments = StatementArguments()) throws -> Set<Self> {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments)
    }
}
